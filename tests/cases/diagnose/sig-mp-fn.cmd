diagnose --log diagnose/mp-fn.log diagnose/failed-log-only.json
