check --color never --no-script -j 1 walk/tree
