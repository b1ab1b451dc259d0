cd format && GITHUB_WORKSPACE=.. "$1" check --format github --no-script bad.yaml ../format/good.yaml
