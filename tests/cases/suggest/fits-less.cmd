suggest suggest/fits-less.yaml
