suggest suggest/distilgpt2.yaml --to ml.p4d.24xlarg
