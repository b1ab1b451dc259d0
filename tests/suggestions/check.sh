#!/bin/sh
# check.sh - the JSON report's suggestions over every golden case:
#
#   sh tests/suggestions/check.sh [CLI]
#
# CLI (default build/sm-preflight) checks every spec of tests/cases (YAML,
# JSON, launchers and notebooks, entry scripts read) with --format json,
# one run per folder, and each finding's suggestion must be
#   - null, {"op": "set", "pointer": P, "value": V} with V a string,
#     number or boolean, or {"op": "rename", "from": P0, "pointer": P}
#     with P a sibling of P0;
#   - a string for the environment map and for a CreateTrainingJob
#     request's hyperparameters (maps of strings in the API);
#   - the only replacement for its pointer: no two findings of one
#     single-job file (JSON, or YAML of one document) suggest different
#     values for the same pointer.
# Prints one line per failure and "suggestions: N passed, N failed"; exit
# status 1 when something failed, 2 without python3 or the CLI.
root=$(cd "$(dirname "$0")/../.." && pwd)
cli=${1:-$root/build/sm-preflight}
case $cli in /*) ;; *) cli=$(pwd)/$cli ;; esac
command -v python3 >/dev/null 2>&1 || {
	echo "check.sh: needs python3" >&2
	exit 2
}
[ -x "$cli" ] || {
	echo "check.sh: '$cli' is not an executable" >&2
	exit 2
}
exec python3 - "$root" "$cli" <<'PYEOF'
import glob
import json
import os
import subprocess
import sys

root, cli = sys.argv[1], sys.argv[2]
cases = os.path.join(root, "tests", "cases")
env = dict(os.environ)
for k in ("GITHUB_ACTIONS", "NO_COLOR", "FORCE_COLOR", "CLICOLOR_FORCE"):
    env.pop(k, None)
env["SM_PREFLIGHT_STALE_DAYS"] = "0"
env["XDG_CACHE_HOME"] = os.path.join(root, "build", ".no-cache")
passed = failed = 0
ops = {}


def fail(msg):
    global failed
    failed += 1
    print("FAIL " + msg)


def parent(p):
    return p[:p.rindex("/")]


def single_job(path):
    if path.endswith(".json"):
        return True
    if not path.endswith((".yaml", ".yml")):
        return False
    with open(os.path.join(cases, path), encoding="utf-8",
              errors="replace") as f:
        return not any(l.startswith("---") for l in f.read().split("\n")[1:])


def api_request(path):
    with open(os.path.join(cases, path), encoding="utf-8",
              errors="replace") as f:
        return "AlgorithmSpecification" in f.read()


def shape(f, where):
    s = f["suggestion"]
    if s is None:
        return True
    if not isinstance(s, dict) or not str(s.get("pointer", "")).startswith("/"):
        fail("%s: %s: not a replacement: %r" % (where, f["rule"], s))
        return False
    if s.get("op") == "set" and set(s) == {"op", "pointer", "value"}:
        v = s["value"]
        if not isinstance(v, (str, int, float, bool)) or v is None:
            fail("%s: %s: value %r" % (where, f["rule"], v))
            return False
        p = s["pointer"]
        strings = p.startswith(("/environment/", "/Environment/")) or (
            p.startswith("/HyperParameters/") and api_request(f["file"]))
        if strings and not isinstance(v, str):
            fail("%s: %s: %s must be a string, is %r" % (where, f["rule"],
                                                         p, v))
            return False
        return True
    if s.get("op") == "rename" and set(s) == {"op", "from", "pointer"}:
        if parent(s["from"]) != parent(s["pointer"]):
            fail("%s: %s: rename out of its mapping: %r" % (where,
                                                            f["rule"], s))
            return False
        return True
    fail("%s: %s: unknown shape %r" % (where, f["rule"], s))
    return False


for folder in sorted(os.listdir(cases)):
    d = os.path.join(cases, folder)
    if not os.path.isdir(d):
        continue
    specs = sorted(os.path.relpath(p, cases)
                   for ext in ("yaml", "yml", "json", "py", "ipynb")
                   for p in glob.glob(os.path.join(d, "*." + ext)))
    if not specs:
        continue
    p = subprocess.run([cli, "check", "--quiet", "--format", "json",
                        "--include-python"] + specs, cwd=cases, env=env,
                       stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    try:
        doc = json.loads(p.stdout.decode("utf-8"))
    except ValueError as e:
        fail("%s: not JSON (exit %d): %s" % (folder, p.returncode, e))
        continue
    seen = {}
    ok = True
    for f in doc["findings"]:
        ok &= shape(f, folder)
        s = f["suggestion"]
        if s is not None:
            ops[s.get("op")] = ops.get(s.get("op"), 0) + 1
        if s is None or not single_job(f["file"]):
            continue
        key = (f["file"], s["pointer"])
        if key in seen and seen[key][1] != s:
            fail("%s: %s and %s suggest %r and %r" % (
                f["file"], seen[key][0], f["rule"], seen[key][1], s))
            ok = False
        seen.setdefault(key, (f["rule"], s))
    if ok:
        passed += 1
# the cases do suggest, both kinds (else this test checks nothing)
if not ops.get("set") or not ops.get("rename"):
    fail("no set or no rename suggestion in any case: %r" % ops)
print("suggestions: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
PYEOF
