d=$(mktemp -d) && "$1" check --format json -o "$d/r.json" format/bad.yaml format/missing.yaml; rc=$?; grep -c "\"rule\"" "$d/r.json"; ls -A "$d"; rm -rf "$d"; exit $rc
