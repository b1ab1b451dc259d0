diagnose --baseline diagnose/native.yaml diagnose/not-converging-no-metric-definitions.yaml
