check --format sarif --sarif-root format/good.yaml format/good.yaml
