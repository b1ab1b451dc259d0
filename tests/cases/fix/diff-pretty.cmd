check --no-script --diff fix/pretty.json
