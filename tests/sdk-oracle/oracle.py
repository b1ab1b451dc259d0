#!/usr/bin/python3
"""Records what the SageMaker Python SDK itself produces for estimator specs.

Usage:
  /usr/bin/python3 tests/sdk-oracle/oracle.py --sdk GIT_DIR [--ref REF]
      [--specs tests/sdk-oracle/specs.json] [--out tests/sdk-oracle/expected.json]

GIT_DIR is a git directory of aws/sagemaker-python-sdk (a clone or the
fetched snapshot); REF defaults to v2.257.6. The script exports
src/sagemaker of REF into a temporary folder with `git archive`, imports it
with Debian's python3 (python3-yaml, python3-packaging, python3-attr and
python3-botocore are real; the other third-party modules the SDK imports
at module level but never calls on this path are stubbed, see STUBBED), and
for every spec of specs.json builds the estimator class the spec names with
a stand-in session (no AWS account, no network) and records:

  image_uri        Framework.training_image_uri() (image_uris.retrieve)
  hyperparameters  after EstimatorBase._prepare_for_training(), the dict
                   Framework.hyperparameters() returns (what CreateTrainingJob
                   receives: the user's values JSON-encoded plus the SDK's
                   sagemaker_* keys)
  debugger_hook    the Debugger hook after _prepare_for_training: null, false,
                   or the hook's S3 output path ("default" when the SDK made
                   its default hook)
  profiler_disabled  estimator.disable_profiler after _prepare_for_training
  error            instead of the above, the exception the SDK raised
                   (type and message), at construction or at preparation

No SDK code is copied into this repository: the SDK is read from GIT_DIR
at run time, and expected.json holds only the values it computed.
"""

import argparse
import importlib.abc
import importlib.machinery
import json
import logging
import os
import subprocess
import sys
import tarfile
import tempfile
import types
import warnings

DEFAULT_REF = "v2.257.6"
HERE = os.path.dirname(os.path.abspath(__file__))

# Third-party modules that the SDK imports at module level but that the
# estimator constructors, training_image_uri and _prepare_for_training never
# call with a stand-in session. They are not Debian packages of Bookworm (or
# pull in large stacks), so they are replaced by inert modules.
STUBBED = {
    "boto3", "cloudpickle", "docker", "fastapi", "google", "graphene",
    "importlib_metadata", "jsonschema", "numpy", "omegaconf", "pandas",
    "pathos", "platformdirs", "psutil", "pytz", "requests", "sagemaker_core",
    "schema", "scipy", "smdebug_rulesconfig", "tblib", "tqdm", "uvicorn",
    "awscrt", "dill", "multiprocess",
}
# Values some stubs must give: platformdirs answers where the SDK looks
# for its config files (a folder that does not exist: no defaults apply).
OVERRIDES = {
    "platformdirs": {
        "site_config_dir": lambda *a, **k: "/nonexistent/sm-preflight-oracle",
        "user_config_dir": lambda *a, **k: "/nonexistent/sm-preflight-oracle",
    },
}


class _StubMeta(type):
    """Any attribute is a stub; calling one on a function returns it."""

    def __getattr__(cls, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return _Stub

    def __call__(cls, *args, **kwargs):
        if len(args) == 1 and not kwargs and callable(args[0]):
            return args[0]  # used as a decorator
        return _Stub

    def __iter__(cls):
        return iter(())

    def __getitem__(cls, key):
        return _Stub

    def __or__(cls, other):
        return _Stub

    def __ror__(cls, other):
        return _Stub


class _Stub(metaclass=_StubMeta):
    pass


class _StubModule(types.ModuleType):
    __path__ = []

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return _Stub


class _StubFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, name, path, target=None):
        if name.split(".")[0] not in STUBBED:
            return None
        return importlib.machinery.ModuleSpec(name, self, is_package=True)

    def create_module(self, spec):
        return _StubModule(spec.name)

    def exec_module(self, module):
        for k, v in OVERRIDES.get(module.__name__, {}).items():
            setattr(module, k, v)


class _Session:
    """Stands in for sagemaker.session.Session: a region, no config, no
    calls to AWS (the specs give S3 source_dir and output_path, so nothing
    is uploaded)."""

    def __init__(self, region):
        self.boto_region_name = region
        self._region_name = region
        self.sagemaker_config = None
        self.local_mode = False
        self.config = None
        self.settings = None
        self.s3_client = None
        self.s3_resource = None
        self.default_bucket_prefix = None
        self.boto_session = None

    def _get_account_id_if_default_bucket(self, bucket):
        return None

    def default_bucket(self):
        return "sm-preflight-oracle"

    def __getattr__(self, name):
        raise AttributeError("the oracle session has no %r" % name)


