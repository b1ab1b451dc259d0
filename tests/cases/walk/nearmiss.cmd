check --color never --no-script walk/nearmiss
