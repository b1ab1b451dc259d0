check --color never cli/good.yaml
