check --format sarif --sarif-root no-such-dir format/good.yaml
