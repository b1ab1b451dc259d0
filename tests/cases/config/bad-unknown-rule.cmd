check --color never --config config/bad/unknown-rule.yaml config/tree/a.yaml
