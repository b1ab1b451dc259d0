suggest suggest/far-native.yaml
