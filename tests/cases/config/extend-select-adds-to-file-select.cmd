check --color never --no-script --extend-select distribution config/select/job.yaml
