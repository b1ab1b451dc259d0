check --color never --no-script --select ALL --ignore ALL cli/mixed.yaml
