#!/bin/sh
# validate.sh [-s SCHEMA] [SPEC...] - the project's JSON Schemas checked by an
# independent implementation (Debian python3-jsonschema, python3-yaml):
#
#  1. every schemas/*.schema.json against the draft 2020-12 metaschema
#     (Draft202012Validator.check_schema);
#  2. each SPEC (YAML, every document of a stream, or JSON) against SCHEMA,
#     default schemas/estimator.schema.json.
#
# YAML is read with the YAML 1.2 core schema, as lib/ reads it (PyYAML's
# default is YAML 1.1, where `yes` is a boolean and 012 is octal).
# Prints one line per failure and "N passed, N failed"; exit status 0 when
# nothing failed, 1 when something did, 2 on a usage or setup error.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
exec python3 - "$root" "$@" <<'EOF'
import glob
import json
import os
import re
import sys

try:
    import jsonschema
    import yaml
except ImportError as e:
    sys.stderr.write("validate.sh: %s (apt-get install python3-jsonschema "
                     "python3-yaml)\n" % e)
    sys.exit(2)

root, args = sys.argv[1], sys.argv[2:]
schema_path = os.path.join(root, "schemas", "estimator.schema.json")
if args[:1] == ["-s"]:
    if len(args) < 2:
        sys.stderr.write("usage: validate.sh [-s SCHEMA] [SPEC...]\n")
        sys.exit(2)
    schema_path, args = args[1], args[2:]


class CoreLoader(yaml.SafeLoader):
    """YAML 1.2 core schema: the typing lib/doc.c applies."""


CoreLoader.yaml_implicit_resolvers = {}
CORE = [
    ("tag:yaml.org,2002:null", r"^(?:~|null|Null|NULL|)$", ["~", "n", "N", ""]),
    ("tag:yaml.org,2002:bool", r"^(?:true|True|TRUE|false|False|FALSE)$",
     "tTfF"),
    ("tag:yaml.org,2002:int",
     r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$", "-+0123456789"),
    ("tag:yaml.org,2002:float",
     r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
     r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$", "-+0123456789."),
]
for tag, rx, first in CORE:
    CoreLoader.add_implicit_resolver(tag, re.compile(rx), list(first))


def core_int(loader, node):
    v = loader.construct_scalar(node)
    if v.startswith("0o"):
        return int(v[2:], 8)
    if v.startswith("0x"):
        return int(v[2:], 16)
    return int(v, 10)


def core_float(loader, node):
    v = loader.construct_scalar(node).lower()
    if v.endswith(".inf"):
        return float("-inf") if v.startswith("-") else float("inf")
    if v == ".nan":
        return float("nan")
    return float(v)


CoreLoader.add_constructor("tag:yaml.org,2002:int", core_int)
CoreLoader.add_constructor("tag:yaml.org,2002:float", core_float)
CoreLoader.add_constructor(
    "tag:yaml.org,2002:bool",
    lambda loader, node: loader.construct_scalar(node).lower() == "true")


def strict_constant(name):
    raise ValueError("not JSON: %s" % name)


def documents(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if path.endswith(".json") or text.lstrip()[:1] in ("{", "["):
        return [json.loads(text, parse_constant=strict_constant)]
    return [d for d in yaml.load_all(text, Loader=CoreLoader) if d is not None]


def pointer(path):
    return "/" + "/".join(str(p).replace("~", "~0").replace("/", "~1")
                          for p in path)


passed = failed = 0
V = jsonschema.Draft202012Validator
for path in sorted(glob.glob(os.path.join(root, "schemas", "*.schema.json"))):
    name = os.path.relpath(path, root)
    try:
        with open(path, encoding="utf-8") as f:
            V.check_schema(json.load(f))
        passed += 1
    except (ValueError, jsonschema.exceptions.SchemaError) as e:
        print("FAIL %s: not a valid draft 2020-12 schema: %s"
              % (name, getattr(e, "message", e)))
        failed += 1

try:
    with open(schema_path, encoding="utf-8") as f:
        validator = V(json.load(f))
except (OSError, ValueError) as e:
    sys.stderr.write("validate.sh: %s: %s\n" % (schema_path, e))
    sys.exit(2)

for spec in args:
    try:
        docs = documents(spec)
    except (OSError, ValueError, yaml.YAMLError) as e:
        print("FAIL %s: cannot read: %s" % (spec, str(e).splitlines()[0]))
        failed += 1
        continue
    errors = []
    for i, doc in enumerate(docs):
        for e in validator.iter_errors(doc):
            where = pointer(e.absolute_path)
            if len(docs) > 1:
                where = "document %d %s" % (i + 1, where)
            errors.append("%s: %s" % (where, e.message))
    if errors:
        failed += 1
        for msg in sorted(errors):
            print("FAIL %s: %s" % (spec, msg))
    else:
        passed += 1

print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
EOF
