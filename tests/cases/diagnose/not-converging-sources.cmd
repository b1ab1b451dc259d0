diagnose --baseline diagnose/native.yaml --source-dir diagnose/src-bad diagnose/not-converging.yaml
