check --color never --no-script walk/nojobs cli/good.yaml
