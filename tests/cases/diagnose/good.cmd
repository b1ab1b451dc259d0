diagnose --baseline diagnose/native.yaml --source-dir diagnose/src-good diagnose/good.yaml
