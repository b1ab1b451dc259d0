check --color never --no-script --select compiler --select efficiency --ignore short-run cli/mixed.yaml
