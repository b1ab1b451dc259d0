GITHUB_ACTIONS=true "$1" check --format text --color never format/bad.yaml
