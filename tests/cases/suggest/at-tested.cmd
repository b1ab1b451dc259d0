suggest suggest/at-tested.yaml
