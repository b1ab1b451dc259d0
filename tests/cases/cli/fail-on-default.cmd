check --color never cli/warn.yaml
