check --no-script --quiet --statistics --format json cli/mixed.yaml cli/error.yaml 2>&1 >/dev/null
