check --color never --config config/bad/unknown-selector.yaml config/tree/a.yaml
