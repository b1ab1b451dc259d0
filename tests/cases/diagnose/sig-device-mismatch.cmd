diagnose --log diagnose/device-mismatch.log diagnose/failed-log-only.json
