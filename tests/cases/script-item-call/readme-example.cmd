cd ../.. && "$1" check --color never examples/bert-xla-loop.yaml
