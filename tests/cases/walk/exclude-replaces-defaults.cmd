check --color never --no-script --ignore compiler-end-of-support --quiet --exclude drafts walk/excluded | grep '^walk'
