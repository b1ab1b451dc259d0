suggest - < suggest/distilgpt2.yaml
