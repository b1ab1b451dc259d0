check --color never walk/nojobs
