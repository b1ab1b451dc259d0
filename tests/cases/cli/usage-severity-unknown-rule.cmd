check --severity gpu-num-device-mismatch=info cli/warn.yaml
