check --color never --disable gpu-num-devices-mismatch cli/warn.yaml cli/error.yaml
