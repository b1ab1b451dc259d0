#!/bin/sh
# validate.sh - the project's job-spec schemas checked by an independent
# JSON Schema implementation (Debian python3-jsonschema, python3-yaml),
# and kept in agreement with the C checks.
#
#   validate.sh [--cli CLI] [--if-available]
#       1. every schemas/*.schema.json against the draft 2020-12
#          metaschema (Draft202012Validator.check_schema);
#       2. the agreement test: every examples/* and tests/cases/*/* spec
#          (.yaml, .yml, .json) is validated against the schema of its
#          dialect, detected from the keys as lib/dialect.c does (or
#          forced by --dialect in the case's .args), and the verdict
#          (valid / invalid in structure) must equal whether CLI (default
#          build/sm-preflight) reported a structural rule for the file:
#          unknown-key, wrong-type, value-not-string, api-limits,
#          distribution-unknown-key, gpu-num-devices-invalid. Files that
#          do not parse (syntax, input-limit) or repeat a key are skipped:
#          the two sides do not read the same document then.
#       3. `diagnose --format json` of each golden diagnose case against
#          schemas/diagnosis.schema.json.
#   validate.sh [-s SCHEMA] SPEC...
#       validates each SPEC (every document of a YAML stream, or JSON)
#       against SCHEMA, default: the schema of the spec's dialect.
#
# YAML is read with the YAML 1.2 core schema, as lib/ reads it (PyYAML's
# default is YAML 1.1, where `yes` is a boolean and 012 is octal).
# Prints one line per failure and a summary; exit status 0 when nothing
# failed, 1 when something did, 2 on a usage or setup error. With
# --if-available a missing python3-jsonschema or python3-yaml is a
# message and exit status 0 (for make check-all).
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
exec python3 - "$root" "$@" <<'EOF'
import glob
import json
import os
import re
import subprocess
import sys

root, args = sys.argv[1], sys.argv[2:]
cli = os.path.join(root, "build", "sm-preflight")
schema_path = None
if_available = False
while args and args[0].startswith("-"):
    if args[0] == "--if-available":
        if_available = True
        args = args[1:]
    elif args[0] in ("--cli", "-s") and len(args) >= 2:
        if args[0] == "--cli":
            cli = os.path.abspath(args[1])
        else:
            schema_path = args[1]
        args = args[2:]
    else:
        sys.stderr.write("usage: validate.sh [--cli CLI] [--if-available] "
                         "| [-s SCHEMA] SPEC...\n")
        sys.exit(2)

try:
    import jsonschema
    import yaml
except ImportError as e:
    msg = "%s (apt-get install python3-jsonschema python3-yaml)" % e
    if if_available:
        print("schema agreement: skipped, %s" % msg)
        sys.exit(0)
    sys.stderr.write("validate.sh: %s\n" % msg)
    sys.exit(2)


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


V = jsonschema.Draft202012Validator
SCHEMAS = {
    "estimator": "estimator.schema.json",
    "model_trainer": "model-trainer.schema.json",
    "create_training_job": "create-training-job.schema.json",
}


