check --no-script --fix --show-fixes - < fix/crlf.yaml
