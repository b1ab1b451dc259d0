check --color never --no-script --select distribution --extend-select unknown-key config/select/job.yaml
