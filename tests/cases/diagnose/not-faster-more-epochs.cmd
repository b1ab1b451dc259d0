diagnose --baseline diagnose/native.yaml diagnose/not-faster-more-epochs.json
