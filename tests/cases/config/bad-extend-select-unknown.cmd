check --color never --no-script --extend-select distributon config/select/job.yaml
