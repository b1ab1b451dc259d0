check --color never cli/syntax.yaml cli/good.yaml
