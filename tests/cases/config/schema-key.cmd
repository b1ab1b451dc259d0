check --color never --config config/schema-key/.sm-preflight.yaml config/tree/a.yaml
