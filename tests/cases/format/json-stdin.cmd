check --format json - < format/bad.yaml
