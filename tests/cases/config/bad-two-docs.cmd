check --color never --config config/bad/two-docs.yaml config/tree/a.yaml
