check --color never --fail-on warning cli/warn.yaml
