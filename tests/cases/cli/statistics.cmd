check --color never --no-script --quiet --statistics cli/mixed.yaml cli/error.yaml
