check --color never --no-script --ignore compiler-end-of-support --quiet walk/excluded-config | grep '^walk'
