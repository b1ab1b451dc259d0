diagnose diagnose/not-converging.yaml
