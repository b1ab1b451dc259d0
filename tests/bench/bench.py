#!/usr/bin/env python3
"""bench.py - the tables of `make bench` (README "Performance").

  bench.py --cli build/sm-preflight --floor build/bench/floor
           --work build/bench [--jsonschema PATH] [--runs 5]
           [--sizes 1,1000,10000] [--jobs N] [--no-callgrind]
           [--no-hostile] [--reference DIR] [--reference-only]

First, when DIR (the shared bench folder: gen_corpus.py, README.md) is
there and valgrind is installed, the reference corpus: gen_corpus.py's
1,000 small specs (seed 0, 75% YAML) and the instructions (callgrind)
of `check --color never --jobs 1` in text and in SARIF, against a fair
floor: libyaml's event parser over the YAML files plus, for the JSON
files, the cheaper of libyaml and a minimal JSON tokenizer (floor
--json), one process start counted once. Beside it one spec's
instructions and peak RSS, and the launcher and notebook corpora's
(gen.py --sources, written beside the reference corpus, outside the
repository) instructions per byte against the floor's per byte. Targets: 1.5x the
floor, SARIF 1.1x text, one spec 1 M instructions and 3 MiB, launchers
and notebooks 1.0x the floor per byte. --reference-only prints this table
and stops.

For each size N it generates N specs (tests/bench/gen.py, same seed every
time) and times, as whole processes:

  floor          libyaml's event parser over the same files, nothing else
  floor N-way    N floor processes side by side, each on every N-th file
                 (floor --shard K/N): the floor of `--jobs N`
  sm-preflight   `check -q --color never --jobs 1` and `--jobs N` (N is
                 the number of cores unless --jobs says; output to
                 /dev/null, as a CI step would discard it)
  jsonschema     the JSON Schema CLI (@sourcemeta/jsonschema, its native
                 binary) validating each dialect folder against the
                 project's schema, --fast, one process per dialect
  python         PyYAML (C loader) + python3-jsonschema, the same schemas

Then a repository walk: `check . --jobs 1` over a generated repository of
5,000 files as real ones hold them (Python modules, notebooks that never
use SageMaker, conda environments, Kubernetes manifests, package.json,
JSON fixtures, Markdown, a .gitignore'd build folder and node_modules),
with 50 Training Compiler jobs among them; target 1 s CPU, 64 MiB.

Then `check --diff`, `--fix` and `--fix --unsafe-fixes` against a plain
check on 1,000 specs (or the largest size asked for), each run on a fresh
copy of the corpus, CPU time (user + system) from the process's rusage
(target: 1.2x for the fixes; writing the fixed files is the disk's time).

Then the launcher and notebook corpora (gen.py --sources, 1000 files each
or the largest size asked for): `check --include-python --jobs 1` per
corpus, with the cost per file beside the YAML corpus's, and one notebook
of about 1 MB of outputs beside the same notebook without them (its
outputs should cost about nothing).

Wall times are medians of --runs runs measured by hyperfine, CPU times
(user + system) its means; peak RSS is the median of /usr/bin/time -v's "Maximum resident
set size" over three runs.

Then, on the largest size, the like-with-like comparisons:
  (a) instructions (valgrind --tool=callgrind, deterministic) and CPU time
      of `check --jobs 1` against the single-threaded floor;
  (b) wall time of `check --jobs N` against the floor run N-way parallel.
And the hostile set: inputs generated here (a one-line JSON request with
8,000 unknown keys, 99,000 duplicate keys on one line, 49,000 findings one
per line, 3 M blank lines then 4,000 findings, 60,000 suppression
comments, a 4 MB line with 1,100 unknown keys, a pipeline of 9,000
parameters each referenced, an exponential glob in a config's ignore
list, and the Python launchers of tests/hostile/gen_launcher.py: a
200,000-key dict literal, 200,000 subscript assignments, colliding names,
3.8 MB of calls, a spent evaluation budget), each run once in text and in
SARIF
under a 2 GiB address-space limit and a timeout, with its peak RSS and
wall time against the targets (64 MiB, 1 s). Files that do not parse are left out of the two
JSON Schema validators' input (both stop at the first one); sm-preflight
and the floor read them all. Nothing here asserts a time: the targets are
printed with the measured figures, and the exit status is 0 whenever the
measurements ran.
"""
import argparse
import json
import os
import re
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DIALECTS = [("estimator", "estimator.schema.json"),
            ("model-trainer", "model-trainer.schema.json"),
            ("create-training-job", "create-training-job.schema.json")]


