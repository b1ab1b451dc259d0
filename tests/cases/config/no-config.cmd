check --color never --no-config config/tree
