config config/pyproject-exclude
