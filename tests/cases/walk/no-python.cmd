check --color never --no-script --no-python walk/pytree
