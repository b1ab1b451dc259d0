check --no-script --diff --all-jobs fix/walked
