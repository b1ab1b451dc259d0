check --color never --no-script --ignore efficiency,compiler --select compiler-debug cli/mixed.yaml
