GITHUB_ACTIONS=true "$1" check format/bad.yaml
