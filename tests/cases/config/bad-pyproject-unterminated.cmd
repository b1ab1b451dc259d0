check --color never --no-script --config config/bad/pyproject-unterminated/pyproject.toml config/pyproject/jobs/a.yaml
