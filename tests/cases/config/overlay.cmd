check --color never --no-script config/tree/overlay/new-type.yaml
