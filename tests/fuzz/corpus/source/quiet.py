from sagemaker.pytorch import PyTorch, TrainingCompilerConfig

estimator = PyTorch(
    entry_point="train.py",
    framework_version="1.13.1",
    py_version="py39",
    instance_type="ml.p3.2xlarge",
    instance_count=1,
    compiler_config=TrainingCompilerConfig(),
    debugger_hook_config=False,
    disable_profiler=True,
)
