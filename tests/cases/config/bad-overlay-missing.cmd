check --color never --config config/bad/overlay-missing.yaml config/tree/a.yaml
