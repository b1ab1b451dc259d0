check --format json --output format format/bad.yaml
