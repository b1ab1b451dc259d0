config config/tree/sub/d.yaml
