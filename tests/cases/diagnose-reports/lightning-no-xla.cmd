diagnose --log diagnose-reports/lightning-no-xla.log diagnose-reports/lightning-torch-xla.yaml