def load_schema(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def top_keys(schema, node, seen):
    """The property names allowed at the top: the root's and those of the
    schemas it applies in place ($ref, allOf, anyOf, then, else), as
    lib/schema.c collects them."""
    if not isinstance(node, dict) or id(node) in seen:
        return set()
    seen.add(id(node))
    keys = set(node.get("properties", {}))
    ref = node.get("$ref")
    if ref:
        target = schema
        for part in ref.lstrip("#/").split("/"):
            target = target[part.replace("~1", "/").replace("~0", "~")]
        keys |= top_keys(schema, target, seen)
    for k in ("then", "else"):
        keys |= top_keys(schema, node.get(k), seen)
    for k in ("allOf", "anyOf"):
        for sub in node.get(k, []):
            keys |= top_keys(schema, sub, seen)
    return keys


def distance(a, b, limit):
    """Optimal string alignment distance, ASCII case folded, on bytes, as
    lib/text.c smp__edit_distance (limit+1 when over the limit)."""
    a = a.encode("utf-8").lower()
    b = b.encode("utf-8").lower()
    if len(a) > 64 or len(b) > 64 or abs(len(a) - len(b)) > limit:
        return limit + 1
    prev2, prev = None, list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            v = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if (i > 1 and j > 1 and a[i - 1] == b[j - 2]
                    and a[i - 2] == b[j - 1]):
                v = min(v, prev2[j - 2] + 1)
            cur[j] = v
        prev2, prev = prev, cur
    return min(prev[len(b)], limit + 1)


def close(word, keys):
    n = len(word.encode("utf-8"))
    limit = 1 if n < 4 else 2 if n < 8 else 3
    return any(distance(word, k, limit) <= limit for k in keys)


ORDER = ("estimator", "model_trainer", "create_training_job")


def detect(doc, keysets):
    """lib/dialect.c smp__detect_dialect: keys only one dialect has decide
    (most wins, earlier on a tie); shared keys only: estimator; no known
    key: the dialect with most near misses; else None."""
    exact = dict.fromkeys(ORDER, 0)
    near = dict.fromkeys(ORDER, 0)
    known = False
    for k in doc:
        if not isinstance(k, str) or "\0" in k:
            continue
        hits = [d for d in ORDER if k in keysets[d]]
        known = known or bool(hits)
        if len(hits) == 1:
            exact[hits[0]] += 1
        if not hits:
            for d in ORDER:
                if close(k, keysets[d]):
                    near[d] += 1

    def best(score):
        top = ORDER[0]
        for d in ORDER[1:]:
            if score[d] > score[top]:
                top = d
        return top if score[top] else None

    if best(exact):
        return best(exact)
    if known:
        return "estimator"
    return best(near)


def schema_errors(validator, doc):
    return ["%s: %s" % (pointer(e.absolute_path), e.message)
            for e in validator.iter_errors(doc)]


def is_tuning(doc):
    """lib/job/tuning.c is_tuning_request"""
    return (("TrainingJobDefinition" in doc or "TrainingJobDefinitions" in doc)
            and ("HyperParameterTuningJobConfig" in doc
                 or "HyperParameterTuningJobName" in doc))


def tuning_errors(doc):
    """A tuning request as lib/rules/check_buffer.c checks it: the request
    against its schema, then each definition's CreateTrainingJob members
    (those the tuning schema leaves to it) as a CreateTrainingJob request."""
    errors = schema_errors(tuning_validator, doc)
    defs = [doc.get("TrainingJobDefinition")]
    if isinstance(doc.get("TrainingJobDefinitions"), list):
        defs += doc["TrainingJobDefinitions"]
    props = tuning_schema["$defs"]["HyperParameterTrainingJobDefinition"]["properties"]
    shared = [k for k, v in props.items()
              if "checked as the CreateTrainingJob" in v.get("description", "")]
    for d in defs:
        if not isinstance(d, dict):
            continue
        req = {("HyperParameters" if k == "StaticHyperParameters" else k): v
               for k, v in d.items() if k in shared}
        errors += schema_errors(validators["create_training_job"], req)
    return errors


passed = failed = 0
for path in sorted(glob.glob(os.path.join(root, "schemas", "*.schema.json"))):
    name = os.path.relpath(path, root)
    try:
        V.check_schema(load_schema(path))
        passed += 1
    except (ValueError, jsonschema.exceptions.SchemaError) as e:
        print("FAIL %s: not a valid draft 2020-12 schema: %s"
              % (name, getattr(e, "message", e)))
        failed += 1

validators, keysets = {}, {}
for d, name in SCHEMAS.items():
    s = load_schema(os.path.join(root, "schemas", name))
    validators[d] = V(s)
    keysets[d] = top_keys(s, s, set())
fixed = V(load_schema(schema_path)) if schema_path else None
tuning_schema = load_schema(os.path.join(
    root, "schemas", "create-hyper-parameter-tuning-job.schema.json"))
tuning_validator = V(tuning_schema)

# validate.sh SPEC...: each against its (or the given) schema
if args:
    for spec in args:
        try:
            docs = documents(spec)
        except (OSError, ValueError, yaml.YAMLError) as e:
            print("FAIL %s: cannot read: %s" % (spec, str(e).splitlines()[0]))
            failed += 1
            continue
        errors = []
        for i, doc in enumerate(docs):
            d = detect(doc, keysets) if isinstance(doc, dict) else None
            v = fixed or validators.get(d)
            if v is None:
                errors.append("no dialect detected")
                continue
            for msg in schema_errors(v, doc):
                where = "document %d %s" % (i + 1, msg) if len(docs) > 1 else msg
                errors.append(where)
        if errors:
            failed += 1
            for msg in sorted(errors):
                print("FAIL %s: %s" % (spec, msg))
        else:
            passed += 1
    print("%d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed else 0)

print("schemas: %d passed, %d failed" % (passed, failed))
schemas_failed = failed

# the agreement test
STRUCTURAL = {"unknown-key", "wrong-type", "value-not-string", "api-limits",
              "distribution-unknown-key", "gpu-num-devices-invalid"}
# rules that supersede a structural one at the same value (rules.def S()):
# gpu-num-devices-mismatch's fix, a quoted count, says the structural
# problem too, so it answers a schema error but is none by itself;
# pytorchxla-version says a misspelt pytorchxla on a framework without one
SUPERSEDING = {"gpu-num-devices-mismatch", "pytorchxla-version"}
UNPARSED = {"syntax", "input-limit", "duplicate-key"}
# structural findings the C rules make outside the schema: the hyperparameter
# n_gpus (hyperparameters are free-form in the schemas)
C_ONLY = re.compile(r"\[gpu-num-devices-invalid\]$")
C_ONLY_MESSAGE = "hyperparameter 'n_gpus'"
# values C cannot hold or that contradict their tag: Python reads an
# integer of any size, and its loader takes '!!bool yes' at its tag
C_ONLY_VALUE = re.compile(r"found (an integer out of range|text tagged !!)")
LINE = re.compile(r"^.*?:\d+:\d+: (?:error|warning|info): (.*) \[([a-z0-9-]+)\]$")

if not os.access(cli, os.X_OK):
    sys.stderr.write("validate.sh: '%s' is not an executable (--cli)\n" % cli)
    sys.exit(2)

specs = []
for pattern in ("examples/*", "tests/cases/*/*"):
    for path in sorted(glob.glob(os.path.join(root, pattern))):
        if os.path.splitext(path)[1] in (".yaml", ".yml", ".json"):
            specs.append(path)

passed = failed = skipped = 0
for path in specs:
    name = os.path.relpath(path, root)
    forced = None
    argfile = os.path.splitext(path)[0] + ".args"
    if os.path.exists(argfile):
        with open(argfile, encoding="utf-8") as f:
            m = re.search(r"--dialect[ =](\S+)", f.read())
            forced = m.group(1) if m else None
    cmd = [cli, "check", "--format", "text", "--color", "never"]
    if forced:
        cmd += ["--dialect", forced]
    out = subprocess.run(cmd + [path], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, cwd=root).stdout
    rules = []
    for line in out.decode("utf-8", "replace").splitlines():
        m = LINE.match(line)
        if m and not (C_ONLY.search(line) and m.group(1).startswith(C_ONLY_MESSAGE)) \
                and not C_ONLY_VALUE.search(m.group(1)):
            rules.append(m.group(2))
    if UNPARSED & set(rules):
        skipped += 1
        continue
    try:
        docs = documents(path)
    except (OSError, ValueError, UnicodeDecodeError, yaml.YAMLError):
        skipped += 1
        continue
    errors = []
    for doc in docs:
        if not isinstance(doc, dict):
            errors.append("/: a job spec must be a mapping")
            continue
        d = forced or detect(doc, keysets)
        if not forced and is_tuning(doc):
            errors += tuning_errors(doc)
        elif d in validators:
            errors += schema_errors(validators[d], doc)
    c_says = sorted(set(rules) & STRUCTURAL)
    if errors and not c_says:
        c_says = sorted(set(rules) & SUPERSEDING)
    if bool(errors) == bool(c_says):
        passed += 1
        continue
    failed += 1
    if errors:
        print("FAIL %s: the schema finds %s; sm-preflight reports no "
              "structural rule" % (name, "; ".join(sorted(errors)[:3])))
    else:
        print("FAIL %s: sm-preflight reports %s; the schema finds nothing"
              % (name, ", ".join(c_says)))
print("schema agreement: %d skipped (syntax, input limits or repeated keys)"
      % skipped)
print("schema agreement: %d passed, %d failed" % (passed, failed))
agreement_failed = failed

# diagnose --format json against schemas/diagnosis.schema.json, for every
# golden diagnose case that prints a diagnosis (its .cmd, with --format json)
diag = V(load_schema(os.path.join(root, "schemas", "diagnosis.schema.json")))
passed = failed = 0
cases = os.path.join(root, "tests", "cases")
for cmd in sorted(glob.glob(os.path.join(cases, "diagnose", "*.cmd"))):
    with open(cmd, encoding="utf-8") as f:
        line = f.read().strip()
    if not line.startswith("diagnose ") or "<" in line or "--help" in line:
        continue
    argv = [cli] + line.split() + ["--format", "json"]
    run = subprocess.run(argv, cwd=cases, capture_output=True, text=True)
    if run.returncode not in (0, 1):
        continue  # usage errors and unreadable inputs print no diagnosis
    name = os.path.relpath(cmd, root)
    try:
        errors = schema_errors(diag, json.loads(run.stdout))
    except ValueError as e:
        errors = ["not JSON: %s" % e]
    if errors:
        failed += 1
        for msg in sorted(errors)[:3]:
            print("FAIL %s: %s" % (name, msg))
    else:
        passed += 1
print("diagnosis schema: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed or agreement_failed or schemas_failed else 0)
EOF
