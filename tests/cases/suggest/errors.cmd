suggest suggest/broken.yaml
