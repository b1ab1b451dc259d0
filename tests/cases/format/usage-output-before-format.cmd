check --output report.json --format json format/bad.yaml
