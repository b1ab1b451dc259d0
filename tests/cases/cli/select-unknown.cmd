check --color never --select instanse cli/mixed.yaml
