diagnose --format sarif diagnose/good.yaml
