check --color never --no-script --ignore compiler-end-of-support --quiet walk/excluded-config/forced/skip-1.yaml walk/excluded-config/forced/keep.yaml walk/excluded-config/old-1.yaml | grep '^walk'
