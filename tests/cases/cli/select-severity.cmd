check --color never --no-script --select compiler-debug --severity compiler-debug=error cli/mixed.yaml
