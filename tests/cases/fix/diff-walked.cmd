check --no-script --diff fix/walked
