check --color never --no-script --force-exclude -v walk/excluded/node_modules/pkg/job.yaml walk/excluded/build
