NO_COLOR=1 FORCE_COLOR=1 CLICOLOR_FORCE=1 "$1" check cli/error.yaml
