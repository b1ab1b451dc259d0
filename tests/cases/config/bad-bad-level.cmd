check --color never --config config/bad/bad-level.yaml config/tree/a.yaml
