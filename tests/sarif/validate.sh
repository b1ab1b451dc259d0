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
# --rules-uri, the SARIF is checked for structure only, and every result
# must have a fingerprint.
#
# Then, in a scratch folder: artifact URIs relative to the source root
# ("%SRCROOT%" and the run's originalUriBaseIds) for --sarif-root,
# GITHUB_WORKSPACE, a git top level (a .git file as in a worktree, and a
# .git folder) and the working directory; a file outside the root keeps
# an absolute file:// URI; a space in a path is percent-encoded; and the
# partialFingerprints are the same over two runs and after a blank line
# is inserted at the top, and differ for two occurrences of one rule on
# one line.
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
import shutil
import subprocess
import sys
import tempfile
import urllib.parse

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
for k in ("GITHUB_ACTIONS", "GITHUB_WORKSPACE", "SM_PREFLIGHT_RULES_URI",
          "SM_PREFLIGHT_DATA_URL"):
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
# GitHub code scanning's rule limits: a name, fullDescription within 1,024
# characters, help text and markdown; helpUri only when absolute
def rule_checks(name, doc, absolute):
    global passed, failed
    if doc is None:
        return
    bad = []
    for r in doc["runs"][0]["tool"]["driver"]["rules"]:
        if not r.get("name") or "-" in r["name"]:
            bad.append("%s: name %r" % (r["id"], r.get("name")))
        if len(r["fullDescription"]["text"]) > 1024:
            bad.append("%s: fullDescription of %d characters"
                       % (r["id"], len(r["fullDescription"]["text"])))
        if not r["help"].get("text") or not r["help"].get("markdown"):
            bad.append("%s: help without text or markdown" % r["id"])
        if absolute != ("helpUri" in r):
            bad.append("%s: helpUri %r" % (r["id"], r.get("helpUri")))
    if bad:
        failed += 1
        for b in bad[:5]:
            print("FAIL %s: %s" % (name, b))
    else:
        passed += 1


rule_checks("rules (absolute --rules-uri)",
            run("sarif", ["format/good.yaml"],
                ["--rules-uri", "https://example.org/r.md"]), True)
rule_checks("rules (default --rules-uri)",
            run("sarif", ["format/good.yaml"]), False)
# the default base is relative: structure only (formats would warn)
everything_doc = run("sarif", everything)
validate("all cases (sarif, default --rules-uri)", sarif_loose,
         everything_doc)


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL %s%s" % (name, (": " + detail) if detail else ""))


def results_of(doc):
    return doc["runs"][0]["results"] if doc else []


def fingerprints(doc):
    return [r.get("partialFingerprints", {}).get("smPreflight/v2")
            for r in results_of(doc)]


def location(r):
    return r["locations"][0]["physicalLocation"]["artifactLocation"]


def file_uri(path):
    """path (absolute) as the tool writes a folder's file:// URI."""
    return "file://" + urllib.parse.quote(path, safe="/!$&'()*+,;=@~") + "/"


