check --color never --config config/bad/wrong-type.yaml config/tree/a.yaml
