HOME=walk/gitignore-home XDG_CONFIG_HOME=walk/gitignore-home "$1" check --color never --no-script walk/gitignore
