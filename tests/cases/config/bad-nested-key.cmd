check --color never --config config/bad/nested-key.yaml config/tree/a.yaml
