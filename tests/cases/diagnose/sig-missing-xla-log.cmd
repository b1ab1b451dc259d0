diagnose --log diagnose/missing-xla.log diagnose/failed-log-only.json
