check cli/good.yaml --fail-on
