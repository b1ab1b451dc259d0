diagnose --baseline diagnose/native.yaml diagnose/failed-oom.json
