check --color never --no-script --config walk/extensions.yaml walk/tree
