check --color never --config config/bad/missing.yaml config/tree/a.yaml
