diagnose diagnose-reports/textract-gpu-oom.yaml
