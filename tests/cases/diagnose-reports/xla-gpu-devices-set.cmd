diagnose diagnose-reports/xla-gpu-devices-set.yaml
