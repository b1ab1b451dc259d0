check --color never --severity gpu-num-devices-mismatch=info cli/error.yaml
