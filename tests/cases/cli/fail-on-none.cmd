check --color never --fail-on none cli/error.yaml
