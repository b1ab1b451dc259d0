check --color never --quiet cli/tree/
