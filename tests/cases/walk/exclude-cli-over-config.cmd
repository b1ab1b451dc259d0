check --color never --no-script --ignore compiler-end-of-support --quiet --exclude 'walk/excluded-config/node_modules' walk/excluded-config | grep '^walk'
