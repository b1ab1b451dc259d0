check --dialect estimater cli/good.yaml
