# a snippet as the documentation writes it: no imports
pytorch_estimator = PyTorch(
    entry_point="train.py",
    instance_type="ml.p3.2xlarge",
    instance_count=1,
    framework_version="1.13.1",
    py_version="py39",
    compiler_config=TrainingCompilerConfig(),
    debugger_hook_config=False,
    disable_profiler=True,
)
