"""Native and compiled jobs side by side; the batch grows, the learning rate does not."""
from sagemaker.pytorch import PyTorch, TrainingCompilerConfig

hyperparameters = {"epochs": 3, "batch_size": 32, "learning_rate": 0.001}

native = PyTorch(
    entry_point="train.py",
    framework_version="1.13.1",
    py_version="py39",
    instance_type="ml.g5.2xlarge",
    instance_count=1,
    hyperparameters=hyperparameters,
)

hyperparameters["batch_size"] *= 2  # the compiler fits twice the batch

compiled = PyTorch(
    entry_point="train.py",
    framework_version="1.13.1",
    py_version="py39",
    instance_type="ml.g5.2xlarge",
    instance_count=1,
    hyperparameters=hyperparameters,
    compiler_config=TrainingCompilerConfig(),
    debugger_hook_config=False,
    disable_profiler=True,
)
