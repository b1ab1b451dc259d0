check --color never --no-script --ignore compiler-end-of-support --quiet --force-exclude --exclude drafts walk/excluded/node_modules/pkg/job.yaml walk/excluded/drafts/job.yaml
