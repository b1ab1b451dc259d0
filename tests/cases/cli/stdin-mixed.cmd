check --color never cli/error.yaml - < cli/warn.yaml
