FORCE_COLOR=1 "$1" check --color never cli/error.yaml
