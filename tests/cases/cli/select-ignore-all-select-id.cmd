check --color never --no-script --ignore=ALL --select=unknown-key cli/mixed.yaml
