check --color never --no-script --ignore compiler --severity compiler-debug=error cli/mixed.yaml
