check --color never --no-script --verbose --statistics walk/nonjobs
