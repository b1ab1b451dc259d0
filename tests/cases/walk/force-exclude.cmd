check --color never --no-script --ignore compiler-end-of-support --quiet --force-exclude walk/excluded/node_modules/pkg/job.yaml walk/excluded/job.yaml | grep '^walk'
