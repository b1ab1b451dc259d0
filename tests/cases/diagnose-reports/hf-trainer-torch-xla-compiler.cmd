diagnose diagnose-reports/hf-trainer-torch-xla-compiler.yaml
