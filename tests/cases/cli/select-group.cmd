check --color never --no-script --select compiler,gpu-num-devices cli/mixed.yaml
