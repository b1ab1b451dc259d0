check --quiet=yes cli/good.yaml
