check --color never --no-script --include-python walk/pytree
