check --color never --config config/tree/sub/.sm-preflight.yaml config/tree/a.yaml config/tree/isolated/g.yaml
