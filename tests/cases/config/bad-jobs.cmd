check --color never --jobs 0 config/tree
