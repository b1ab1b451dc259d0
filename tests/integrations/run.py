#!/usr/bin/env python3
"""run.py - the GitHub Action (action.yml) and the pre-commit hook
(.pre-commit-hooks.yaml) run the way their hosts run them.

  python3 tests/integrations/run.py CLI

The action: every step of the composite action in order, with the
expressions a runner fills in (${{ github.action_path }}, ${{ inputs.X }})
put into the steps' env as the runner does, `shell: bash` as
`bash --noprofile --norc -eo pipefail`, and GITHUB_OUTPUT read back. The
hook: the staged files of a sample git repository filtered by the hook's
`files` pattern (Python re.search, as pre-commit does) and passed to its
entry, run from the hook repository's root."""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

try:
    import yaml
except ImportError:  # python3-yaml
    print("integrations: skipped, python3-yaml is not installed "
          "(apt-get install python3-yaml)")
    sys.exit(0)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))

GOOD = open(os.path.join(ROOT, "examples", "roberta-multi-gpu.yaml")).read()
# the compiler typo the SDK swallows: an error
BAD = GOOD.replace("compiler_config:", "compiler_confg:")

passed = failed = 0


def expect(what, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL %s%s" % (what, (": " + detail) if detail else ""))


NOTEBOOK = json.dumps({
    "cells": [{"cell_type": "code", "metadata": {}, "outputs": [],
               "execution_count": None,
               "source": ["import pandas as pd\n", "df = pd.DataFrame()\n"]}],
    "metadata": {"kernelspec": {"language": "python", "name": "python3"}},
    "nbformat": 4, "nbformat_minor": 5})


def sample_repo(top):
    """A repository as they are: a job, and files that are not jobs."""
    os.makedirs(os.path.join(top, "jobs", "scripts"))
    os.makedirs(os.path.join(top, ".github", "workflows"))
    os.makedirs(os.path.join(top, "web"))
    with open(os.path.join(top, "jobs", "good.yaml"), "w") as f:
        f.write(GOOD)
    with open(os.path.join(top, ".github", "workflows", "ci.yaml"), "w") as f:
        f.write("name: ci\non: push\njobs: {}\n")
    with open(os.path.join(top, "environment.yml"), "w") as f:
        f.write("name: env\nchannels: [conda-forge]\n"
                "dependencies: [python=3.10, {pip: [sagemaker]}]\n")
    with open(os.path.join(top, "web", "package.json"), "w") as f:
        f.write('{"name": "web", "version": "1.0.0", "dependencies": {}}\n')
    with open(os.path.join(top, "explore.ipynb"), "w") as f:
        f.write(NOTEBOOK)
    with open(os.path.join(top, "util.py"), "w") as f:
        f.write("import os\nprint(os.getcwd())\n")


def expand(text, inputs, steps=None):
    def one(m):
        expr = m.group(1).strip()
        if expr == "github.action_path":
            return ROOT
        if expr.startswith("inputs."):
            return inputs[expr[len("inputs."):]]
        s = re.fullmatch(r"steps\.([\w-]+)\.outputs\.([\w-]+)", expr)
        if s and steps is not None:
            return steps.get(s.group(1), {}).get(s.group(2), "")
        raise SystemExit("run.py: no value for ${{ %s }}" % expr)
    return re.sub(r"\$\{\{(.*?)\}\}", one, str(text))


def condition(expr, steps):
    """A step's if: the forms action.yml uses (an output compared with a
    string, joined by &&); anything else stops the test."""
    if expr is None:
        return True
    ok = True
    for part in str(expr).split("&&"):
        m = re.fullmatch(r"\s*steps\.([\w-]+)\.outputs\.([\w-]+)\s*"
                         r"(==|!=)\s*'([^']*)'\s*", part)
        if not m:
            raise SystemExit("run.py: cannot evaluate if: %s" % expr)
        value = steps.get(m.group(1), {}).get(m.group(2), "")
        ok = ok and ((value == m.group(4)) == (m.group(3) == "=="))
    return ok


def read_outputs(path):
    with open(path) as f:
        out = dict(line.split("=", 1) for line in f.read().splitlines()
                   if "=" in line)
    open(path, "w").close()
    return out


def cache_step(step, inputs, steps, cache_dir, saves):
    """actions/cache: restores the path saved under the key (cache-hit
    true), else saves it after the last step, as the post step does."""
    path = expand(step["with"]["path"], inputs, steps)
    key = expand(step["with"]["key"], inputs, steps)
    if not key or not path:
        raise SystemExit("run.py: actions/cache without a key or path")
    stored = os.path.join(cache_dir, re.sub(r"[^\w.-]", "_", key))
    if os.path.isdir(stored):
        shutil.rmtree(path, ignore_errors=True)
        shutil.copytree(stored, path)
        return {"cache-hit": "true"}
    saves.append((path, stored))
    return {"cache-hit": "false"}


def run_action(work, overrides, cache_dir=None, env_extra=None):
    """Runs the steps in order; returns (exit status of the last step run,
    outputs, stdout of all steps, the names of the steps run)."""
    action = yaml.safe_load(open(os.path.join(ROOT, "action.yml")))
    inputs = {k: str(v.get("default", "")) for k, v in
              action["inputs"].items()}
    inputs.update(overrides)
    out_file = os.path.join(work, ".github-output")
    open(out_file, "w").close()
    cache_dir = cache_dir or os.path.join(work, ".cache-store")
    stdout = ""
    rc = 0
    steps, saves, ran = {}, [], []
    for step in action["runs"]["steps"]:
        if not condition(step.get("if"), steps):
            continue
        ran.append(step["name"])
        if "uses" in step:
            if not step["uses"].startswith("actions/cache@"):
                raise SystemExit("run.py: no stand-in for %s" % step["uses"])
            steps[step.get("id", "")] = cache_step(step, inputs, steps,
                                                   cache_dir, saves)
            continue
        env = dict(os.environ)
        env.update({"GITHUB_OUTPUT": out_file, "GITHUB_WORKSPACE": work,
                    "GITHUB_ACTIONS": "true", "CI": "true"})
        env.update(env_extra or {})
        for k, v in (step.get("env") or {}).items():
            env[k] = expand(v, inputs, steps)
        if "${{" in step["run"]:
            raise SystemExit("run.py: step '%s' expands an expression in "
                             "its script; pass it through env" %
                             step["name"])
        p = subprocess.run(["bash", "--noprofile", "--norc", "-eo",
                            "pipefail", "-c", step["run"]], cwd=work,
                           env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
        stdout += p.stdout
        rc = p.returncode
        steps[step.get("id", "")] = read_outputs(out_file)
        if rc != 0:
            break
    if rc == 0 or rc == 1:  # the post step saves after the job's steps
        for path, stored in saves:
            if os.path.isdir(path) and not os.path.isdir(stored):
                shutil.copytree(path, stored)
    outputs = {}
    for k, v in action.get("outputs", {}).items():
        value = expand(v["value"], inputs, steps)
        if value:
            outputs[k] = value
    return rc, outputs, stdout, ran


def test_action_cache(tmp):
    """A cold run builds and fills the cache; a warm one restores the tool
    (removed from the checkout in between), installs and builds nothing,
    and checks the same; the key names the runner image."""
    work = os.path.join(tmp, "cached")
    sample_repo(work)
    store = os.path.join(tmp, "cache-store")
    rc, outputs, out, ran = run_action(work, {"paths": "jobs"}, store)
    expect("action cache: a cold run builds", rc == 0 and
           "Build sm-preflight" in ran, out + repr(ran))
    keys = os.listdir(store) if os.path.isdir(store) else []
    expect("action cache: the cold run saved the tool", len(keys) == 1,
           repr(keys))
    shutil.rmtree(os.path.join(ROOT, "build", "action"), ignore_errors=True)
    rc, outputs, out, ran = run_action(work, {"paths": "jobs"}, store,
                                       {"ImageOS": "ubuntu24",
                                        "ImageVersion": "20261130.1"})
    expect("action cache: another runner image misses", "Build sm-preflight"
           in ran, repr(ran))
    shutil.rmtree(os.path.join(ROOT, "build", "action"), ignore_errors=True)
    rc, outputs, out, ran = run_action(work, {"paths": "jobs"}, store)
    expect("action cache: a warm run installs and builds nothing",
           rc == 0 and "Install build dependencies" not in ran and
           "Build sm-preflight" not in ran, out + repr(ran))
    expect("action cache: the warm run checks", outputs.get("exit-code") ==
           "0" and "sarif-file" in outputs, repr(outputs))
    tool = os.path.join(ROOT, "build", "action", "sm-preflight")
    needed = subprocess.run(["readelf", "-d", tool], stdout=subprocess.PIPE,
                            text=True).stdout
    libs = re.findall(r"\(NEEDED\).*\[(.*)\]", needed)
    expect("action cache: the cached tool needs only the C library",
           libs and all(x in ("libc.so.6", "libm.so.6") for x in libs),
           repr(libs))


def test_build_failure_no_sarif_output(tmp):
    """A build that fails stops the action before the check: no
    sarif-file output, which the README's upload step tests for."""
    work = os.path.join(tmp, "failing")
    sample_repo(work)
    shutil.rmtree(os.path.join(ROOT, "build", "action"), ignore_errors=True)
    # a make that fails, as a build missing a dependency does
    bin_dir = os.path.join(tmp, "failing-bin")
    os.makedirs(bin_dir)
    with open(os.path.join(bin_dir, "make"), "w") as f:
        f.write("#!/bin/sh\necho 'make: *** [probe] Error 1' >&2\nexit 2\n")
    os.chmod(os.path.join(bin_dir, "make"), 0o755)
    rc, outputs, out, ran = run_action(
        work, {"paths": "jobs"}, os.path.join(tmp, "empty-store"),
        {"PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")})
    expect("action: a failed build fails the action", rc != 0, out)
    expect("action: a failed build leaves no sarif-file output",
           "sarif-file" not in outputs and "Check job files" not in ran,
           repr(outputs) + repr(ran))


def test_action(tmp):
    work = os.path.join(tmp, "action")
    sample_repo(work)
    # the default paths: the whole checkout, unrelated files and all
    rc, outputs, out, _ = run_action(work, {})
    expect("action: paths '.' on a repository with one good job exits 0",
           rc == 0, out)
    expect("action: one summary line", "1 job checked" in out and
           "files without a training job skipped" in out, out)
    rc, outputs, out, _ = run_action(work, {"paths": "jobs"})
    expect("action: a clean job exits 0", rc == 0, out)
    expect("action: exit-code output", outputs.get("exit-code") == "0",
           repr(outputs))
    sarif = os.path.join(work, outputs.get("sarif-file", "-"))
    expect("action: SARIF written", os.path.isfile(sarif), repr(outputs))
    if os.path.isfile(sarif):
        doc = json.load(open(sarif))
        expect("action: SARIF 2.1.0", doc.get("version") == "2.1.0")

    with open(os.path.join(work, "jobs", "bad.yaml"), "w") as f:
        f.write(BAD)
    rc, outputs, out, _ = run_action(work, {"paths": "jobs",
                                         "args": "--fail-on error"})
    expect("action: a broken job fails the step", rc == 1, out)
    expect("action: exit-code 1", outputs.get("exit-code") == "1")
    expect("action: a GitHub annotation for the typo",
           re.search(r"^::error file=jobs/bad\.yaml,line=\d+", out,
                     re.M) is not None, out)
    if os.path.isfile(sarif):
        results = json.load(open(sarif))["runs"][0]["results"]
        expect("action: the SARIF holds the finding",
               any(r.get("ruleId") == "unknown-key" for r in results))
        # code scanning places it by a path relative to the checkout
        run0 = json.load(open(sarif))["runs"][0]
        base = run0.get("originalUriBaseIds", {}).get("%SRCROOT%", {})
        expect("action: %SRCROOT% is GITHUB_WORKSPACE",
               base.get("uri") == "file://" + os.path.realpath(work) + "/",
               repr(base))
        locs = [r["locations"][0]["physicalLocation"]["artifactLocation"]
                for r in results if r.get("ruleId") == "unknown-key"]
        expect("action: SARIF URIs relative to the workspace",
               locs and all(loc == {"uri": "jobs/bad.yaml",
                                    "uriBaseId": "%SRCROOT%"}
                            for loc in locs), repr(locs))

    rc, outputs, out, _ = run_action(work, {"args": "--fail-on error"})
    expect("action: paths '.' with a broken job fails the step", rc == 1,
           out)
    expect("action: its annotation",
           re.search(r"^::error file=jobs/bad\.yaml,line=\d+", out,
                     re.M) is not None, out)
    rc, outputs, out, _ = run_action(work, {"paths": "jobs/good.yaml",
                                         "sarif-file": ""})
    expect("action: no SARIF when sarif-file is empty",
           rc == 0 and "sarif-file" not in outputs, repr(outputs))
    rc, outputs, out, _ = run_action(work, {"paths": "jobs/good.yaml",
                                         "sarif-file": "x.sarif\nexit-code=0"})
    expect("action: a line break in sarif-file is refused",
           rc == 2 and outputs == {}, repr(outputs) + out)
    rc, outputs, out, _ = run_action(work, {"paths": "jobs/*.yaml"})
    expect("action: paths are not glob patterns",
           rc == 2 and "jobs/*.yaml" in out, out)


def git(cwd, *args):
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t",
                    *args], cwd=cwd, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)


