check --color never --no-script config/select/job.yaml
