check --color sometimes cli/good.yaml
