CLICOLOR_FORCE=1 "$1" check cli/error.yaml
