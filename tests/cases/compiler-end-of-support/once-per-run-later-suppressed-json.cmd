check --color never --no-script --jobs 1 --format json --quiet compiler-end-of-support/run-later-suppressed
