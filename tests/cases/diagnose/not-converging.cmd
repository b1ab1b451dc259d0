diagnose --baseline diagnose/native.yaml diagnose/not-converging.yaml
