check --color never --config config/bad/unknown-key.yaml config/tree/a.yaml
