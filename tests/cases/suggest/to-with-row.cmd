suggest suggest/distilgpt2.yaml --to ml.p3.8xlarge
