cd config/pyproject && "$1" check --color never --no-script jobs/a.yaml
