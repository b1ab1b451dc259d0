check --format json --output a.json --output b.json format/bad.yaml
