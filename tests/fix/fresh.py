#!/usr/bin/env python3
"""fresh.py - `check --fix` reports what a fresh check of the fixed file
reports: python3 tests/fix/fresh.py CLI [CORPUS_DIR]

`check --fix` does not check a fixed text again when every fix it applied
is local (lib/report/rules.def L()): it moves the findings it had with
the edits instead (lib/fix/derive.c). This test proves that report the
same as a check's. For every golden case (as tests/fix/converge.py finds
them, with their .args) and every example, and for the specs of
tests/bench/gen.py (300 of them, or those in CORPUS_DIR), in a copy:
`check --fix` (and `--fix --unsafe-fixes`) in the JSON and text formats,
then `check` of the fixed file in the same format; the outputs must be
the same, byte for byte. Prints "fresh N/M" and how many files a fix
changed.
"""
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import converge  # noqa: E402  (cases(), run())

FORMATS = (["--format", "json"], ["--format", "text", "--color", "never"])
MODES = (["--fix"], ["--fix", "--unsafe-fixes"])


def compare(cli, cwd, spec, args):
    """Problems of spec (a path below cwd) as a list of strings, and
    whether a fix changed it."""
    problems, changed = [], False
    orig = open(os.path.join(cwd, spec), "rb").read()
    for mode in MODES:
        for fmt in FORMATS:
            with open(os.path.join(cwd, spec), "wb") as f:
                f.write(orig)
            base = ["check", "--no-config"] + fmt + args
            fixed = converge.run(cli, cwd, base + mode + [spec])
            now = open(os.path.join(cwd, spec), "rb").read()
            if now == orig:
                continue  # nothing fixed: the report is the check's
            changed = True
            fresh = converge.run(cli, cwd, base + [spec])
            if fixed.stdout != fresh.stdout:
                problems.append("%s %s %s: --fix reports\n%s\n"
                                "a fresh check reports\n%s" %
                                (spec, " ".join(mode), " ".join(fmt),
                                 fixed.stdout, fresh.stdout))
            elif fixed.returncode != fresh.returncode:
                problems.append("%s %s %s: exit %d, a fresh check %d" %
                                (spec, " ".join(mode), " ".join(fmt),
                                 fixed.returncode, fresh.returncode))
    with open(os.path.join(cwd, spec), "wb") as f:
        f.write(orig)
    return problems, changed


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    cli = os.path.abspath(sys.argv[1])
    repo = os.path.dirname(os.path.dirname(HERE))
    work = tempfile.mkdtemp(prefix="smp-fresh-")
    try:
        todo = []
        shutil.copytree(os.path.join(repo, "tests", "cases"),
                        os.path.join(work, "cases"), symlinks=True)
        for spec, args in converge.cases(os.path.join(work, "cases")):
            todo.append((os.path.join(work, "cases"), spec, args))
        shutil.copytree(os.path.join(repo, "examples"),
                        os.path.join(work, "examples"), symlinks=True)
        for name in sorted(os.listdir(os.path.join(work, "examples"))):
            if name.endswith(converge.EXTS):
                todo.append((work, os.path.join("examples", name),
                             ["--no-script"]))
        corpus = sys.argv[2] if len(sys.argv) > 2 else None
        if corpus:
            shutil.copytree(corpus, os.path.join(work, "corpus"))
        else:
            subprocess.run([sys.executable,
                            os.path.join(repo, "tests", "bench", "gen.py"),
                            "300", os.path.join(work, "corpus")],
                           check=True, capture_output=True)
        for d, _, files in sorted(os.walk(os.path.join(work, "corpus"))):
            for name in sorted(files):
                if name.endswith(converge.EXTS):
                    todo.append((work, os.path.relpath(
                        os.path.join(d, name), work), []))
        bad, changed = set(), 0
        for cwd, spec, args in todo:
            problems, c = compare(cli, cwd, spec, args)
            for p in problems:
                print(p[:4000], flush=True)
                bad.add(spec)
            changed += c
        print("fresh %d/%d (%d changed by a fix)" %
              (len(todo) - len(bad), len(todo), changed))
        return 1 if bad else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
