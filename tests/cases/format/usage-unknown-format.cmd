check --format xml format/bad.yaml
