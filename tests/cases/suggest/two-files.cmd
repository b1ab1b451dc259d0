suggest suggest/distilgpt2.yaml suggest/bert-p4d.yaml
