check --color never --no-script walk/pytree
