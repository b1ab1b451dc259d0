check --format junit format/bad.yaml format/good.yaml format/suppressed.yaml
