diagnose diagnose/failed-missing-xla-env-set.json
