check --color never --no-script --ignore gpu-num-devices config/select/job.yaml
