"""Tests of the Python binding, with Debian's python3 and unittest:

    SMPREFLIGHT_LIBRARY=build/libsmpreflight.so.0.1.0 \
        python3 -B bindings/python/test_smpreflight.py

(make test runs it against the freshly built shared library). Run from
anywhere: paths are taken relative to the repository root.
"""

import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)

import smpreflight  # noqa: E402
from smpreflight import Error, Severity  # noqa: E402

# The tests' own specs (the examples/ folder changes with the docs), in a
# temporary folder that each test runs in. No train.py is there, so the
# script checks report script-missing (info).
# paths: check() opens a file only when given an os.PathLike
BROKEN = pathlib.Path("broken.yaml")
CLEAN = pathlib.Path("clean.yaml")
GPT2 = pathlib.Path("gpt2.yaml")
SPECS = {
    BROKEN: """\
estimator: HuggingFace
entry_point: train.py
instance_type: ml.p3.8xlarge
instance_count: 1
transformers_version: "4.17.0"
pytorch_version: "1.10.2"
py_version: py38
compiler_config:
  enabled: true
  debug: true
disable_profiler: true
debugger_hook_config: false
environment:
  GPU_NUM_DEVICES: "8"
hyperparameters:
  model_name_or_path: bert-base-cased
  per_device_train_batch_size: 12
""",
    CLEAN: """\
estimator: HuggingFace
entry_point: train.py
instance_type: ml.p3.2xlarge
instance_count: 1
transformers_version: "4.21.1"
pytorch_version: "1.11.0"
py_version: py38
compiler_config: {enabled: true, debug: false}
debugger_hook_config: false
disable_profiler: true
hyperparameters:
  preprocessing_num_workers: 8
  model_name_or_path: bert-base-uncased
  per_device_train_batch_size: 24
  learning_rate: 5.0e-5
  max_seq_length: 512
  pad_to_max_length: true
""",
    GPT2: """\
estimator: PyTorch
entry_point: run_clm.py
instance_type: ml.p4d.24xlarge
instance_count: 2
framework_version: "1.13.1"
py_version: py39
compiler_config:
  enabled: true
distribution:
  pytorchxla:
    enabled: true
debugger_hook_config: false
disable_profiler: true
hyperparameters:
  model_name_or_path: gpt2
  per_device_train_batch_size: 24
  learning_rate: 6.0e-5
""",
}
SYNTAX = pathlib.Path("syntax.yaml")
SPECS[SYNTAX] = "estimator: PyTorch\nhyperparameters:\n  lr: [1, 2\n"
WORK = None
# the CLI of the same build, when the library is a build folder's
CLI = os.path.join(os.path.dirname(os.path.abspath(smpreflight.library_path)),
                   "sm-preflight")


def setUpModule():
    global WORK
    WORK = tempfile.mkdtemp(prefix="smpreflight-test.")
    for name, text in SPECS.items():
        with open(os.path.join(WORK, name), "w") as f:
            f.write(text)


def tearDownModule():
    shutil.rmtree(WORK, ignore_errors=True)


def read(path):
    with open(os.path.join(ROOT, path), "rb") as f:
        return f.read()


class InRoot(unittest.TestCase):
    """Every test runs in the folder holding the specs above."""

    def setUp(self):
        self._cwd = os.getcwd()
        os.chdir(WORK)

    def tearDown(self):
        os.chdir(self._cwd)


class TestLibrary(InRoot):
    def test_version_matches_the_header(self):
        with open(os.path.join(ROOT, "lib", "smpreflight.h")) as f:
            h = f.read()
        parts = [re.search(r"#define SMP_VERSION_%s (\d+)" % p, h).group(1)
                 for p in ("MAJOR", "MINOR", "PATCH")]
        self.assertEqual(smpreflight.version(), ".".join(parts))
        # from the source tree __version__ is the loaded library's
        self.assertEqual(smpreflight.__version__, ".".join(parts))

    def test_library_found_through_the_environment(self):
        want = os.environ.get("SMPREFLIGHT_LIBRARY")
        if not want:
            self.skipTest("SMPREFLIGHT_LIBRARY is not set")
        self.assertEqual(smpreflight.library_path, want)

    def test_library_found_beside_the_module(self):
        """Without SMPREFLIGHT_LIBRARY, a libsmpreflight.so.MAJOR next to
        smpreflight.py is used (in a subprocess: a fresh import)."""
        with tempfile.TemporaryDirectory() as d:
            shutil.copy(os.path.join(HERE, "smpreflight.py"), d)
            shutil.copy(smpreflight.library_path, os.path.join(
                d, "libsmpreflight.so.%d" % smpreflight._ABI_MAJOR))
            env = dict(os.environ)
            env.pop("SMPREFLIGHT_LIBRARY", None)
            out = subprocess.run(
                [sys.executable, "-B", "-c",
                 "import smpreflight; print(smpreflight.library_path)"],
                cwd=d, env=env, capture_output=True, text=True)
            self.assertEqual(out.returncode, 0, out.stderr)
            self.assertEqual(out.stdout.strip(), os.path.join(
                d, "libsmpreflight.so.%d" % smpreflight._ABI_MAJOR))

    def test_rules_are_listed(self):
        ids = [r.id for r in smpreflight.rules()]
        self.assertIn("syntax", ids)
        self.assertIn("gpu-num-devices-mismatch", ids)
        self.assertEqual(len(ids), len(set(ids)))
        r = smpreflight.rules()[ids.index("syntax")]
        self.assertEqual(r.default_severity, Severity.ERROR)
        self.assertTrue(r.summary)


