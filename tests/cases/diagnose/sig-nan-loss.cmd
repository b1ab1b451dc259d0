diagnose --log diagnose/nan-loss.log diagnose/nan-metric.yaml
