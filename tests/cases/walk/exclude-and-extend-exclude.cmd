check --color never --no-script --ignore compiler-end-of-support --quiet --exclude drafts --extend-exclude build walk/excluded | grep '^walk'
