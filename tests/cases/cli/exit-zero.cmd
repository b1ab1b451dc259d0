check --exit-zero --no-script format/bad.yaml
