check --color never --fail-on never cli/error.yaml
