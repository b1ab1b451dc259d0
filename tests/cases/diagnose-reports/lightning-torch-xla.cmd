diagnose --log diagnose-reports/lightning-torch-xla.log diagnose-reports/lightning-torch-xla.yaml
