check --format json --output same.json --format junit --output same.json format/bad.yaml
