check --color never --no-script walk/configured
