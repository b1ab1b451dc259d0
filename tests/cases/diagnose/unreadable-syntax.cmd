diagnose diagnose/broken.json