def generate(work, n):
    out = os.path.join(work, "specs-%d" % n)
    stamp = os.path.join(out, ".complete")
    if not os.path.exists(stamp):
        shutil.rmtree(out, ignore_errors=True)
        subprocess.run([sys.executable, os.path.join(HERE, "gen.py"),
                        str(n), out], check=True)
        open(stamp, "w").close()
    return out


def parseable_files(specs, folder):
    with open(os.path.join(specs, "broken.txt")) as f:
        broken = set(line.strip() for line in f if line.strip())
    d = os.path.join(specs, folder)
    if not os.path.isdir(d):
        return []
    return [os.path.join(d, e) for e in sorted(os.listdir(d))
            if os.path.join(folder, e) not in broken]


def hyperfine(argv, runs):
    """Median wall and CPU seconds of argv, run without a shell (so that
    nothing is subtracted from a 1 ms process) and its output discarded."""
    with tempfile.NamedTemporaryFile(suffix=".json") as tmp:
        subprocess.run(["hyperfine", "-N", "--style", "none", "--warmup", "1",
                        "--runs", str(runs), "--ignore-failure",
                        "--output", "null", "--export-json", tmp.name,
                        shlex.join(argv)],
                       check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        with open(tmp.name) as f:
            r = json.load(f)["results"][0]
    # hyperfine 1.15 (Debian 12) exports the mean CPU times only
    return statistics.median(r["times"]), r["user"] + r["system"]


def time_v(argv, runs, need_wall):
    """Median peak RSS (KiB) and, when asked, wall and CPU seconds, by
    /usr/bin/time -v (10 ms resolution: only without hyperfine)."""
    rss, wall, cpu = [], [], []
    for _ in range(runs):
        p = subprocess.run(["/usr/bin/time", "-v"] + argv,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           text=True)
        fields = {}
        for line in p.stderr.splitlines():
            k, _, v = line.strip().rpartition(": ")
            fields[k] = v
        rss.append(int(fields.get("Maximum resident set size (kbytes)", 0)))
        if need_wall:
            m, _, s = fields.get("Elapsed (wall clock) time (h:mm:ss or "
                                 "m:ss)", "0:0").rpartition(":")
            wall.append(float(m or 0) * 60 + float(s))
            cpu.append(float(fields.get("User time (seconds)", 0)) +
                       float(fields.get("System time (seconds)", 0)))
    return (statistics.median(rss),
            statistics.median(wall) if wall else None,
            statistics.median(cpu) if cpu else None)


def floor_parallel(args, specs):
    """The floor run args.jobs-way parallel, as one command."""
    parts = ["%s --shard %d/%d %s >/dev/null &"
             % (shlex.quote(args.floor), k, args.jobs, shlex.quote(specs))
             for k in range(args.jobs)]
    return ["sh", "-c", " ".join(parts) + " wait"]


def commands(args, specs, n):
    """(name, argv, files it reads) per tool."""
    check = [args.cli, "check", "-q", "--color", "never"]
    out = [("floor (libyaml only)", [args.floor, specs], n),
           ("floor %d-way" % args.jobs, floor_parallel(args, specs), n),
           ("sm-preflight --jobs 1", check + ["--jobs", "1", specs], n),
           ("sm-preflight --jobs %d" % args.jobs,
            check + ["--jobs", str(args.jobs), specs], n)]
    if args.jsonschema:
        parts, count = [], 0
        for folder, schema in DIALECTS:
            files = parseable_files(specs, folder)
            if not files:
                continue
            count += len(files)
            listing = os.path.join(specs, folder + ".list")
            with open(listing, "w") as f:
                f.write("".join(x + "\n" for x in files))
            parts.append("xargs %s validate --fast --continue %s <%s"
                         % (shlex.quote(args.jsonschema),
                            shlex.quote(os.path.join(ROOT, "schemas",
                                                     schema)),
                            shlex.quote(listing)))
        out.append(("jsonschema CLI (--fast)",
                    ["sh", "-c", "{ %s; } >/dev/null 2>&1" % "; ".join(parts)],
                    count))
    if args.python:
        out.append(("PyYAML + jsonschema",
                    [sys.executable, os.path.join(HERE, "pyvalidate.py"),
                     os.path.join(ROOT, "schemas"), specs], None))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--floor", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--jsonschema")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--sizes", default="1,1000,10000")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--no-callgrind", action="store_true")
    ap.add_argument("--no-hostile", action="store_true")
    ap.add_argument("--reference")
    ap.add_argument("--reference-only", action="store_true")
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    if args.reference_only or not args.no_callgrind:
        reference_table(args)
        print()
        sys.stdout.flush()
    if args.reference_only:
        return 0
    args.python = True
    try:
        import jsonschema  # noqa: F401
        import yaml  # noqa: F401
    except ImportError:
        args.python = False
        print("bench: python3-yaml or python3-jsonschema missing: the "
              "Python row is skipped")
    if args.jsonschema and not os.access(args.jsonschema, os.X_OK):
        print("bench: %s is not executable: the JSON Schema CLI row is "
              "skipped" % args.jsonschema)
        args.jsonschema = None
    have_hf = shutil.which("hyperfine") is not None
    if not have_hf:
        print("bench: hyperfine is missing (apt-get install hyperfine): "
              "times come from /usr/bin/time, at 10 ms resolution")
    os.makedirs(args.work, exist_ok=True)
    results = {}
    print("%-24s %7s %10s %10s %11s %9s %8s %8s" %
          ("tool", "files", "wall ms", "cpu ms", "files/s", "RSS MiB",
           "wall/fl", "cpu/fl"))
    for n in [int(x) for x in args.sizes.split(",")]:
        specs = generate(args.work, n)
        floor_wall = floor_cpu = None
        for name, cmd, count in commands(args, specs, n):
            runs = args.runs if n > 1 else max(args.runs, 20)
            if have_hf:
                wall, cpu = hyperfine(cmd, runs)
                rss, _, _ = time_v(cmd, 3, False)
            else:
                rss, wall, cpu = time_v(cmd, args.runs, True)
            if floor_wall is None:
                floor_wall, floor_cpu = wall, cpu
            count = n if count is None else count
            results[(name, n)] = (wall, cpu, rss, count)
            print("%-24s %7d %10.1f %10.1f %11.0f %9.2f %8.2f %8.2f" %
                  (name, count, wall * 1000, cpu * 1000,
                   count / wall if wall else 0, rss / 1024.0,
                   wall / floor_wall if floor_wall else 0,
                   cpu / floor_cpu if floor_cpu else 0))
            sys.stdout.flush()
    print()
    sizes = [int(x) for x in args.sizes.split(",")]
    targets(results, args, max(sizes))
    if not args.no_callgrind:
        print()
        instructions(args, generate(args.work, max(sizes)), max(sizes))
    if not args.no_hostile:
        print()
        hostile(args)
    print()
    fix_table(args)
    print()
    sources_table(args, results, have_hf)
    print()
    repo_table(args, have_hf)
    return 0


