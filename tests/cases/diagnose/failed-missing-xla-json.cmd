diagnose --format json diagnose/failed-missing-xla.json