def git(gitdir, *args, binary=False):
    out = subprocess.run(["git", "--git-dir=" + gitdir] + list(args),
                         check=True, capture_output=True)
    return out.stdout if binary else out.stdout.decode().strip()


def export_sdk(gitdir, ref, dest):
    data = git(gitdir, "archive", "--format=tar", ref, "src/sagemaker",
               binary=True)
    path = os.path.join(dest, "sdk.tar")
    with open(path, "wb") as f:
        f.write(data)
    with tarfile.open(path) as t:
        t.extractall(dest)  # our own git archive of one tree
    return os.path.join(dest, "src")


def encode(v):
    """A JSON-safe form of a value the SDK returned."""
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, dict):
        return {str(k): encode(x) for k, x in sorted(v.items())}
    if isinstance(v, (list, tuple)):
        return [encode(x) for x in v]
    return "<%s>" % type(v).__name__


def build(sm, spec):
    """The estimator for spec (a dict of constructor arguments plus
    'estimator' naming the class and 'region')."""
    kwargs = dict(spec["kwargs"])
    cls_name = spec["estimator"]
    if cls_name == "HuggingFace":
        from sagemaker.huggingface import HuggingFace as cls
        from sagemaker.huggingface import TrainingCompilerConfig as tcc
    elif cls_name == "PyTorch":
        from sagemaker.pytorch import PyTorch as cls
        from sagemaker.pytorch import TrainingCompilerConfig as tcc
    elif cls_name == "TensorFlow":
        from sagemaker.tensorflow import TensorFlow as cls
        from sagemaker.tensorflow import TrainingCompilerConfig as tcc
    else:
        raise SystemExit("unknown estimator %r" % cls_name)
    if isinstance(kwargs.get("compiler_config"), dict):
        kwargs["compiler_config"] = tcc(**kwargs["compiler_config"])
    kwargs.setdefault("role", "arn:aws:iam::111122223333:role/oracle")
    kwargs.setdefault("source_dir", "s3://sm-preflight-oracle/src/sourcedir.tar.gz")
    kwargs.setdefault("output_path", "s3://sm-preflight-oracle/output")
    kwargs["sagemaker_session"] = _Session(spec["region"])
    return cls(**kwargs)


def run_spec(sm, spec):
    rec = {"name": spec["name"]}
    try:
        est = build(sm, spec)
        image = est.training_image_uri()
        est._prepare_for_training(job_name="oracle-job")
        hp = est.hyperparameters()
    except Exception as e:  # the SDK's own refusal is a result too
        if os.environ.get("ORACLE_TRACE"):
            import traceback
            traceback.print_exc()
        rec["error"] = {"type": type(e).__name__, "message": str(e)}
        return rec
    rec["image_uri"] = image
    rec["hyperparameters"] = encode(hp)
    hook = est.debugger_hook_config
    if hook is None or hook is False:
        rec["debugger_hook"] = hook
    else:
        rec["debugger_hook"] = "default"
    rec["profiler_disabled"] = bool(est.disable_profiler)
    return rec


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sdk", required=True,
                    help="git directory of aws/sagemaker-python-sdk")
    ap.add_argument("--ref", default=DEFAULT_REF)
    ap.add_argument("--specs", default=os.path.join(HERE, "specs.json"))
    ap.add_argument("--out", default=os.path.join(HERE, "expected.json"))
    args = ap.parse_args()

    commit = git(args.sdk, "rev-parse", args.ref + "^{commit}")
    version = git(args.sdk, "show", args.ref + ":VERSION")
    with open(args.specs, encoding="utf-8") as f:
        specs = json.load(f)["specs"]

    os.environ["SAGEMAKER_SUPPRESS_V2_WARNING"] = "1"
    warnings.simplefilter("ignore")
    logging.disable(logging.CRITICAL)
    with tempfile.TemporaryDirectory() as tmp:
        sys.path.insert(0, export_sdk(args.sdk, args.ref, tmp))
        sys.meta_path.append(_StubFinder())
        import botocore.loaders  # noqa: F401 (utils uses them unimported)
        import botocore.regions  # noqa: F401
        import sagemaker as sm
        records = [run_spec(sm, s) for s in specs]

    out = {
        "generated_by": "tests/sdk-oracle/oracle.py (do not edit; rerun it)",
        "sdk": {"repository": "aws/sagemaker-python-sdk", "ref": args.ref,
                "version": version, "commit": commit},
        "python": sys.version.split()[0],
        "stubbed_modules": sorted(STUBBED),
        "results": records,
    }
    with open(args.out, "w", encoding="utf-8", newline="\n") as f:
        f.write(json.dumps(out, indent=2, ensure_ascii=False) + "\n")
    ok = sum(1 for r in records if "image_uri" in r)
    print("%d specs, %d image URIs, %d SDK errors -> %s"
          % (len(records), ok, len(records) - ok, args.out))


if __name__ == "__main__":
    main()
