FORCE_COLOR=1 "$1" check cli/error.yaml
