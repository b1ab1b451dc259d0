check --format json --jobs 3 format/suppressed.yaml format/good.yaml format/bad.yaml
