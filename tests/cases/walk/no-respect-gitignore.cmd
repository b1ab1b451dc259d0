HOME=walk/gitignore-home XDG_CONFIG_HOME=walk/gitignore-home "$1" check --color never --no-script --ignore compiler-end-of-support --quiet --no-respect-gitignore walk/gitignore | grep '^walk'
