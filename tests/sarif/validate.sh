#!/bin/sh
# validate.sh - the machine formats of `check` against their schemas:
#
#   sh tests/sarif/validate.sh [--if-available] [CLI]
#
# For every folder of golden cases in tests/cases (each a handful of
# specs: valid, invalid, unparsable, entry scripts), CLI (default
# build/sm-preflight) checks its specs in one run and
#   - the SARIF output is validated against the official SARIF 2.1.0 JSON
#     Schema, $SMP_SHARED_DIR/schemas-third-party/sarif-schema-2.1.0.json
#     (default ../shared; read from there, never copied into the repo),
#     with format checks (helpUri and informationUri must be absolute
#     URIs, artifact locations URI references), --rules-uri set to an
#     absolute URL as a CI would;
#   - the JSON output is validated against schemas/report.schema.json.
# Once more over all of them together, with the default (relative)
# --rules-uri, the SARIF is checked for structure only.
#
# Uses Debian's python3-jsonschema (and python3-rfc3987 for the URI
# formats, when installed). Prints one line per failure and "N passed, N
# failed"; exit status 1 when something failed, 2 on a usage error. With
# --if-available, a missing schema, module or CLI is a message and exit
# status 0 (make check-all).
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
python=python3
[ -x /usr/bin/python3 ] && python=/usr/bin/python3
exec "$python" - "$root" "$@" <<'PYEOF'
import glob
import json
import os
import subprocess
import sys

root, args = sys.argv[1], sys.argv[2:]
if_available = False
if args and args[0] == "--if-available":
    if_available = True
    args = args[1:]
if len(args) > 1 or (args and args[0].startswith("-")):
    sys.stderr.write("usage: validate.sh [--if-available] [CLI]\n")
    sys.exit(2)
cli = os.path.abspath(args[0]) if args else os.path.join(root, "build",
                                                         "sm-preflight")
shared = os.environ.get("SMP_SHARED_DIR") or os.path.join(root, "..",
                                                           "shared")
sarif_schema_path = os.path.join(shared, "schemas-third-party",
                                 "sarif-schema-2.1.0.json")
report_schema_path = os.path.join(root, "schemas", "report.schema.json")


def skip(why):
    if if_available:
        print("machine-format validation: skipped, %s" % why)
        sys.exit(0)
    sys.stderr.write("validate.sh: %s\n" % why)
    sys.exit(2)


try:
    import jsonschema
except ImportError:
    skip("python3-jsonschema is not installed "
         "(apt-get install python3-jsonschema)")
if not os.path.isfile(sarif_schema_path):
    skip("the SARIF 2.1.0 schema is not at %s (set SMP_SHARED_DIR)"
         % sarif_schema_path)
if not os.access(cli, os.X_OK):
    skip("no CLI at %s (build it first)" % cli)

with open(sarif_schema_path, encoding="utf-8") as f:
    sarif_schema = json.load(f)
with open(report_schema_path, encoding="utf-8") as f:
    report_schema = json.load(f)
jsonschema.Draft202012Validator.check_schema(report_schema)
sarif_strict = jsonschema.Draft7Validator(
    sarif_schema, format_checker=jsonschema.draft7_format_checker)
sarif_loose = jsonschema.Draft7Validator(sarif_schema)
report_validator = jsonschema.Draft202012Validator(
    report_schema, format_checker=jsonschema.draft202012_format_checker)

passed = failed = 0
cases = os.path.join(root, "tests", "cases")
env = dict(os.environ)
for k in ("GITHUB_ACTIONS", "SM_PREFLIGHT_RULES_URI", "SM_PREFLIGHT_DATA_URL"):
    env.pop(k, None)
env["SM_PREFLIGHT_STALE_DAYS"] = "0"
env["XDG_CACHE_HOME"] = os.path.join(root, "build", ".no-cache")


def run(fmt, specs, extra=(), stdin=None):
    """The CLI's output in fmt for specs, parsed; None on failure."""
    global failed
    cmd = [cli, "check", "--quiet", "--format", fmt] + list(extra) + specs
    with open(stdin or os.devnull, "rb") as f:
        p = subprocess.run(cmd, cwd=cases, env=env, stdin=f,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode not in (0, 1, 2):
        print("FAIL %s: exit %d: %s" % (" ".join(cmd[1:4] + specs[:1]),
                                        p.returncode,
                                        p.stderr.decode(errors="replace")))
        failed += 1
        return None
    try:
        return json.loads(p.stdout.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        print("FAIL %s %s: not JSON: %s" % (fmt, specs[0], e))
        failed += 1
        return None


def validate(name, validator, doc):
    global passed, failed
    if doc is None:
        return
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
    if not errors:
        passed += 1
        return
    failed += 1
    for e in errors[:5]:
        print("FAIL %s: %s: %s" % (name, "/".join(str(p) for p in e.path),
                                   e.message[:200]))


everything = []
for folder in sorted(os.listdir(cases)):
    d = os.path.join(cases, folder)
    if not os.path.isdir(d):
        continue
    specs = sorted(os.path.relpath(p, cases) for ext in ("yaml", "yml", "json")
                   for p in glob.glob(os.path.join(d, "*." + ext)))
    if not specs:
        continue
    everything += specs
    validate("%s (sarif)" % folder, sarif_strict,
             run("sarif", specs,
                 ["--rules-uri", "https://example.org/sm-preflight/docs/rules.md"]))
    validate("%s (json)" % folder, report_validator, run("json", specs))
# a file that cannot be checked: SARIF's toolExecutionNotifications, the
# JSON report's "errors"
missing = ["cli/good.yaml", "cli/no-such-spec.yaml"]
validate("not checked (sarif)", sarif_strict,
         run("sarif", missing,
             ["--rules-uri", "https://example.org/sm-preflight/docs/rules.md"]))
validate("not checked (json)", report_validator, run("json", missing))
# stdin: "<stdin>" must become a valid URI reference
validate("stdin (sarif)", sarif_strict,
         run("sarif", ["-"], ["--rules-uri", "https://example.org/r.md"],
             stdin=os.path.join(cases, "format", "bad.yaml")))
# the validators do reject a broken document (a level SARIF lacks)
doc = run("sarif", ["format/bad.yaml"])
if doc is not None:
    doc["runs"][0]["results"][0]["level"] = "fatal"
    if sarif_loose.is_valid(doc):
        print("FAIL the SARIF schema accepted an invalid level")
        failed += 1
    else:
        passed += 1
# the default base is relative: structure only (formats would warn)
validate("all cases (sarif, default --rules-uri)", sarif_loose,
         run("sarif", everything))

print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
PYEOF
