# PyTorch from another module and a star import: not taken for the SDK's
from mylab.launchers import PyTorch
from mylab.configs import *

job = PyTorch(
    entry_point="train.py",
    instance_type="ml.p3.2xlarge",
    framework_version="1.13.1",
    py_version="py39",
    compiler_config=TrainingCompilerConfig(),
)
