check --color never --no-script --ignore compiler-end-of-support --quiet walk/excluded | grep '^walk'
