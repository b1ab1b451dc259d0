check --color never --config config/bad/syntax.yaml config/tree/a.yaml
