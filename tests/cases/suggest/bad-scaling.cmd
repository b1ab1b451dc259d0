suggest --lr-scaling cube suggest/distilgpt2.yaml
