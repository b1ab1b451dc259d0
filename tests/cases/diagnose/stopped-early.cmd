diagnose --baseline diagnose/native-25-epochs.yaml diagnose/stopped-early.json
