check --color never --no-script compiler-end-of-support/run
