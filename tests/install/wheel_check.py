"""Run inside the minimal root by wheel.sh: python wheel_check.py VERSION
SPEC. The installed wheel imports with nothing else of the project's on
the machine, checks a spec and keyword arguments, and its errors are the
documented ones."""

import os
import sys

import smpreflight

version, spec = sys.argv[1], sys.argv[2]
here = os.path.dirname(smpreflight.__file__)
assert os.path.dirname(smpreflight.library_path) == here, \
    smpreflight.library_path
assert smpreflight.__version__ == version, smpreflight.__version__
assert smpreflight.version() == version, smpreflight.version()
assert os.path.exists(os.path.join(here, "py.typed"))

rules = [f.rule for f in smpreflight.check_file(spec)]
assert "gpu-num-devices-mismatch" in rules, rules

fs = smpreflight.check_kwargs("HuggingFace", {
    "entry_point": "train.py", "instance_type": "ml.p3.2xlarge",
    "instance_count": 1, "transformers_version": "4.21.1",
    "pytorch_version": "1.11.0", "py_version": "py38"})
assert isinstance(fs, list), fs

try:
    smpreflight.check_kwargs("Huggingface", {})
except ValueError as e:
    assert "did you mean 'HuggingFace'?" in str(e), e
else:
    raise AssertionError("check_kwargs('Huggingface') did not raise")

try:
    smpreflight.check_kwargs("HuggingFace", [("entry_point", "train.py")])
except TypeError as e:
    assert "mapping" in str(e), e
else:
    raise AssertionError("check_kwargs() took a list")
print("ok")
