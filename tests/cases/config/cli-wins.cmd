check --color never --fail-on error --severity compiler-debug=info config/tree/sub/d.yaml
