diagnose diagnose-reports/hf-trainer-torch-xla.yaml
