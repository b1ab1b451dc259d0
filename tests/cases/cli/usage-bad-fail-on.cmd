check --fail-on=warn cli/good.yaml
