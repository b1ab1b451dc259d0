check --color never --no-script --format json walk/nonjobs
