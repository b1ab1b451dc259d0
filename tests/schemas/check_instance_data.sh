#!/bin/sh
# check_instance_data.sh - validates instance-data/*.json against
# schemas/*.schema.json (draft 2020-12) with Debian python3-jsonschema.
#
#   check_instance_data.sh [--cli CLI] [--if-available]
#
# Each schema must itself be valid, must accept its data file, and must
# reject a copy of the data with one wrong-typed field (so a schema that
# accepts everything cannot pass). Then the agreement test: copies of the
# data made absurd or hostile in one place (a batch size of 0, no GPUs on
# a GPU type, a terminal escape in a type name, a negative memory size...)
# must be rejected by python3-jsonschema, and with --cli by the CLI too
# (`check --instance-data` exits 2 with file:line:column), which validates
# with the same schemas compiled into the library; the unchanged data must
# load. --if-available: a missing python3-jsonschema is a message and
# exit status 0. Run from anywhere; exits non-zero on any failure.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
exec python3 - "$root" "$@" <<'PY'
import copy
import json
import os
import re
import subprocess
import sys
import tempfile

root = sys.argv[1]
args = sys.argv[2:]
cli = None
if_available = False
while args:
    a = args.pop(0)
    if a == "--cli" and args:
        cli = args.pop(0)
    elif a == "--if-available":
        if_available = True
    else:
        sys.stderr.write("usage: check_instance_data.sh [--cli CLI] "
                         "[--if-available]\n")
        sys.exit(2)

try:
    from jsonschema import Draft202012Validator
except ImportError:
    sys.stderr.write("check_instance_data: python3-jsonschema is missing "
                     "(apt-get install python3-jsonschema)\n")
    sys.exit(0 if if_available else 2)

# data file, schema, and a path whose value a broken copy turns to a string
cases = [
    ("instances.json", "instances.schema.json", ("instances", 0, "gpus")),
    ("tested-models.json", "tested-models.schema.json",
     ("models", 0, "compiler_batch_size")),
    ("frameworks.json", "frameworks.schema.json", ("images", 0, "py_versions")),
]
passed = failed = 0
data = {}
validators = {}
for data_name, schema_name, path in cases:
    ok = True
    try:
        with open("%s/schemas/%s" % (root, schema_name), encoding="utf-8") as f:
            schema = json.load(f)
        with open("%s/instance-data/%s" % (root, data_name),
                  encoding="utf-8") as f:
            data[data_name] = json.load(f)
        Draft202012Validator.check_schema(schema)
        v = validators[data_name] = Draft202012Validator(schema)
        for e in sorted(v.iter_errors(data[data_name]),
                        key=lambda e: list(e.path)):
            ok = False
            print("instance-data/%s: /%s: %s" % (
                data_name, "/".join(str(p) for p in e.path), e.message))
        broken = copy.deepcopy(data[data_name])
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
if failed or len(validators) != len(cases):
    sys.exit(1)


def row(rows, key, value):
    """The index of the first row whose key is value."""
    return next(i for i, r in enumerate(rows) if r.get(key) == value)


gpu = row(data["instances.json"]["instances"], "type", "ml.p3.8xlarge")
cpu = row(data["instances.json"]["instances"], "gpu_model", None)
# (file, path, value) made absurd; each must be refused by both sides
absurd = [
    ("tested-models.json", ("models", 0, "compiler_batch_size"), 0),
    ("tested-models.json", ("models", 0, "compiler_batch_size"), 10 ** 7),
    ("tested-models.json", ("models", 0, "native_batch_size"), 0),
    ("tested-models.json", ("models", 0, "instance_type"), "ml.p3.\u0007"),
    ("tested-models.json", ("models", 0, "framework"), "mxnet"),
    ("instances.json", ("instances", gpu, "gpus"), 0),
    ("instances.json", ("instances", gpu, "gpus"), 4000),
    ("instances.json", ("instances", cpu, "gpus"), 2),
    ("instances.json", ("instances", cpu, "gpu_memory_gib"), 16),
    ("instances.json", ("instances", gpu, "gpu_memory_gib"), -16),
    ("instances.json", ("instances", gpu, "gpu_memory_gib"), 0),
    ("instances.json", ("instances", gpu, "memory_gib"), -1),
    ("instances.json", ("instances", gpu, "vcpus"), 0),
    ("instances.json", ("instances", gpu, "network_gbps"), 0),
    ("instances.json", ("instances", gpu, "type"),
     "ml.p3.8xlarge\u001b[2J\n::error::x"),
    ("instances.json", ("instances", gpu, "type"), "ML.P3.8XLARGE"),
    ("instances.json", ("instances", gpu, "tpus"), 1),
    ("instances.json", ("schema_version",), 2),
    ("instances.json", ("generated",), "30/11/2026"),
    ("frameworks.json", ("sdk_efa_instance_types", 0), "ml.p4d\u001b]0;x"),
    ("frameworks.json", ("supported_instance_classes", 0), ""),
    ("frameworks.json", ("images", 0, "py_versions"), []),
    ("frameworks.json", ("images", 0, "transformers_version"), None),
    ("frameworks.json", ("image_registries", 0, "account"), "12345"),
]
good = os.path.join(root, "tests", "cases", "cli", "good.yaml")
env = dict(os.environ, SM_PREFLIGHT_STALE_DAYS="0",
           XDG_CACHE_HOME=tempfile.gettempdir() + "/smp-no-cache")


def run_cli(folder):
    p = subprocess.run([cli, "check", "--no-script", "--instance-data",
                        folder, good], env=env, capture_output=True,
                       text=True, errors="replace", timeout=60)
    return p.returncode, p.stdout + p.stderr


passed = failed = 0
with tempfile.TemporaryDirectory() as tmp:
    if cli:
        for name, doc in data.items():
            with open(os.path.join(tmp, name), "w", encoding="utf-8") as f:
                json.dump(doc, f, indent=2)
        rc, out = run_cli(tmp)
        if rc not in (0, 1) or "cannot load" in out:
            failed += 1
            print("the CLI refuses the unchanged data: %s" % out.strip())
    for name, path, value in absurd:
        doc = copy.deepcopy(data[name])
        node = doc
        for p in path[:-1]:
            node = node[p]
        node[path[-1]] = value
        where = "%s /%s = %r" % (name, "/".join(str(p) for p in path), value)
        if validators[name].is_valid(doc):
            failed += 1
            print("python3-jsonschema accepts %s" % where)
            continue
        if cli:
            with open(os.path.join(tmp, name), "w", encoding="utf-8") as f:
                json.dump(doc, f, indent=2)
            rc, out = run_cli(tmp)
            with open(os.path.join(tmp, name), "w", encoding="utf-8") as f:
                json.dump(data[name], f, indent=2)
            pos = re.search(re.escape(name) + r":[0-9]+:[0-9]+: ", out)
            if rc != 2 or not pos:
                failed += 1
                print("the CLI does not refuse %s with a position (exit "
                      "%d): %s" % (where, rc, out.strip()))
                continue
            if "\u001b" in out or re.search(r"^::error::", out, re.M):
                failed += 1
                print("the CLI prints %s raw: %r" % (where, out))
                continue
        passed += 1
print("instance-data agreement%s: %d passed, %d failed" % (
    " with %s" % os.path.basename(cli) if cli else "", passed, failed))
sys.exit(1 if failed else 0)
PY
