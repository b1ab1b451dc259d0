cli/warn.yaml
