check --no-script --diff --unsafe-fixes fix/crlf.yaml
