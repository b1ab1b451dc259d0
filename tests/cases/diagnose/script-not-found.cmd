diagnose --source-dir diagnose/no-such-dir diagnose/good.yaml
