check --color never -q cli/error.yaml cli/syntax.yaml
