check --format json format/bad.yaml format/good.yaml format/suppressed.yaml
