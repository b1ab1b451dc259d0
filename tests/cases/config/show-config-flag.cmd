config --config config/tree/overlay/.sm-preflight.yaml config/tree/a.yaml
