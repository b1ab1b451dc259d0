check --format json --format sarif format/bad.yaml
