check --color never --no-script --config config/bad/pyproject-inline/pyproject.toml config/pyproject/jobs/a.yaml
