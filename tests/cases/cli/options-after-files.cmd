check cli/warn.yaml --color=never --fail-on warning
