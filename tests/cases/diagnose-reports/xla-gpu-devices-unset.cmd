diagnose diagnose-reports/xla-gpu-devices-unset.yaml
