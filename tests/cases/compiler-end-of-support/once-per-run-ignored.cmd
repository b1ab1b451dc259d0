check --color never --no-script --ignore compiler-end-of-support compiler-end-of-support/run
