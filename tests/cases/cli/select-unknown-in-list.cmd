check --color never --ignore "compiler, nope" cli/mixed.yaml
