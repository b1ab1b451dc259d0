diagnose --baseline diagnose/native.yaml --log diagnose/recompilation.log diagnose/not-faster.json
