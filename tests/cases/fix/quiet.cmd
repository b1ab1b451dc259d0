check --no-script --diff --unsafe-fixes fix/quiet.yaml
