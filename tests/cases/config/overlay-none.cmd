check --color never --no-script --no-config config/tree/overlay/new-type.yaml
