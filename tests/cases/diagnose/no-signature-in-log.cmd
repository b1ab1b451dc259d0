diagnose --log diagnose/clean.log diagnose/failed-log-only.json
