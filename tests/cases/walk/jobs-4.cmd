check --color never --no-script -j 4 walk/tree
