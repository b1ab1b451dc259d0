suggest suggest/bert-api.json --to ml.p3.8xlarge
