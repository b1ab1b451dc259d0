check --color never cli/tree