def run_in(cwd, args, extra_env=None):
    """check --format sarif ARGS from cwd, parsed; None on failure."""
    global failed
    e = dict(env)
    e.update(extra_env or {})
    cmd = [cli, "check", "--quiet", "--no-config", "--format", "sarif"] + args
    p = subprocess.run(cmd, cwd=cwd, env=e, stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        doc = json.loads(p.stdout.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as err:
        print("FAIL %s (in %s): not JSON: %s %s" % (" ".join(args), cwd, err,
                                                   p.stderr.decode()))
        failed += 1
        return None
    validate("%s (in %s)" % (" ".join(args), os.path.basename(cwd)),
             sarif_loose, doc)
    return doc


def root_checks(name, doc, root, inside, outside=()):
    """%SRCROOT% is root; inside (uris) relative to it, outside absolute."""
    if doc is None:
        return
    base = doc["runs"][0].get("originalUriBaseIds", {}).get("%SRCROOT%", {})
    check("%s: originalUriBaseIds" % name, base.get("uri") == file_uri(root),
          "%r, want %r" % (base.get("uri"), file_uri(root)))
    locs = [location(r) for r in results_of(doc)]
    got = {(l["uri"], l.get("uriBaseId")) for l in locs}
    want = {(u, "%SRCROOT%") for u in inside} | {(u, None) for u in outside}
    check("%s: artifact locations" % name, got == want,
          "%r, want %r" % (sorted(got, key=str), sorted(want, key=str)))


missing_fp = [r["ruleId"] for r in results_of(everything_doc)
              if not r.get("partialFingerprints", {}).get("smPreflight/v2")]
check("every result has a fingerprint", everything_doc is not None and
      results_of(everything_doc) and not missing_fp, repr(missing_fp[:5]))

scratch = tempfile.mkdtemp(prefix="smp-sarif-")
try:
    scratch = os.path.realpath(scratch)
    repo = os.path.join(scratch, "my repo")
    os.makedirs(os.path.join(repo, "jobs"))
    with open(os.path.join(repo, ".git"), "w") as f:
        f.write("gitdir: /nowhere/.git/worktrees/x\n")  # as a worktree
    spec = os.path.join(repo, "jobs", "a b.yaml")
    shutil.copy(os.path.join(cases, "format", "bad.yaml"), spec)
    other = os.path.join(scratch, "other")
    os.makedirs(os.path.join(other, ".git"))  # a repository's .git folder
    shutil.copy(os.path.join(cases, "format", "bad.yaml"),
                os.path.join(other, "x.yaml"))
    outside = os.path.join(scratch, "x.yaml")
    shutil.copy(os.path.join(cases, "format", "bad.yaml"), outside)
    inside = ["jobs/a%20b.yaml"]
    out_uri = ["file://" + urllib.parse.quote(outside)]

    root_checks("--sarif-root",
                run_in(scratch, ["--sarif-root", "my repo", spec, "x.yaml"]),
                repo, inside, out_uri)
    root_checks("GITHUB_WORKSPACE",
                run_in(os.path.join(repo, "jobs"), ["a b.yaml", outside],
                       {"GITHUB_WORKSPACE": repo}), repo, inside, out_uri)
    root_checks("git top level (.git file)",
                run_in(scratch, ["my repo/jobs/a b.yaml", "x.yaml"]),
                repo, inside, out_uri)
    root_checks("git top level (.git folder)",
                run_in(scratch, ["other/x.yaml"]), other, ["x.yaml"])
    root_checks("working directory",
                run_in(scratch, ["x.yaml"]), scratch, ["x.yaml"])
    # --sarif-root wins over GITHUB_WORKSPACE
    root_checks("--sarif-root over GITHUB_WORKSPACE",
                run_in(scratch, ["--sarif-root", ".", "x.yaml"],
                       {"GITHUB_WORKSPACE": repo}), scratch, ["x.yaml"])

    # fingerprints: two runs, then a blank line inserted at the top
    first = fingerprints(run_in(repo, ["jobs/a b.yaml"]))
    again = fingerprints(run_in(repo, ["jobs/a b.yaml"]))
    check("fingerprints present", first and all(first), repr(first))
    check("fingerprints stable across runs", first == again)
    with open(spec, encoding="utf-8") as f:
        text = f.read()
    with open(spec, "w", encoding="utf-8") as f:
        f.write("\n" + text)
    moved_doc = run_in(repo, ["jobs/a b.yaml"])
    moved = fingerprints(moved_doc)
    lines = [r["locations"][0]["physicalLocation"]["region"]["startLine"]
             for r in results_of(moved_doc)]
    check("results moved down a line", lines and min(lines) > 1, repr(lines))
    check("fingerprints stable across a blank line", first == moved,
          "%r != %r" % (first, moved))
    check("fingerprints distinct in a file", len(set(first)) == len(first))
finally:
    shutil.rmtree(scratch, ignore_errors=True)

# two occurrences of one rule on one line: different fingerprints
doc = run("sarif", ["api-limits/fires-api.json"])
seen = {}
pairs = 0
for r in results_of(doc):
    key = (r["ruleId"], location(r)["uri"],
           r["locations"][0]["physicalLocation"]["region"]["startLine"])
    fp = r["partialFingerprints"]["smPreflight/v2"]
    if key in seen:
        pairs += 1
        check("two occurrences of %s on one line" % r["ruleId"],
              fp not in seen[key], fp)
    seen.setdefault(key, set()).add(fp)
check("a rule twice on one line (api-limits/fires-api.json)", pairs > 0)


print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
PYEOF
