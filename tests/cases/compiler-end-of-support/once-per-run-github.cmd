check --color never --no-script --format github --quiet compiler-end-of-support/run
