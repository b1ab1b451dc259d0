check --no-script --diff fix/crlf.yaml
