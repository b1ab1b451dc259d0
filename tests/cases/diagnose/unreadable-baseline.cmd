diagnose --baseline diagnose/broken.json diagnose/good.yaml
