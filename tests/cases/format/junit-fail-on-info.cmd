check --format junit --fail-on info format/bad.yaml format/good.yaml
