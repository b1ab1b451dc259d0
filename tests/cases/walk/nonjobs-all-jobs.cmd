check --color never --no-script --all-jobs walk/nonjobs
