check --color never --no-script --config config/bad/pyproject-unknown-key/pyproject.toml config/pyproject/jobs/a.yaml
