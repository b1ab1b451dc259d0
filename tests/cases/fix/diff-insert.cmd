check --no-script --diff fix/insert.json
