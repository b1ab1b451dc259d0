diagnose diagnose/nan-metric.yaml
