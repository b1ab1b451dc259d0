check --severity gpu-num-devices-mismatch cli/warn.yaml
