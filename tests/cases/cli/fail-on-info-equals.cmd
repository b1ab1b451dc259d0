check --color never --fail-on=info cli/warn.yaml
