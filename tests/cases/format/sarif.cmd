out=$("$1" check --format sarif --rules-uri https://example.org/sm-preflight/docs/rules.md format/bad.yaml format/suppressed.yaml); rc=$?; printf "%s\n" "$out" | sed "/^ *{\"id\": \"/d"; exit $rc
