check --color never --no-script --ignore compiler-end-of-support --quiet --no-force-exclude walk/excluded-config/forced/skip-1.yaml walk/excluded-config/forced/keep.yaml | grep '^walk'
