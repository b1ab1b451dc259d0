check --color never --no-script --select distribution config/select/job.yaml
