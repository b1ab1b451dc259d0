check --color never --stdin-filename config/tree/sub/piped.yaml - < config/tree/a.yaml
