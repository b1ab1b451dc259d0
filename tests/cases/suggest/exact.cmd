suggest suggest/bert-p4d.yaml
