"""Aliased imports, as launchers and notebooks write them."""
import sagemaker.huggingface as hf
from sagemaker.pytorch import PyTorch as PT
from sagemaker.pytorch import TrainingCompilerConfig as TCC

hf_estimator = hf.HuggingFace(
    entry_point="train.py",
    instance_type="ml.p4de.24xlarge",
    instance_count=1,
    transformers_version="4.21.1",
    pytorch_version="1.11.0",
    py_version="py38",
    compiler_config=hf.TrainingCompilerConfig(),
    distribution={"pytorchxla": {"enabled": True}},
    debugger_hook_config=False,
    disable_profiler=True,
)

pt_estimator = PT(
    entry_point="train.py",
    framework_version="1.13.1",
    py_version="py39",
    instance_type="ml.p3.16xlarge",
    instance_count=1,
    compiler_config=TCC(),
    distribution={"torchxla": {"enabled": True}},
    debugger_hook_config=False,
    disable_profiler=True,
)
