diagnose --log diagnose/gpu-int.log diagnose/failed-log-only.json