def run_hook(repo):
    """What pre-commit does for a `language: script` hook."""
    hook = yaml.safe_load(open(os.path.join(ROOT,
                                            ".pre-commit-hooks.yaml")))[0]
    staged = subprocess.run(["git", "diff", "--cached", "--name-only",
                             "--diff-filter=ACMR"], cwd=repo,
                            stdout=subprocess.PIPE, text=True,
                            check=True).stdout.split()
    # pre-commit's identify tags, for the extensions the hook names
    tags = {"yaml": (".yaml", ".yml"), "json": (".json",),
            "python": (".py",), "jupyter": (".ipynb",)}
    exts = tuple(e for t in hook["types_or"] for e in tags[t])
    files = [f for f in staged if f.endswith(exts) and
             re.search(hook.get("files", ""), f)]
    entry = os.path.join(ROOT, hook["entry"])
    if not files:
        return 0, files, ""
    p = subprocess.run([entry, *hook.get("args", []), *files], cwd=repo,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    return p.returncode, files, p.stdout


def test_pre_commit(tmp):
    if shutil.which("git") is None:
        print("integrations: pre-commit test skipped, git is not installed")
        return
    repo = os.path.join(tmp, "hook")
    sample_repo(repo)
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    rc, files, out = run_hook(repo)
    expect("pre-commit: specs, launchers and notebooks are passed",
           sorted(files) == [".github/workflows/ci.yaml", "environment.yml",
                             "explore.ipynb", "jobs/good.yaml", "util.py",
                             "web/package.json"], repr(files))
    expect("pre-commit: a clean job among unrelated files passes",
           rc == 0, out)
    with open(os.path.join(repo, "jobs", "bad.yaml"), "w") as f:
        f.write(BAD)
    git(repo, "add", "jobs/bad.yaml")
    rc, files, out = run_hook(repo)
    expect("pre-commit: a broken staged job fails the commit", rc == 1, out)
    expect("pre-commit: the finding names the file and line",
           re.search(r"^jobs/bad\.yaml:\d+:\d+: error: .*\[unknown-key\]",
                     out, re.M) is not None, out)


def main():
    if len(sys.argv) != 2:
        print("usage: python3 tests/integrations/run.py CLI",
              file=sys.stderr)
        return 2
    cli = os.path.abspath(sys.argv[1])
    if cli != os.path.join(ROOT, "build", "sm-preflight"):
        # the action and the hook run the tool they build in this checkout
        print("integrations: skipped, they run build/sm-preflight only")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        test_action(tmp)
        test_action_cache(tmp)
        test_build_failure_no_sarif_output(tmp)
        test_pre_commit(tmp)
    print("integrations: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
