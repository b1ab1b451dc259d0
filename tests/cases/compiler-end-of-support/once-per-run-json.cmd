check --color never --no-script --jobs 1 --format json --statistics --quiet compiler-end-of-support/run
