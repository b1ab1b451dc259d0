check --output-format json --no-script --exit-zero format/bad.yaml
