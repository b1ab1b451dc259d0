check --color never --no-script --ignore compiler-end-of-support --quiet config/pyproject-exclude config/pyproject-exclude/drafts/job.yaml | grep '^config'
