check --color never --baseline baseline-drift/missing.yaml baseline-drift/quiet.yaml
