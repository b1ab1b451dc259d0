check --color never --no-script --config config/bad/pyproject-bad-value/pyproject.toml config/pyproject/jobs/a.yaml
