suggest suggest/distilgpt2.yaml --to ml.g5.2xlarge
