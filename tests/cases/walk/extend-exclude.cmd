check --color never --no-script --extend-exclude "walk/nearmiss/*.py" --extend-exclude torchxla.yaml --extend-exclude "**/gpu-*.yaml" walk/nearmiss
