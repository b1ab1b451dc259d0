check --severity gpu-num-devices-mismatch=fatal cli/warn.yaml