class TestCheck(InRoot):
    def test_finding_fields_and_str(self):
        fs = smpreflight.check(BROKEN)
        f = [f for f in fs if f.rule == "gpu-num-devices-mismatch"][0]
        self.assertEqual(f.severity, Severity.ERROR)
        self.assertEqual((f.file, f.line, f.column), (str(BROKEN), 14, 20))
        self.assertEqual(f.pointer, "/environment/GPU_NUM_DEVICES")
        self.assertEqual(f.fix, 'set it to "4"')
        self.assertIn("GPU_NUM_DEVICES", f.source_line)
        self.assertEqual(
            str(f),
            str(BROKEN) + ":14:20: error: GPU_NUM_DEVICES is \"8\" but "
            "'ml.p3.8xlarge' has 4 GPUs [gpu-num-devices-mismatch]")
        self.assertTrue(smpreflight.has_errors(fs))
        # source order
        lines = [(x.line, x.column) for x in fs]
        self.assertEqual(lines, sorted(lines))

    def test_clean_spec_has_no_error(self):
        fs = smpreflight.check(CLEAN)
        self.assertFalse(smpreflight.has_errors(fs))
        for f in fs:
            self.assertLess(f.severity, Severity.ERROR, str(f))

    def test_text_bytes_path_and_pathlib_agree(self):
        by_path = smpreflight.check(BROKEN)
        text = SPECS[BROKEN]
        by_text = smpreflight.check(text, name=str(BROKEN))
        by_bytes = smpreflight.check(text.encode(), name=str(BROKEN))
        by_pathlib = smpreflight.check_file(str(BROKEN))
        key = [(f.rule, f.line, f.column, f.message) for f in by_path
               if f.rule != "script-missing"]
        for other in (by_text, by_bytes, by_pathlib):
            self.assertEqual([(f.rule, f.line, f.column, f.message)
                              for f in other if f.rule != "script-missing"],
                             key)
        self.assertEqual(smpreflight.check(text)[0].file, "<string>")

    def test_mapping_is_checked_as_json(self):
        job = {
            "estimator": "HuggingFace",
            "entry_point": "train.py",
            "instance_type": "ml.p3.8xlarge",
            "instance_count": 1,
            "transformers_version": "4.21.1",
            "pytorch_version": "1.11.0",
            "py_version": "py38",
            "compiler_confg": {"enabled": True},
        }
        fs = smpreflight.check(job)
        typo = [f for f in fs if f.rule == "unknown-key"]
        self.assertEqual(len(typo), 1, [str(f) for f in fs])
        self.assertEqual(typo[0].pointer, "/compiler_confg")
        self.assertEqual(typo[0].file, "<dict>")
        self.assertIn("compiler_config", typo[0].message + (typo[0].fix or ""))

    def test_one_line_json_text_is_a_spec(self):
        fs = smpreflight.check('{"estimator": "PyTorch", "compiler_confg": '
                               '{"enabled": true}}')
        self.assertIn("unknown-key", [f.rule for f in fs])
        self.assertEqual(fs[0].file, "<string>")

    def test_syntax_error_is_a_finding(self):
        fs = smpreflight.check(SYNTAX)
        self.assertEqual([f.rule for f in fs], ["syntax"])
        self.assertEqual((fs[0].file, fs[0].line), (str(SYNTAX), 3))
        self.assertEqual(fs[0].severity, Severity.ERROR)

    def test_missing_file_raises_error_eio(self):
        with self.assertRaises(Error) as cm:
            smpreflight.check(pathlib.Path("no/such/job.yaml"))
        self.assertEqual(cm.exception.name, "SMP_EIO")
        self.assertEqual(cm.exception.code, -2)
        self.assertIn("no/such/job.yaml", str(cm.exception))

    def test_check_file_and_check_text_are_explicit(self):
        ctx = smpreflight.Context()
        with self.assertRaises(Error):
            ctx.check_file("estimator: PyTorch")  # a path, not text
        fs = ctx.check_text("job.yaml")  # text: a bare scalar
        self.assertTrue(fs)
        self.assertEqual(fs[0].file, "<string>")

    def test_check_walked_agrees_with_the_cli_walk(self):
        ctx = smpreflight.Context()
        walk = os.path.join(ROOT, "tests", "cases", "walk")
        # a conda environment: no job, no finding (named: findings)
        env = os.path.join(walk, "nonjobs", "environment.yml")
        self.assertEqual(ctx.check_walked(env), ([], 0, 0))
        self.assertTrue(ctx.check_file(env))
        # a plain job: found, not judged unless all_jobs
        plain = os.path.join(walk, "nonjobs", "jobs", "plain-job.yaml")
        self.assertEqual(ctx.check_walked(plain), ([], 0, 1))
        fs, jobs, skipped = ctx.check_walked(plain, all_jobs=True)
        self.assertEqual((jobs, skipped), (1, 0))
        self.assertIn("compiler-not-enabled", [f.rule for f in fs])
        # a near miss is judged
        fs, jobs, _ = ctx.check_walked(os.path.join(walk, "nearmiss",
                                                    "confg.yaml"))
        self.assertEqual(jobs, 1)
        self.assertIn("unknown-key", [f.rule for f in fs])

    def test_a_str_is_never_opened(self):
        # one-line text that names a real file is still text
        fs = smpreflight.check("/etc/passwd")
        self.assertTrue(fs)
        self.assertEqual(fs[0].file, "<string>")
        self.assertNotIn("root:", " ".join(f.message for f in fs))
        self.assertEqual(smpreflight.check_text("/etc/passwd")[0].file,
                         "<string>")
        with self.assertRaises(TypeError):
            smpreflight.check_text(pathlib.Path("x.yaml"))
        with self.assertRaises(TypeError):
            smpreflight.check_file(b"x.yaml")

    def test_ctypes_values_are_range_checked(self):
        for bad in (-1, 2 ** 64):
            with self.assertRaises(ValueError):
                smpreflight.Context(limits={"max_depth": bad})
        with self.assertRaises(ValueError):
            smpreflight.Context(short_run_steps=-5)
        with self.assertRaises(ValueError):
            smpreflight.Context(now=2 ** 63)
        with self.assertRaises(TypeError):
            smpreflight.Context(limits={"max_depth": 1.5})
        smpreflight.Context(limits={"max_depth": 2 ** 64 - 1})

    def test_rejects_other_types(self):
        with self.assertRaises(TypeError):
            smpreflight.check(42)

    def test_render_text_matches_the_cli(self):
        cli = CLI
        text = smpreflight.Context().render_text(BROKEN)
        self.assertIn("   14 |   GPU_NUM_DEVICES: \"8\"\n", text)
        self.assertIn("      = fix: set it to \"4\"\n", text)
        errors_only = smpreflight.Context().render_text(
            BROKEN, min_severity="error")
        self.assertLess(len(errors_only), len(text))
        if not os.access(cli, os.X_OK):
            self.skipTest("no sm-preflight beside the library")
        out = subprocess.run([cli, "check", "-q", "--color", "never", BROKEN],
                             capture_output=True, text=True).stdout
        self.assertEqual(out, text)


