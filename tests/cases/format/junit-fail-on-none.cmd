check --format junit --fail-on none format/bad.yaml format/good.yaml
