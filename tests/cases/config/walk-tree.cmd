check --color never config/tree