REPO_FILES = {
    "util.py": "import os\n\n\ndef path(*a):\n    return os.path.join(*a)\n",
    "session.py": "import sagemaker\n\nsession = sagemaker.Session()\n",
    "explore.ipynb": json.dumps({
        "cells": [{"cell_type": "code", "metadata": {}, "outputs": [],
                   "execution_count": None,
                   "source": ["import pandas as pd\n", "pd.DataFrame()\n"]}],
        "metadata": {"kernelspec": {"language": "python"}},
        "nbformat": 4, "nbformat_minor": 5}),
    "environment.yml": "name: env\nchannels: [conda-forge]\n"
                       "dependencies: [python=3.10, pandas]\n",
    "deployment.yaml": "apiVersion: apps/v1\nkind: Deployment\n"
                       "metadata: {name: x}\nspec: {replicas: 1}\n",
    "package.json": '{"name": "x", "version": "1.0.0", "dependencies": {}}\n',
    "fixture.json": '[{"id": 1, "label": "cat"}, {"id": 2}]\n',
    "README.md": "# a folder\n",
}

REPO_JOB = """estimator: HuggingFace
entry_point: train.py
transformers_version: "4.21.1"
pytorch_version: "1.11.0"
py_version: py38
instance_type: ml.p3.2xlarge
compiler_config: {enabled: true}
debugger_hook_config: false
disable_profiler: true
hyperparameters: {epochs: 1, per_device_train_batch_size: 24}
"""


