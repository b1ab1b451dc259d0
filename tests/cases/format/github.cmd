check --format github format/bad.yaml format/good.yaml format/suppressed.yaml
