check --color never --config config/none/.sm-preflight.yaml cli/error.yaml
