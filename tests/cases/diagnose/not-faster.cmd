diagnose --baseline diagnose/native.yaml diagnose/not-faster.json
