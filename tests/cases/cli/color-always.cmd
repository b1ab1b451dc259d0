check --color always cli/error.yaml
