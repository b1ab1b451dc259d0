check --color never --no-script --config config/bad/pyproject-dotted/pyproject.toml config/pyproject/jobs/a.yaml
