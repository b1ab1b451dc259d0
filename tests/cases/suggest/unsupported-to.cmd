suggest suggest/distilgpt2.yaml --to ml.p4de.24xlarge
