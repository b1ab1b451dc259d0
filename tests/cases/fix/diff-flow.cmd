check --no-script --diff fix/flow.yaml
