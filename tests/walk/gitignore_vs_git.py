#!/usr/bin/env python3
"""gitignore_vs_git.py CLI - the walk's .gitignore matching against git's.

For generated pattern sets (fixed seed) over generated trees, the files
`sm-preflight check -v` walks (it names each file it skips for holding no
job; every file here holds none) must be exactly the files
`git check-ignore --no-index` does not ignore. Then the limits git does not
have: a 2 KiB `!` re-include line is obeyed, and a 4 MiB .gitignore over
2,000 files is matched in well under the time its lines times the files
would take. Skipped (exit 0, with a message) when git is not installed.
"""
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

CASES = 150
SEED = 20261204
DIRS = ["a", "b", "d", "ab", "x1"]
FILES = ["a.yaml", "b.yaml", "x1.yaml", "ab.yaml", "d.yaml", "bb.yml"]
PARTS = ["a", "b", "d", "ab", "*", "?", "a*", "*b", "[ab]", "[!a]*", "**",
         "**.yaml", "a**", "*.yaml", "x?.yaml", "*.yml", "x1", "\\a"]


def pattern(rng):
    comps = [rng.choice(PARTS) for _ in range(rng.randint(1, 3))]
    p = "/".join(comps)
    if rng.random() < 0.2:
        p = "/" + p
    if rng.random() < 0.15:
        p += "/"
    if rng.random() < 0.25:
        p = "!" + p
    return p


def tree(rng):
    paths = set()
    for _ in range(rng.randint(4, 14)):
        depth = rng.randint(0, 3)
        parts = [rng.choice(DIRS) for _ in range(depth)]
        paths.add("/".join(parts + [rng.choice(FILES)]))
    # a name cannot be both a folder and a file
    dirs = {p.rsplit("/", 1)[0] for p in paths if "/" in p}
    prefixes = set()
    for d in dirs:
        comps = d.split("/")
        for i in range(1, len(comps) + 1):
            prefixes.add("/".join(comps[:i]))
    return sorted(p for p in paths if p not in prefixes)


def walked(cli, top):
    r = subprocess.run([cli, "check", "-v", "--color", "never", "--no-script",
                        "--jobs", "1", "."], cwd=top, capture_output=True,
                       text=True, env=dict(os.environ, HOME=top,
                                           XDG_CONFIG_HOME=top))
    got = set()
    for line in r.stderr.splitlines():
        if line.startswith("sm-preflight: skipped '"):
            got.add(line.split("'")[1])
    return got, r


def git_kept(top, files):
    r = subprocess.run(["git", "check-ignore", "--no-index", "-v", "-n",
                        "--stdin"], cwd=top, input="\n".join(files) + "\n",
                       capture_output=True, text=True,
                       env=dict(os.environ, HOME=top, XDG_CONFIG_HOME=top))
    kept = set()
    for line in r.stdout.splitlines():
        src, path = line.split("\t", 1)
        pat = src.split(":", 2)[2] if src != "::" else ""
        if not pat or pat.startswith("!"):
            kept.add(path)
    return kept


def write(top, files, ignores):
    for f in files:
        os.makedirs(os.path.join(top, os.path.dirname(f)), exist_ok=True)
        with open(os.path.join(top, f), "w") as fp:
            fp.write("a: 1\n")
    for folder, lines in ignores.items():
        os.makedirs(os.path.join(top, folder), exist_ok=True)
        with open(os.path.join(top, folder, ".gitignore"), "w") as fp:
            fp.write("\n".join(lines) + "\n")


def new_repo(base, n):
    top = os.path.join(base, "r%s" % n)
    os.makedirs(top)
    subprocess.run(["git", "init", "-q", top], check=True)
    return top


def differential(cli, base):
    rng = random.Random(SEED)
    bad = 0
    for n in range(CASES):
        top = new_repo(base, n)
        files = tree(rng)
        ignores = {"": [pattern(rng) for _ in range(rng.randint(1, 6))]}
        sub = [f.rsplit("/", 1)[0] for f in files if "/" in f]
        if sub and rng.random() < 0.4:
            ignores[rng.choice(sub)] = [pattern(rng)
                                        for _ in range(rng.randint(1, 3))]
        write(top, files, ignores)
        got, r = walked(cli, top)
        want = git_kept(top, files)
        if got != want:
            bad += 1
            print("FAIL: case %d: .gitignore %r" % (n, ignores))
            print("    walked only: %s" % sorted(got - want))
            print("    git keeps only: %s" % sorted(want - got))
            if r.returncode not in (0, 1):
                print("    exit %d: %s" % (r.returncode, r.stderr[-400:]))
        shutil.rmtree(top)
    return bad


def long_reinclude(cli, base):
    top = new_repo(base, "long")
    name = "/".join(["k" * 200] * 6) + "/j.yaml"
    write(top, ["a.yaml", name], {"": ["*.yaml", "!" + name]})
    got, _ = walked(cli, top)
    want = git_kept(top, ["a.yaml", name])
    ok = got == want == {name}
    if not ok:
        print("FAIL: a %d-byte re-include: walked %d file(s), git keeps "
              "%d" % (len(name) + 1, len(got), len(want)))
    return 0 if ok else 1


def big_ignore(cli, base):
    top = new_repo(base, "big")
    files = ["f%04d.yaml" % i for i in range(2000)]
    lines, size, i = [], 0, 0
    while size < 4 * 1024 * 1024 + 4096:
        line = "pat%07d-*.yaml" % i if i % 2 else "name%07d.yaml" % i
        lines.append(line)
        size += len(line) + 1
        i += 1
    lines.append("f1*.yaml")
    write(top, files, {"": lines})
    t = time.monotonic()
    got, _ = walked(cli, top)
    took = time.monotonic() - t
    want = {f for f in files if not f.startswith("f1")}
    bad = 0
    if got != want:
        print("FAIL: a 4 MiB .gitignore: walked %d files, want %d (the last "
              "line ignores f1*.yaml)" % (len(got), len(want)))
        bad += 1
    if took > 5:
        print("FAIL: a 4 MiB .gitignore over 2,000 files took %.1f s" % took)
        bad += 1
    print("a %d-line (%.1f MiB) .gitignore over 2,000 files: %.2f s"
          % (len(lines), size / 1048576, took))
    return bad


def main():
    cli = os.path.abspath(sys.argv[1])
    if not shutil.which("git"):
        print("skipped the .gitignore differential test: git is not "
              "installed (apt-get install git)")
        return 0
    base = tempfile.mkdtemp(prefix="smp-gitignore-")
    try:
        bad = differential(cli, base)
        bad += long_reinclude(cli, base)
        bad += big_ignore(cli, base)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    print("%d passed, %d failed" % (CASES + 3 - bad, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
