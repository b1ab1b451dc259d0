check --format text --color never format/suppressed.yaml
