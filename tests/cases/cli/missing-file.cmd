check --color never cli/warn.yaml cli/missing.yaml cli/error.yaml
