diagnose diagnose-reports/textract-host-oom.yaml
