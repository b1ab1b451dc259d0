#!/bin/sh
# check_instance_data.sh - validates instance-data/*.json against
# schemas/*.schema.json (draft 2020-12) with Debian python3-jsonschema.
# Each schema must itself be valid, must accept its data file, and must
# reject a copy of the data with one wrong-typed field (so a schema that
# accepts everything cannot pass). Run from anywhere; exits non-zero on
# any failure.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
exec python3 - "$root" <<'PY'
import copy
import json
import sys

try:
    from jsonschema import Draft202012Validator
except ImportError:
    sys.stderr.write("check_instance_data: python3-jsonschema is missing "
                     "(apt-get install python3-jsonschema)\n")
    sys.exit(2)

root = sys.argv[1]
# data file, schema, and a path whose value a broken copy turns to a string
cases = [
    ("instances.json", "instances.schema.json", ("instances", 0, "gpus")),
    ("tested-models.json", "tested-models.schema.json",
     ("models", 0, "compiler_batch_size")),
    ("frameworks.json", "frameworks.schema.json", ("images", 0, "py_versions")),
]
passed = failed = 0
for data_name, schema_name, path in cases:
    ok = True
    try:
        with open("%s/schemas/%s" % (root, schema_name), encoding="utf-8") as f:
            schema = json.load(f)
        with open("%s/instance-data/%s" % (root, data_name),
                  encoding="utf-8") as f:
            data = json.load(f)
        Draft202012Validator.check_schema(schema)
        v = Draft202012Validator(schema)
        for e in sorted(v.iter_errors(data), key=lambda e: list(e.path)):
            ok = False
            print("instance-data/%s: /%s: %s" % (
                data_name, "/".join(str(p) for p in e.path), e.message))
        broken = copy.deepcopy(data)
        node = broken
        for p in path[:-1]:
            node = node[p]
        node[path[-1]] = "not the right type"
        if v.is_valid(broken):
            ok = False
            print("schemas/%s: accepts a string at /%s" % (
                schema_name, "/".join(str(p) for p in path)))
    except Exception as e:  # unreadable file, bad JSON, bad schema
        ok = False
        print("%s: %s" % (data_name, e))
    if ok:
        passed += 1
    else:
        failed += 1
print("instance-data schemas: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
PY
