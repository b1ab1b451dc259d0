check --color never --baseline baseline-drift/broken.yaml baseline-drift/quiet.yaml
