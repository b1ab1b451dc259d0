cd config/pyproject-none && "$1" check --color never --no-script a.yaml
