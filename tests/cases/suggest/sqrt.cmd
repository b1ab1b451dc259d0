suggest --lr-scaling sqrt suggest/bert-p4d.yaml