def repo_tree(work, n=5000):
    """A repository of n files: mostly not jobs, 50 compiler jobs."""
    out = os.path.join(work, "repo-%d" % n)
    stamp = os.path.join(out, ".complete")
    if os.path.exists(stamp):
        return out
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(os.path.join(out, ".git"))
    with open(os.path.join(out, ".gitignore"), "w") as f:
        f.write("/build/\n*.log\n")
    names = sorted(REPO_FILES)
    made = 0
    k = 0
    while made < n:
        d = os.path.join(out, "pkg%03d" % (k // 40), "sub%d" % (k % 4))
        os.makedirs(d, exist_ok=True)
        if k % 100 == 0:
            name, text = "job%d.yaml" % k, REPO_JOB
        else:
            base = names[k % len(names)]
            stem, ext = os.path.splitext(base)
            name, text = "%s%d%s" % (stem, k, ext), REPO_FILES[base]
        with open(os.path.join(d, name), "w") as f:
            f.write(text)
        made += 1
        k += 1
    # what the walk never reads: ignored, and node_modules
    for skipped in ("build", "node_modules"):
        os.makedirs(os.path.join(out, skipped))
        for i in range(50):
            with open(os.path.join(out, skipped, "f%d.json" % i), "w") as f:
                f.write('{"name": "x"}\n')
    open(stamp, "w").close()
    return out


def repo_table(args, have_hf):
    """`check .` over a repository, as the Action runs it."""
    tree = repo_tree(args.work)
    cmd = [args.cli, "check", "-q", "--color", "never", "--no-script",
           "--jobs", "1", tree]
    if have_hf:
        wall, cpu = hyperfine(cmd, args.runs)
        rss, _, _ = time_v(cmd, 3, False)
    else:
        rss, wall, cpu = time_v(cmd, args.runs, True)
    print("%-24s %7s %10s %10s %9s   %s" %
          ("walk", "files", "wall ms", "cpu ms", "RSS MiB", "targets"))
    print("%-24s %7d %10.1f %10.1f %9.2f   cpu <= 1000 ms, RSS <= 64 MiB"
          % ("repository (check .)", 5000, wall * 1000, cpu * 1000,
             rss / 1024.0))
    sys.stdout.flush()

def timed_on_copy(argv, specs, copy, runs):
    """Median wall and CPU seconds of argv (which names copy), each run on
    a fresh copy of specs (the copy is not timed)."""
    import time
    walls, cpus = [], []
    for _ in range(runs):
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(specs, copy)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        walls.append(time.perf_counter() - t)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime +
                    after.ru_stime - before.ru_stime)
    shutil.rmtree(copy, ignore_errors=True)
    return statistics.median(walls), statistics.median(cpus)


def fix_table(args):
    """check --fix against a plain check, on the same corpus."""
    n = min(1000, max(int(x) for x in args.sizes.split(",")))
    specs = generate(args.work, n)
    copy = os.path.join(args.work, "fix-%d" % n)
    base = [args.cli, "check", "-q", "--color", "never", "--jobs", "1"]
    rows = [("plain", []), ("--diff", ["--diff"]), ("--fix", ["--fix"]),
            ("--fix --unsafe-fixes", ["--fix", "--unsafe-fixes"])]
    print("%-34s %7s %10s %10s %8s" % ("check --jobs 1", "files", "wall ms",
                                       "cpu ms", "cpu/pl"))
    plain = None
    for name, extra in rows:
        wall, cpu = timed_on_copy(base + extra + [copy], specs, copy,
                                  args.runs)
        plain = plain or cpu
        print("%-34s %7d %10.1f %10.1f %8.2f" % (name, n, wall * 1000,
                                                 cpu * 1000, cpu / plain))
        if extra == ["--diff"]:
            diff = cpu / plain
        if extra == ["--fix"]:
            ratio = cpu / plain
    # --diff does all a fix does but write: each fixed file checked again
    # until no fix is left. --fix adds a temporary file renamed over each
    # fixed one (and synced, as --output): kernel time, ext4's flush on a
    # rename over an existing file most of it
    print("fixes on %d specs (--diff): %.2fx the cpu time of a plain check "
          "(target 1.2x: %s)" % (n, diff, "met" if diff <= 1.2
                                 else "MISSED"))
    print("--fix on %d specs, files written: %.2fx" % (n, ratio))
    # like with like where wall time is noisy: instructions of one thread
    if shutil.which("valgrind") and not args.no_callgrind:
        pi = callgrind(base + [specs])
        di = callgrind(base + ["--diff", specs])
        if pi and di:
            print("fixes on %d specs (--diff): %.2fx the instructions of a "
                  "plain check (callgrind; target 1.2x: %s)"
                  % (n, di / pi, "met" if di <= 1.2 * pi else "MISSED"))


def sources_table(args, results, have_hf):
    """Launchers and notebooks, cost per file beside the YAML corpus."""
    n = min(1000, max(int(x) for x in args.sizes.split(",")))
    out = os.path.join(args.work, "sources-%d" % n)
    if not os.path.isdir(out):
        subprocess.run([sys.executable, os.path.join(HERE, "gen.py"),
                        "--sources", str(n), out], check=True)
    check = [args.cli, "check", "-q", "--color", "never", "--no-script",
             "--include-python", "--jobs", "1"]
    yaml_row = results.get(("sm-preflight --jobs 1", n))
    print("%-24s %7s %10s %10s %12s %12s" %
          ("corpus", "files", "wall ms", "cpu ms", "wall ms/file",
           "cpu ms/file"))
    if yaml_row:
        print("%-24s %7d %10.1f %10.1f %12.3f %12.3f" %
              ("YAML/JSON specs", n, yaml_row[0] * 1000, yaml_row[1] * 1000,
               yaml_row[0] * 1000 / n, yaml_row[1] * 1000 / n))
    rows = [("launchers (.py)", os.path.join(out, "launchers"), n),
            ("notebooks (.ipynb)", os.path.join(out, "notebooks"), n),
            ("1 MB notebook, outputs",
             os.path.join(out, "big", "outputs.ipynb"), 1),
            ("same, outputs stripped",
             os.path.join(out, "big", "stripped.ipynb"), 1)]
    for name, path, count in rows:
        cmd = check + [path]
        runs = args.runs if count > 1 else max(args.runs, 20)
        if have_hf:
            wall, cpu = hyperfine(cmd, runs)
        else:
            _, wall, cpu = time_v(cmd, args.runs, True)
        print("%-24s %7d %10.1f %10.1f %12.3f %12.3f" %
              (name, count, wall * 1000, cpu * 1000, wall * 1000 / count,
               cpu * 1000 / count))
        sys.stdout.flush()


def callgrind(argv, cwd=None):
    """Instructions argv executes (valgrind --tool=callgrind), or None."""
    with tempfile.TemporaryDirectory() as d:
        p = subprocess.run(["valgrind", "--tool=callgrind",
                            "--callgrind-out-file=" + os.path.join(d, "o")]
                           + argv, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True, cwd=cwd)
    m = re.search(r"Collected : (\d+)", p.stderr)
    return int(m.group(1)) if m else None


def sources_corpus(args):
    """The launcher and notebook corpora (gen.py --sources)."""
    n = min(1000, max(int(x) for x in args.sizes.split(",")))
    out = os.path.join(args.work, "sources-%d" % n)
    if not os.path.isdir(out):
        subprocess.run([sys.executable, os.path.join(HERE, "gen.py"),
                        "--sources", str(n), out], check=True)
    return out


def tree_bytes(path):
    """Bytes of the files under path (or of the file path)."""
    if os.path.isfile(path):
        return os.path.getsize(path)
    total = 0
    for d, _, files in os.walk(path):
        total += sum(os.path.getsize(os.path.join(d, f)) for f in files)
    return total


REFERENCE_FILES = 1000
REFERENCE_SEED = 0


def reference_corpus(args, tmp):
    """The reference corpus, written in tmp/corpus, or None (said why).
    Outside the repository, as the reference is measured: inside it the
    walk would also match the repository's .gitignore."""
    gen = os.path.join(args.reference or "", "gen_corpus.py")
    if not args.reference or not os.path.isfile(gen):
        print("bench: no reference corpus (%s missing; SHARED=DIR names "
              "the shared folder): its rows are skipped" % gen)
        return None
    out = os.path.join(tmp, "corpus")
    subprocess.run([sys.executable, gen, out, str(REFERENCE_FILES),
                    str(REFERENCE_SEED)], check=True,
                   stdout=subprocess.DEVNULL)
    return out


def mark(ok):
    return "met" if ok else "MISSED"


def reference_table(args):
    """Instructions on the reference corpus against the fair floor."""
    with tempfile.TemporaryDirectory(prefix="smp-reference-") as tmp:
        corpus = reference_corpus(args, tmp)
        if corpus:
            reference_rows(args, corpus)


def reference_rows(args, corpus):
    """The rows of reference_table() for the corpus in folder corpus."""
    if shutil.which("valgrind") is None:
        print("bench: valgrind is missing (apt-get install valgrind): no "
              "reference corpus rows")
        return
    names = sorted(e for e in os.listdir(corpus) if not e.startswith("."))
    yaml_files = [os.path.join(corpus, e) for e in names
                  if e.endswith((".yaml", ".yml"))]
    json_files = [os.path.join(corpus, e) for e in names
                  if e.endswith(".json")]
    empty = os.path.join(os.path.dirname(corpus), "empty")
    os.makedirs(empty, exist_ok=True)
    start = callgrind([args.floor, empty]) or 0
    fl_yaml = callgrind([args.floor] + yaml_files) if yaml_files else start
    fl_json_yaml = (callgrind([args.floor] + json_files) if json_files
                    else start)
    fl_json_tok = (callgrind([args.floor, "--json"] + json_files)
                   if json_files else start)
    # the folder named by a short relative path, as a user would (every
    # finding's line names its file)
    check = [os.path.abspath(args.cli), "check", "--color", "never",
             "--jobs", "1"]
    rel = os.path.basename(corpus)
    text = callgrind(check + [rel], cwd=os.path.dirname(corpus))
    sarif = callgrind(check + ["--format", "sarif", rel],
                      cwd=os.path.dirname(corpus))
    if None in (fl_yaml, fl_json_yaml, fl_json_tok, text, sarif):
        print("bench: callgrind did not report: no reference corpus rows")
        return
    # each floor run is a process: its start is counted once
    libyaml = fl_yaml + fl_json_yaml - start
    fair = fl_yaml + min(fl_json_yaml, fl_json_tok) - start
    size = tree_bytes(corpus)
    print("reference corpus (%s: %d files, seed %d, %d YAML, %d JSON, "
          "%.0f KiB), callgrind instructions, one thread"
          % (os.path.basename(args.reference.rstrip("/")) + "/gen_corpus.py",
             len(yaml_files) + len(json_files), REFERENCE_SEED,
             len(yaml_files), len(json_files), size / 1024.0))
    print("%-44s %10s %9s   %s" % ("row", "M instr", "ratio", "target"))

    def row(name, value, ratio=None, target=""):
        print("%-44s %10.1f %9s   %s"
              % (name, value / 1e6,
                 "" if ratio is None else "%.2fx" % ratio, target))

    row("floor: libyaml, YAML files", fl_yaml - start)
    row("floor: libyaml, JSON files", fl_json_yaml - start)
    row("floor: JSON tokenizer, JSON files", fl_json_tok - start)
    row("floor: libyaml, every file", libyaml)
    row("floor: fair (JSON: the cheaper)", fair)
    row("check --jobs 1, text / fair floor", text, text / fair,
        "<= 1.5x %s" % mark(text / fair <= 1.5))
    row("check --jobs 1, text / libyaml floor", text, text / libyaml)
    row("check --jobs 1, SARIF / text", sarif, sarif / text,
        "<= 1.1x %s" % mark(sarif / text <= 1.1))
    one = os.path.join(corpus, names[0]) if names else None
    if one:
        ins = callgrind(check + [one])
        rss, _, _ = time_v(check + [one], 3, False)
        if ins:
            row("one spec (%s), instructions" % names[0], ins, None,
                "<= 1.0 M %s" % mark(ins <= 1e6))
        print("%-44s %10.2f %9s   %s"
              % ("one spec, peak RSS MiB", rss / 1024.0, "",
                 "<= 3 MiB %s" % mark(rss <= 3 * 1024)))
    per_byte = fair / size
    # the launchers and notebooks beside the reference corpus, outside
    # the repository as it is: inside it, the walk would also match the
    # repository's .gitignore, which the floor's per byte never pays
    src = os.path.join(os.path.dirname(corpus), "sources")
    subprocess.run([sys.executable, os.path.join(HERE, "gen.py"),
                    "--sources", "1000", src], check=True,
                   stdout=subprocess.DEVNULL)
    print("%-44s %10s %9s   %s" % ("instructions per byte", "instr/B",
                                   "/floor", "target (the fair floor's "
                                   "per byte; libyaml's %.1f)"
                                   % (libyaml / size)))
    print("%-44s %10.1f %9s" % ("fair floor, reference corpus", per_byte,
                                "1.00x"))
    for name, sub in (("launchers (.py)", "launchers"),
                      ("notebooks (.ipynb)", "notebooks")):
        path = os.path.join(src, sub)
        ins = callgrind([args.cli, "check", "--color", "never",
                         "--no-script", "--include-python", "--jobs", "1",
                         path])
        if not ins:
            continue
        pb = ins / tree_bytes(path)
        print("%-44s %10.1f %9s   <= 1.0x %s"
              % (name, pb, "%.2fx" % (pb / per_byte),
                 mark(pb <= per_byte)))
    sys.stdout.flush()


def instructions(args, specs, n):
    """(a): instructions of check --jobs 1 against the floor's."""
    if shutil.which("valgrind") is None:
        print("bench: valgrind is missing (apt-get install valgrind): no "
              "instruction counts")
        return
    floor = callgrind([args.floor, specs])
    check = callgrind([args.cli, "check", "-q", "--color", "never",
                       "--jobs", "1", specs])
    if not floor or not check:
        print("bench: callgrind did not report")
        return
    ratio = check / floor
    print("(a) instructions, %d specs (callgrind): floor %.1f M, "
          "check --jobs 1 %.1f M" % (n, floor / 1e6, check / 1e6))
    print("target: <= 1.5x the floor in instructions ...... %.2fx %s"
          % (ratio, "met" if ratio <= 1.5 else "MISSED"))


def targets(r, args, big_n):
    """The targets of README "Performance" next to the measured figures."""
    def get(name, n):
        return r.get((name, n))

    one = get("sm-preflight --jobs 1", 1)
    if one:
        print("target: one spec under 3 ms wall ............ %.1f ms %s"
              % (one[0] * 1000, "met" if one[0] < 0.003 else "MISSED"))
    jn = "sm-preflight --jobs %d" % args.jobs
    big, floor = get(jn, big_n), get("floor %d-way" % args.jobs, big_n)
    one_floor, one_check = get("floor (libyaml only)", big_n), \
        get("sm-preflight --jobs 1", big_n)
    if one_floor and one_check:
        print("(a) cpu time, %d specs: check --jobs 1 %.2fx the floor's"
              % (big_n, one_check[1] / one_floor[1]))
    if big and floor:
        ratio = big[0] / floor[0]
        print("(b) wall time, %d specs: --jobs %d is %.2fx the floor run "
              "%d-way parallel %s"
              % (big_n, args.jobs, ratio, args.jobs,
                 "(target 1.25x: met)" if ratio <= 1.25
                 else "(target 1.25x: MISSED)"))
    js = get("jsonschema CLI (--fast)", 10000)
    if big and js:
        # per file, as the JSON Schema CLI reads the parseable ones only
        speed = (js[0] / js[3]) / (big[0] / big[3])
        print("target: >= 3x faster than the JSON Schema CLI  %.2fx per "
              "file, wall %s" % (speed, "met" if speed >= 3 else "MISSED"))
    py = get("PyYAML + jsonschema", 10000)
    if big and py:
        print("        (PyYAML + jsonschema: sm-preflight is %.1fx faster)"
              % (py[0] / big[0]))
    rss = max((v[2] for k, v in r.items() if k[0].startswith("sm-")),
              default=None)
    if rss is not None:
        print("target: peak RSS under 10 MiB ............... %.2f MiB %s"
              % (rss / 1024.0, "met" if rss < 10 * 1024 else "MISSED"))

HOSTILE_RSS_MIB = 64
HOSTILE_SECONDS = 1.0
HOSTILE_TIMEOUT = 20
HOSTILE_AS_LIMIT = 2 << 30  # a hostile input must not take the machine


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


API_HEAD = ('{"AlgorithmSpecification": {"TrainingImage": "x", '
            '"TrainingInputMode": "File"}')


def hostile_inputs(work):
    """(name, path) of each generated hostile input, made once."""
    d = os.path.join(work, "hostile")
    out = []

    def case(name, rel, make):
        path = os.path.join(d, rel)
        if not os.path.exists(path):
            make(path)
        out.append((name, path))

    # item 2: minified one-line requests, the normal form of the API
    case("one line, 8,000 unknown keys", "unknown-keys.json",
         lambda p: write(p, API_HEAD + "".join(
             ', "UnknownKey%05d": 1' % i for i in range(8000)) + "}"))
    case("one line, 99,000 duplicate keys", "duplicate-keys.json",
         lambda p: write(p, API_HEAD + "".join(
             ', "Dup": %d' % (10000 + i % 90000) for i in range(99000)) + "}"))
    # item 6: many findings, far down the file
    case("49,000 findings one per line", "per-line.yaml",
         lambda p: write(p, "estimator: PyTorch\n" + "".join(
             "unknown_%d: 1\n" % i for i in range(49000))))
    case("3 M blank lines, then 4,000 findings", "blank-lines.yaml",
         lambda p: write(p, "\n" * 3000000 + "estimator: PyTorch\n" +
                         "".join("unknown_%d: 1\n" % i
                                 for i in range(4000))))
    case("60,000 suppression comments", "suppressions.yaml",
         lambda p: write(p, "estimator: PyTorch\n" + "".join(
             "unknown_%d: 1  # sm-preflight: ignore[unknown-key] bench\n"
             % i for i in range(60000))))

    # round three: SARIF fingerprints of a 4 MB line, pipeline parameters
    case("4 MB line, 1,100 unknown keys", "long-line-keys.json",
         lambda p: write(p, API_HEAD + "".join(
             ', "Unknown%05d": "%s"' % (i, "x" * 3600)
             for i in range(1100)) + "}"))
    case("pipeline, 9,000 x 9,000 parameters", "pipeline-params.json",
         lambda p: write(p, json.dumps({
             "Version": "2020-12-01",
             "Parameters": [{"Name": "P%05d" % i, "Type": "String",
                             "DefaultValue": "v"} for i in range(9000)],
             "Steps": [{"Name": "Train", "Type": "Training", "Arguments": {
                 "AlgorithmSpecification": {"TrainingImage": "x"},
                 "HyperParameters": {
                     "h%05d" % i: {"Get": "Parameters.P%05d" % (8999 - i)}
                     for i in range(9000)}}}]})))

    # item 5: an exponential glob in a config's ignore list
    def glob_case(path):
        write(os.path.join(path, ".sm-preflight.yaml"),
              'ignore: ["*a*a*a*a*a*a*b"]\n')
        write(os.path.join(path, "a" * 95 + ".yaml"),
              "estimator: PyTorch\n")
    case("glob *a*a*a*a*a*a*b, 100-char name", "glob", glob_case)

    # Python launchers: the evaluator linear and bounded
    # (tests/hostile/gen_launcher.py writes them)
    gen = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                       "..", "hostile", "gen_launcher.py")
    for kind, name in (("dict", ".py, 200,000-key dict literal"),
                       ("subscript", ".py, 200,000 hp[\"k\"]=i lines"),
                       ("collide", ".py, 100,000 colliding names"),
                       ("calls", ".py, 3.8 MB of estimator calls"),
                       ("budget", ".py, budget spent (l = l + l)")):
        case(name, "launcher-%s.py" % kind,
             lambda p, k=kind: subprocess.run(
                 [sys.executable, gen, k, p], check=True))
    return out


