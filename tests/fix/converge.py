#!/usr/bin/env python3
"""converge.py - every fix leads somewhere: python3 tests/fix/converge.py CLI

For every golden case (tests/cases/<dir>/<case>.<ext> with an .expected and
no .cmd, run with its .args as tests/cases/run.sh does) and every example
(examples/*), in a copy of the tree: `check --fix --unsafe-fixes`, then
check again. It fails when a finding a fix addressed (same rule, same
pointer) remains, when an error or warning of a rule that did not fire
before appears, or when a second --fix changes the file. Prints the
convergence figure "converged N/M".

Then `suggest --diff` (with and without --to) for the suggest cases and
the examples: the diff applied with patch(1), the result checked; no error
or warning of a rule that did not fire before may appear ("suggestions
accepted N/M").
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

EXTS = ("yaml", "yml", "json", "py", "ipynb")


def cases(root):
    for d in sorted(os.listdir(root)):
        full = os.path.join(root, d)
        if not os.path.isdir(full):
            continue
        for name in sorted(os.listdir(full)):
            if not name.endswith(".expected"):
                continue
            case = name[: -len(".expected")]
            if os.path.exists(os.path.join(full, case + ".cmd")):
                continue
            for ext in EXTS:
                spec = os.path.join(d, case + "." + ext)
                if os.path.exists(os.path.join(root, spec)):
                    args = []
                    a = os.path.join(full, case + ".args")
                    if os.path.exists(a):
                        args = open(a).read().split()
                    scripts = d.startswith("script-") or os.path.exists(
                        os.path.join(full, case + ".with-scripts"))
                    if not scripts:
                        args = ["--no-script"] + args
                    yield spec, args
                    break


def run(cli, cwd, args):
    env = dict(os.environ, XDG_CACHE_HOME=os.path.join(cwd, ".no-cache"),
               SM_PREFLIGHT_STALE_DAYS="0", TERM="dumb")
    for k in ("NO_COLOR", "GITHUB_ACTIONS", "SM_PREFLIGHT_DATA_URL"):
        env.pop(k, None)
    return subprocess.run([cli] + args, cwd=cwd, env=env,
                          stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=60)


def findings(cli, cwd, spec, args):
    p = run(cli, cwd, ["check", "--format", "json", "--no-config"] + args +
            [spec])
    try:
        return json.loads(p.stdout)["findings"]
    except (ValueError, KeyError):
        return None


def one(cli, cwd, spec, args):
    before = findings(cli, cwd, spec, args)
    if before is None:
        return None  # not a check the JSON output can show
    p = run(cli, cwd, ["check", "--fix", "--unsafe-fixes", "--show-fixes",
                       "--no-config"] + args + [spec])
    fixed = set()
    for line in p.stdout.splitlines():
        if ": fixed [" in line:
            rest = line.split(": fixed [", 1)[1]
            rule, pointer = rest.split("] ", 1)
            fixed.add((rule, pointer.split(" ")[0]))
    after = findings(cli, cwd, spec, args) or []
    problems = []
    for f in after:
        if (f["rule"], f.get("pointer")) in fixed:
            problems.append("still there after its fix: [%s] %s" %
                            (f["rule"], f.get("pointer")))
    had = {f["rule"] for f in before}
    for f in after:
        if f["severity"] in ("error", "warning") and f["rule"] not in had:
            problems.append("new %s after fixing: [%s] %s: %s" %
                            (f["severity"], f["rule"], f.get("pointer"),
                             f["message"]))
    text = open(os.path.join(cwd, spec), "rb").read()
    run(cli, cwd, ["check", "--fix", "--unsafe-fixes", "--no-config"] +
        args + [spec])
    if open(os.path.join(cwd, spec), "rb").read() != text:
        problems.append("a second --fix changed it again")
    return problems


TARGETS = (None, "ml.p3.8xlarge", "ml.p4d.24xlarge", "ml.g5.12xlarge")


def suggestion_ok(cli, cwd, spec, to):
    """None when suggest has no change; else the problems of its diff."""
    args = ["suggest", "--diff", spec] + (["--to", to] if to else [])
    p = run(cli, cwd, args)
    if p.returncode != 1 or not p.stdout.startswith("--- "):
        return None
    before = findings(cli, cwd, spec, ["--no-script"]) or []
    orig = open(os.path.join(cwd, spec), "rb").read()
    try:
        q = subprocess.run(["patch", "-s", "-p1", "--no-backup-if-mismatch"],
                           cwd=cwd, input=p.stdout, text=True,
                           capture_output=True)
        if q.returncode:
            return ["the diff does not apply: " + q.stdout + q.stderr]
        after = findings(cli, cwd, spec, ["--no-script"]) or []
    finally:
        open(os.path.join(cwd, spec), "wb").write(orig)
    had = {f["rule"] for f in before}
    if to:
        # advice about the instance type the user chose to move to
        had |= {"efa-recommended", "prefer-multi-gpu-instance"}
    return ["%s after the suggestion%s: [%s] %s" %
            (f["severity"], " --to " + to if to else "", f["rule"],
             f["message"])
            for f in after
            if f["severity"] in ("error", "warning") and
            f["rule"] not in had]


def suggestions(cli, work, ex):
    todo = []
    sdir = os.path.join(work, "suggest")
    for name in sorted(os.listdir(sdir)):
        if name.rsplit(".", 1)[-1] in ("yaml", "json"):
            todo.append((work, "suggest/" + name))
    for name in sorted(os.listdir(ex)):
        if name.rsplit(".", 1)[-1] in ("yaml", "json"):
            todo.append((ex, name))
    total = ok = 0
    for cwd, spec in todo:
        for to in TARGETS:
            problems = suggestion_ok(cli, cwd, spec, to)
            if problems is None:
                continue
            total += 1
            for p in problems:
                print("FAIL %s: %s" % (spec, p))
            ok += not problems
    print("suggestions accepted %d/%d" % (ok, total))
    return total - ok


def main():
    if len(sys.argv) != 2:
        print("usage: python3 tests/fix/converge.py CLI", file=sys.stderr)
        return 2
    cli = os.path.abspath(sys.argv[1])
    top = os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))
    tmp = tempfile.mkdtemp(prefix="smp-converge.")
    try:
        work = os.path.join(tmp, "cases")
        shutil.copytree(os.path.join(top, "tests", "cases"), work,
                        symlinks=True)
        ex = os.path.join(tmp, "examples")
        shutil.copytree(os.path.join(top, "examples"), ex, symlinks=True)
        todo = [(work, s, a) for s, a in cases(work)]
        for name in sorted(os.listdir(ex)):
            if name.rsplit(".", 1)[-1] in EXTS:
                todo.append((ex, name, []))
        known = set()
        for line in open(os.path.join(top, "tests", "fix", "known-dead-ends")):
            line = line.strip()
            if line and not line.startswith("#"):
                known.add(line)
        total = ok = failed = 0
        for cwd, spec, args in todo:
            problems = one(cli, cwd, spec, args)
            if problems is None:
                continue
            total += 1
            if not problems:
                ok += 1
                if spec in known:
                    print("FAIL %s: converges now; remove it from "
                          "tests/fix/known-dead-ends" % spec)
                    failed += 1
                continue
            for p in problems:
                print("%s %s: %s" % ("known" if spec in known else "FAIL",
                                     spec, p))
            if spec not in known:
                failed += 1
        print("converged %d/%d" % (ok, total))
        # the suggestions of the files as they are, not as fixed above
        shutil.rmtree(work)
        shutil.rmtree(ex)
        shutil.copytree(os.path.join(top, "tests", "cases"), work,
                        symlinks=True)
        shutil.copytree(os.path.join(top, "examples"), ex, symlinks=True)
        failed += suggestions(cli, work, ex)
        return 1 if failed else 0
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    sys.exit(main())
