cd config/pyproject-both && "$1" config a.yaml
