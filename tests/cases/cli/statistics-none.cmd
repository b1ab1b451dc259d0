check --color never --no-script --statistics cli/good.yaml
