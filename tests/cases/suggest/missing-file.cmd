suggest suggest/nothing-here.yaml
