diagnose --baseline diagnose/native.yaml diagnose/failed-oom-tested-batch.json
