check --color never --config config/bad/schema-without-dollar.yaml config/tree/a.yaml
