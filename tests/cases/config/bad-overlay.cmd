check --color never --config config/bad/overlay.yaml config/tree/a.yaml
