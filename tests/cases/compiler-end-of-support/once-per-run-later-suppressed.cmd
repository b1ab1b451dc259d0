check --color never --no-script --jobs 1 compiler-end-of-support/run-later-suppressed
