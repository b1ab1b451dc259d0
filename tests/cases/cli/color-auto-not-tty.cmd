check cli/error.yaml