class TestContext(InRoot):
    def test_suggestion_is_a_typed_replacement(self):
        fs = {f.rule: f for f in smpreflight.Context(
            script_checks=False).check(BROKEN)}
        self.assertEqual(fs["gpu-num-devices-mismatch"].suggestion,
                         {"op": "set",
                          "pointer": "/environment/GPU_NUM_DEVICES",
                          "value": "4"})
        self.assertEqual(fs["compiler-debug"].suggestion,
                         {"op": "set", "pointer": "/compiler_config/debug",
                          "value": False})
        ctx = smpreflight.Context(script_checks=False)
        typo = ctx.check_text("estimator: HuggingFace\n"
                              "entry_point: train.py\n"
                              "instance_type: ml.p3.2xlarge\n"
                              "base_jb_name: nightly\n", name="t.yaml")
        f = [f for f in typo if f.rule == "unknown-key"][0]
        self.assertEqual(f.suggestion, {"op": "rename",
                                        "from": "/base_jb_name",
                                        "pointer": "/base_job_name"})

    def test_severities_and_disable(self):
        ctx = smpreflight.Context(
            severities={"gpu-num-devices-mismatch": "info"},
            disable=["compiler-debug"])
        fs = {f.rule: f for f in ctx.check(BROKEN)}
        self.assertNotIn("compiler-debug", fs)
        self.assertEqual(fs["gpu-num-devices-mismatch"].severity,
                         Severity.INFO)

    def test_select_and_ignore(self):
        every = {f.rule for f in smpreflight.Context().check(BROKEN)}
        self.assertIn("compiler-debug", every)
        self.assertIn("gpu-num-devices-mismatch", every)
        ctx = smpreflight.Context(select="compiler, gpu-num-devices",
                                  ignore=["compiler-debug"])
        fs = {f.rule for f in ctx.check(BROKEN)}
        self.assertIn("gpu-num-devices-mismatch", fs)
        self.assertNotIn("compiler-debug", fs)
        self.assertTrue(fs <= {r.id for r in smpreflight.rules()
                               if r.group in ("compiler", "gpu-num-devices")})
        # the most specific name wins
        ctx = smpreflight.Context(ignore="ALL", select=["compiler-debug"])
        self.assertEqual({f.rule for f in ctx.check(BROKEN)},
                         {"compiler-debug"})
        with self.assertRaises(Error) as cm:
            smpreflight.Context(select=["compilr"])
        self.assertEqual(cm.exception.name, "SMP_EINVAL")
        self.assertIn("did you mean 'compiler'", cm.exception.message)

    def test_unknown_rule_is_einval(self):
        with self.assertRaises(Error) as cm:
            smpreflight.Context(disable=["no-such-rule"])
        self.assertEqual(cm.exception.name, "SMP_EINVAL")
        self.assertIn("no-such-rule", cm.exception.message)

    def test_bad_values_raise_value_error(self):
        with self.assertRaises(ValueError):
            smpreflight.Context(dialect="boto")
        with self.assertRaises(ValueError):
            smpreflight.Context(severities={"syntax": "fatal"})
        with self.assertRaises(ValueError):
            smpreflight.Context(limits={"max_size": 1})

    def test_instance_data_folder_and_buffers(self):
        builtin = smpreflight.Context()
        data = os.path.join(ROOT, "instance-data")
        folder = smpreflight.Context(instance_data_dir=data)
        docs = [read("instance-data/" + n) for n in (
            "instances.json", "tested-models.json", "frameworks.json")]
        memory = smpreflight.Context(instance_data=docs)
        self.assertEqual(builtin.data_source, "built-in")
        self.assertEqual(folder.data_source, data)
        self.assertEqual(memory.data_source, "memory")
        for c in (folder, memory):
            self.assertEqual(c.data_version, builtin.data_version)
            self.assertEqual(c.check(BROKEN), builtin.check(BROKEN))

    def test_invalid_instance_data_names_the_document(self):
        docs = {"instances.json": read("instance-data/instances.json"),
                "tested-models.json": b"{\n  [",
                "frameworks.json": read("instance-data/frameworks.json")}
        with self.assertRaises(Error) as cm:
            smpreflight.Context(instance_data=docs)
        self.assertEqual(cm.exception.name, "SMP_EPARSE")
        self.assertEqual(cm.exception.source, "tested-models.json")
        self.assertEqual(cm.exception.line, 2)

    def test_dialect_and_names(self):
        spec = ("estimator: PyTorch\nentry_point: train.py\n"
                "instance_type: ml.p3.2xlarge\ninstance_count: 1\n"
                "framework_version: '1.13.1'\npy_version: py39\n"
                "compiler_config: {enabled: true}\n"
                "hyperparameters: {max_steps: 10}\n")
        quiet = smpreflight.Context(short_run_steps=5, script_checks=False)
        loud = smpreflight.Context(script_checks=False)
        self.assertNotIn("short-run", [f.rule for f in quiet.check(spec)])
        self.assertIn("short-run", [f.rule for f in loud.check(spec)])
        forced = smpreflight.Context(dialect="create_training_job")
        self.assertIn("unknown-key", [f.rule for f in forced.check(spec)])

    def test_script_checks_off(self):
        on = smpreflight.Context().check(BROKEN)
        off = smpreflight.Context(script_checks=False).check(BROKEN)
        self.assertIn("script-missing", [f.rule for f in on])
        self.assertNotIn("script-missing", [f.rule for f in off])

    def test_inline_ignores(self):
        text = SPECS[BROKEN].replace(
            "debug: true",
            "debug: true  # sm-preflight: ignore[compiler-debug] profiling")
        shown = [f.rule for f in smpreflight.check(text)]
        everything = smpreflight.check(text, include_suppressed=True)
        self.assertNotIn("compiler-debug", shown)
        hidden = [f for f in everything if f.suppressed]
        self.assertEqual([(f.rule, f.suppression_reason) for f in hidden],
                         [("compiler-debug", "profiling")])
        ignored = smpreflight.Context(inline_ignores=False).check(text)
        self.assertIn("compiler-debug", [f.rule for f in ignored])

    def test_closed_context_raises(self):
        with smpreflight.Context() as ctx:
            self.assertTrue(ctx.check(CLEAN) is not None)
        with self.assertRaises(ValueError):
            ctx.check(CLEAN)
        ctx.close()  # twice is fine

    def test_threads_share_one_context(self):
        ctx = smpreflight.Context()
        ex = os.path.join(ROOT, "examples")
        specs = sorted(os.path.join(ex, n) for n in os.listdir(ex)
                       if n.endswith((".yaml", ".yml", ".json")))
        specs += list(SPECS)
        want = {s: ctx.check(s) for s in specs}
        bad = []

        def work(k):
            for i in range(len(specs) * 3):
                s = specs[(i + k) % len(specs)]
                if ctx.check(s) != want[s]:
                    bad.append(s)

        threads = [threading.Thread(target=work, args=(k,))
                   for k in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(bad, [])


class _CompilerConfig:
    """Duck-types sagemaker.huggingface.TrainingCompilerConfig."""

    def __init__(self, enabled=True, debug=False):
        self.enabled = enabled
        self.debug = debug


class _Session:
    """Stands for a sagemaker.Session: not a value the checks can know."""


class TestCheckKwargs(InRoot):
    KWARGS = dict(entry_point="train.py", instance_type="ml.p3.2xlarge",
                  instance_count=1, transformers_version="4.21.1",
                  pytorch_version="1.11.0", py_version="py38",
                  debugger_hook_config=False, disable_profiler=True)

    def test_sdk_objects_by_duck_typing(self):
        kw = dict(self.KWARGS, compiler_config=_CompilerConfig(debug=True),
                  sagemaker_session=_Session(), role=_Session())
        found = [f for f in smpreflight.check_kwargs("HuggingFace", kw)
                 if f.rule != "compiler-end-of-support"]
        self.assertEqual([f.rule for f in found], ["compiler-debug"])
        # line N is the Nth keyword argument
        self.assertEqual(found[0].line, list(kw).index("compiler_config") + 1)
        self.assertEqual(found[0].pointer, "/compiler_config/debug")

    def test_unknown_objects_are_never_guessed(self):
        kw = dict(self.KWARGS, compiler_config=_CompilerConfig(),
                  instance_type=_Session())
        self.assertEqual([f.rule for f in smpreflight.check_kwargs(
            "HuggingFace", kw)], ["compiler-end-of-support"])

    def test_region_option(self):
        kw = dict(self.KWARGS, compiler_config=_CompilerConfig())
        ctx = smpreflight.Context(region="cn-north-1")
        rules = [f.rule for f in ctx.check_kwargs("HuggingFace", kw)]
        self.assertIn("compiler-region-unavailable", rules)
        ctx = smpreflight.Context(region="us-west-2")
        rules = [f.rule for f in ctx.check_kwargs("HuggingFace", kw)]
        self.assertNotIn("compiler-region-unavailable", rules)

    def test_a_tuple_is_the_trailing_comma_slip(self):
        kw = dict(self.KWARGS, compiler_config=(_CompilerConfig(),))
        found = smpreflight.check_kwargs("HuggingFace", kw)
        self.assertIn(("wrong-type", "/compiler_config"),
                      [(f.rule, f.pointer) for f in found])

    def test_unknown_class(self):
        with self.assertRaises(ValueError):
            smpreflight.check_kwargs("Trainer", {})

    def test_misspelt_class_names_the_nearest(self):
        for wrong, right in (("Huggingface", "HuggingFace"),
                             ("pytorch", "PyTorch"),
                             ("ModelTrainr", "ModelTrainer")):
            with self.assertRaises(ValueError) as e:
                smpreflight.check_kwargs(wrong, {})
            self.assertIn("did you mean %r?" % right, str(e.exception))

    def test_kwargs_not_a_mapping_is_a_type_error(self):
        for kw in ([("entry_point", "train.py")], "entry_point=train.py",
                   None, 3):
            with self.assertRaises(TypeError) as e:
                smpreflight.check_kwargs("HuggingFace", kw)
            self.assertIn("mapping", str(e.exception))
        with self.assertRaises(TypeError):
            smpreflight.check_kwargs(None, {})

    def assertTakesUnder(self, seconds, fn):
        start = time.process_time()
        fn()
        self.assertLess(time.process_time() - start, seconds)

    def test_a_container_inside_itself_is_not_known(self):
        # d['a'] = d; d['b'] = d: exponential when each visit was expanded
        d = {}
        d["a"] = d
        d["b"] = d
        env = {"EPOCHS": "3", "nested": d}
        kw = dict(self.KWARGS, compiler_config=_CompilerConfig(),
                  environment=env)
        found = []
        self.assertTakesUnder(1, lambda: found.extend(
            smpreflight.check_kwargs("HuggingFace", kw)))
        # an environment value is a string, never a mapping (the API's
        # Environment); a hyperparameter may be one: the SDK sends a
        # mapping value as its JSON text (Framework.hyperparameters ->
        # EstimatorBase._json_encode_hyperparameters)
        self.assertEqual([(f.rule, f.pointer) for f in found
                          if f.rule != "compiler-end-of-support"],
                         [("value-not-string", "/environment/nested")])
        kw = dict(self.KWARGS, compiler_config=_CompilerConfig(),
                  hyperparameters={"epochs": 3, "nested": {"lr": 0.1}})
        self.assertEqual([(f.rule, f.pointer) for f in
                          smpreflight.check_kwargs("HuggingFace", kw)
                          if f.rule != "compiler-end-of-support"], [])
        loop = []
        loop.append(loop)
        kw = dict(self.KWARGS, compiler_config=_CompilerConfig(),
                  environment={"l": loop})
        self.assertEqual([(f.rule, f.pointer) for f in
                          smpreflight.check_kwargs("HuggingFace", kw)
                          if f.rule != "compiler-end-of-support"],
                         [("value-not-string", "/environment/l")])

    def test_shared_structure_is_bounded_in_all(self):
        # no cycle, but 2**40 values as it reads: an error, at once
        shared = []
        for _ in range(40):
            shared = [shared, shared]
        kw = dict(self.KWARGS, hyperparameters={"x": shared})

        def run():
            with self.assertRaises(Error) as e:
                smpreflight.check_kwargs("HuggingFace", kw)
            self.assertEqual(e.exception.name, "SMP_ELIMIT")
            self.assertEqual(e.exception.line,
                             list(kw).index("hyperparameters") + 1)
            self.assertIn("'hyperparameters'", str(e.exception))
        self.assertTakesUnder(1, run)
        # sharing within the bound is read as often as it is used
        twice = {"lr": 0.1}
        kw = dict(self.KWARGS, compiler_config=_CompilerConfig(debug=True),
                  environment={"a": twice, "b": twice})
        self.assertEqual(sorted((f.rule, f.pointer) for f in
                                smpreflight.check_kwargs("HuggingFace", kw)
                                if f.rule != "compiler-end-of-support"),
                         [("compiler-debug", "/compiler_config/debug"),
                          ("value-not-string", "/environment/a"),
                          ("value-not-string", "/environment/b")])

    def test_exceptions_from_values_become_errors(self):
        class Raising:
            @property
            def enabled(self):
                raise RuntimeError("no session")

            debug = False

        class BadKey:
            def __str__(self):
                raise KeyError("x")

        for value in (10 ** 5000, Raising(), {BadKey(): 1}):
            kw = dict(self.KWARGS, compiler_config=value)
            with self.assertRaises(Error) as e:
                smpreflight.check_kwargs("HuggingFace", kw)
            self.assertEqual(e.exception.name, "SMP_EINVAL")
            self.assertIn("keyword argument 'compiler_config'",
                          str(e.exception))
            self.assertEqual(e.exception.line,
                             list(kw).index("compiler_config") + 1)


class TestSuggest(InRoot):
    def test_suggestion_fields_and_text(self):
        s = smpreflight.suggest(GPT2)
        self.assertEqual(s.outcome, "ok")
        self.assertEqual(s.model, "gpt2")
        self.assertEqual(s.batch_name, "per_device_train_batch_size")
        self.assertEqual((s.now.batch_per_gpu, s.now.gpus,
                          s.now.instance_count), (24, 8, 2))
        # 24 is not the row's native 36: scaled by 64 / 36
        self.assertEqual(s.next.batch_per_gpu, 42)
        self.assertAlmostEqual(s.k, 42 / 24)
        self.assertAlmostEqual(s.next.learning_rate, 6e-05 * 42 / 24)
        self.assertEqual(s.relation, "exact")
        self.assertEqual(s.row.compiler_batch_size, 64)
        self.assertIn("per_device_train_batch_size: 42", s.fragment)
        self.assertTrue(str(s).startswith(
            str(GPT2) + ": suggestion: per-GPU batch 24 -> 42"))
        self.assertFalse(smpreflight.has_errors(s.findings))

    def test_suggest_move_and_sqrt(self):
        ctx = smpreflight.Context(lr_scaling="sqrt")
        s = ctx.suggest(CLEAN, to="ml.p3.8xlarge")
        self.assertEqual(s.lr_scaling, "sqrt")
        self.assertEqual(s.next.instance_type, "ml.p3.8xlarge")
        self.assertAlmostEqual(s.k, 4)
        self.assertAlmostEqual(s.next.learning_rate, 5e-05 * 2)

    def test_suggest_errors_first(self):
        s = smpreflight.suggest(BROKEN)
        self.assertEqual(s.outcome, "errors")
        self.assertIn("error", s.message)
        self.assertTrue(smpreflight.has_errors(s.findings))

    def test_suggest_bad_target_is_einval(self):
        with self.assertRaises(Error) as cm:
            smpreflight.suggest(CLEAN, to="ml.m5.xlarge")
        self.assertEqual(cm.exception.name, "SMP_EINVAL")


class TestDiagnose(InRoot):
    CASES = os.path.join(ROOT, "tests", "cases", "diagnose")

    def case(self, name):
        return pathlib.Path(self.CASES, name)

    def test_failed_job_with_its_cause(self):
        d = smpreflight.diagnose(self.case("failed-missing-xla.json"))
        self.assertEqual(d.situation("failed"), "yes")
        self.assertEqual(d.situation("not-faster"), "cannot-tell")
        self.assertEqual(d.causes[0]["id"], "missing-xla-configuration")
        self.assertIn("GPU_NUM_DEVICES to \"4\"", d.causes[0]["advice"])
        self.assertEqual(d.job["gpus_per_instance"], 4)
        self.assertTrue(d.found)
        self.assertIn("Likely cause", str(d))
        self.assertIn("pytorchxla-missing", [p["rule"] for p in d.problems])

    def test_baseline_log_and_sources(self):
        d = smpreflight.diagnose(
            pathlib.Path(self.case("good.yaml")),
            baseline=self.case("native.yaml"),
            log=self.case("clean.log"),
            source_dir=self.case("src-good"))
        self.assertEqual([s["verdict"] for s in d.situations],
                         ["no", "no", "no"])
        self.assertEqual(d.causes, [])
        self.assertFalse(d.found)
        # no problem; what the response cannot show is said so: nothing
        # sets GPU_NUM_DEVICES, no logging hyperparameters, a batch above
        # the tested row that the table cannot judge
        self.assertEqual([i["id"] for i in d.checklist
                          if i["state"] == "problem"], [])
        self.assertEqual([i["id"] for i in d.checklist
                          if i["state"] == "cannot-tell"],
                         ["gpu-num-devices", "logging", "batch-size"])
        self.assertTrue(d.hyperparameters)
        self.assertEqual(d.baseline, str(self.case("native.yaml")))

    def test_text_and_a_dict_like_boto3_returns(self):
        import datetime
        import json
        with open(self.case("failed-missing-xla.json")) as f:
            resp = json.load(f)
        resp["CreationTime"] = datetime.datetime(
            2026, 11, 30, 14, 2, 11, tzinfo=datetime.timezone.utc)
        resp["ResponseMetadata"] = {"RequestId": "5a3c", "HTTPStatusCode": 200}
        d = smpreflight.diagnose(resp, log="RuntimeError: Missing XLA "
                                 "configuration\n")
        self.assertEqual(d.file, "<dict>")
        self.assertEqual(d.log, "log")
        self.assertEqual(d.causes[0]["count"], 2)

    def test_not_a_response_is_eparse(self):
        with self.assertRaises(Error) as cm:
            smpreflight.diagnose(read("tests/cases/suggest/bert-api.json"))
        self.assertEqual(cm.exception.code, -3)
        with self.assertRaises(Error):
            smpreflight.diagnose(self.case("no-such-file.json"))


class TestLayout(unittest.TestCase):
    """The ctypes mirrors list the C structs' fields in the header's order
    (a field appended to the header without the binding fails here)."""

    STRUCTS = {
        "smp_error": smpreflight._Error,
        "smp_rule_override": smpreflight._RuleOverride,
        "smp_names": smpreflight._Names,
        "smp_memory_doc": smpreflight._MemoryDoc,
        "smp_options": smpreflight._Options,
        "smp_finding": smpreflight._Finding,
        "smp_rule_info": smpreflight._RuleInfo,
        "smp_suggest_options": smpreflight._SuggestOptions,
        "smp_tested_row": smpreflight._TestedRow,
        "smp_suggest_side": smpreflight._SuggestSide,
        "smp_suggestion": smpreflight._Suggestion,
        "smp_membuf": smpreflight._Membuf,
        "smp_diagnose_options": smpreflight._DiagnoseOptions,
        "smp_fix_options": smpreflight._FixOptions,
        "smp_fix_result": smpreflight._FixResult,
    }

    def test_fields_match_the_header(self):
        with open(os.path.join(ROOT, "lib", "smpreflight.h")) as f:
            h = re.sub(r"/\*.*?\*/", "", f.read(), flags=re.S)
        for name, cls in self.STRUCTS.items():
            m = re.search(r"struct %s \{(.*?)\n\};" % name, h, re.S)
            self.assertIsNotNone(m, name)
            fields = [re.findall(r"\w+", d.split("[")[0])[-1]
                      for d in m.group(1).split(";") if d.strip()]
            self.assertEqual([f[0] for f in cls._fields_], fields, name)

    def test_options_version_matches_the_header(self):
        with open(os.path.join(ROOT, "lib", "smpreflight.h")) as f:
            v = re.search(r"#define SMP_OPTIONS_VERSION (\d+)", f.read())
        self.assertEqual(smpreflight._OPTIONS_VERSION, int(v.group(1)))

    def test_diagnose_versions_match_the_header(self):
        with open(os.path.join(ROOT, "lib", "smpreflight.h")) as f:
            h = f.read()
        for macro, value in (
                ("SMP_DIAGNOSE_OPTIONS_VERSION",
                 smpreflight._DIAGNOSE_OPTIONS_VERSION),
                ("SMP_DIAGNOSIS_SCHEMA_VERSION",
                 smpreflight._DIAGNOSIS_SCHEMA_VERSION)):
            v = re.search(r"#define %s (\d+)" % macro, h)
            self.assertEqual(value, int(v.group(1)), macro)


class TestFix(unittest.TestCase):
    SPEC = ("estimator: HuggingFace  # the SDK class\r\n"
            "entry_point: train.py\r\n"
            "instance_type: ml.p3.8xlarge\r\n"
            "instance_count: 1\r\n"
            "transformers_version: '4.21.1'\r\n"
            "pytorch_version: '1.11.0'\r\n"
            "py_version: py38\r\n"
            "compiler_config: {enabled: true, debug: true}\r\n"
            "debugger_hook_config: false\r\n"
            "disable_profiler: true\r\n"
            "distribution: {pytorchxla: {enabled: true}}\r\n"
            "environment: {GPU_NUM_DEVICES: '8'}  # caf\u00e9\r\n")

    def test_fix_returns_the_new_text_with_only_the_spans_changed(self):
        want = (self.SPEC.replace("debug: true", "debug: false")
                .replace("'8'", "'4'"))
        self.assertEqual(smpreflight.fix(self.SPEC, name="s.yaml"), want)
        fixed = smpreflight.fix(self.SPEC.encode(), name="s.yaml")
        self.assertEqual(fixed, want.encode())
        self.assertEqual(smpreflight.fix(want, name="s.yaml"), want)

    def test_unsafe_fixes_only_when_asked(self):
        old = self.SPEC.replace("'1.11.0'", "'1.10.2'")
        self.assertIn("'1.10.2'", smpreflight.fix(old, name="s.yaml"))
        self.assertIn("'1.11.0'", smpreflight.fix(old, name="s.yaml",
                                                  unsafe_fixes=True))

    def test_fix_of_a_file_reads_it_and_leaves_it(self):
        with tempfile.TemporaryDirectory() as d:
            p = pathlib.Path(d, "s.yaml")
            p.write_bytes(self.SPEC.encode())
            self.assertIn("debug: false", smpreflight.fix(p))
            self.assertEqual(p.read_bytes(), self.SPEC.encode())


if __name__ == "__main__":
    unittest.main(verbosity=1)