def limit_memory():
    resource.setrlimit(resource.RLIMIT_AS,
                       (HOSTILE_AS_LIMIT, HOSTILE_AS_LIMIT))


def run_hostile(argv):
    """(peak RSS KiB, wall s, CPU s, exit status or 'timeout') of one
    run."""
    p = subprocess.run(["/usr/bin/time", "-v", "timeout", "-s", "KILL",
                        str(HOSTILE_TIMEOUT)] + argv,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       text=True, preexec_fn=limit_memory)
    fields = {}
    for line in p.stderr.splitlines():
        k, _, v = line.strip().rpartition(": ")
        fields[k] = v
    m, _, sec = fields.get("Elapsed (wall clock) time (h:mm:ss or m:ss)",
                           "0:0").rpartition(":")
    wall = float(m.split(":")[-1] or 0) * 60 + float(sec)
    rss = int(fields.get("Maximum resident set size (kbytes)", 0))
    cpu = (float(fields.get("User time (seconds)", 0)) +
           float(fields.get("System time (seconds)", 0)))
    status = "timeout" if p.returncode in (124, 137) else p.returncode
    return rss, wall, cpu, status


def hostile(args):
    """The hostile set: peak RSS and time per input against the targets."""
    print("hostile inputs (targets: peak RSS <= %d MiB, <= %.0f s; limit "
          "%d GiB, timeout %d s)" % (HOSTILE_RSS_MIB, HOSTILE_SECONDS,
                                     HOSTILE_AS_LIMIT >> 30,
                                     HOSTILE_TIMEOUT))
    # the time target is judged on CPU time: on a shared machine the wall
    # time also measures the neighbours
    print("%-38s %-6s %9s %9s %7s %7s %6s  %s"
          % ("input", "format", "size KiB", "RSS MiB", "wall s", "cpu s",
             "exit", "target"))
    for name, path in hostile_inputs(args.work):
        if os.path.isdir(path):
            size = sum(os.path.getsize(os.path.join(path, e))
                       for e in os.listdir(path))
        else:
            size = os.path.getsize(path)
        # SARIF too: its fingerprints once cost findings x line length
        for fmt in ("text", "sarif"):
            rss, wall, cpu, status = run_hostile(
                [args.cli, "check", "-q", "--color", "never", "--format",
                 fmt, path])
            ok = (status != "timeout" and status in (0, 1, 2) and
                  rss <= HOSTILE_RSS_MIB * 1024 and
                  cpu <= HOSTILE_SECONDS)
            print("%-38s %-6s %9.0f %9.1f %7.2f %7.2f %6s  %s"
                  % (name, fmt, size / 1024.0, rss / 1024.0, wall, cpu,
                     status, "met" if ok else "MISSED"))
            sys.stdout.flush()


if __name__ == "__main__":
    sys.exit(main())
