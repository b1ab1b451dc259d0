CLICOLOR_FORCE=0 "$1" check cli/error.yaml
