cd config/pyproject && "$1" config jobs/a.yaml
