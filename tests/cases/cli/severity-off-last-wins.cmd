check --color never --severity=gpu-num-devices-mismatch=error --disable gpu-num-devices-mismatch cli/error.yaml
