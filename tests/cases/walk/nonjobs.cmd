check --color never --no-script walk/nonjobs
