suggest suggest/distilgpt2.yaml --to=ml.p3dn.24xlarge --lr-scaling sqrt
