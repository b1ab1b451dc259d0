check --color never --no-script --format sarif --quiet compiler-end-of-support/run | grep -c '"ruleId": "compiler-end-of-support"'
