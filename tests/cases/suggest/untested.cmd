suggest suggest/custom-model.yaml
