out=$("$1" check --format sarif - < format/bad.yaml); rc=$?; printf "%s\n" "$out" | sed -e "/^ *{\"id\": \"/d" -e "s|\"file://[^\"]*/tests/cases/\"|\"file:///CHECKOUT/tests/cases/\"|"; exit $rc
