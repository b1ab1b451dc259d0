chek cli/good.yaml
