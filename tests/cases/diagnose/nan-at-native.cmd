diagnose --baseline diagnose/native.yaml --log diagnose/nan-loss.log diagnose/nan-at-native.yaml
