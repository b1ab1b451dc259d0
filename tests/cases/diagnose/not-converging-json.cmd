diagnose --format json --baseline diagnose/native.yaml diagnose/not-converging.yaml
