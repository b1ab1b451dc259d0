# the twin: assignments, and annotations of plain names stay quiet
from sagemaker.huggingface import HuggingFace, TrainingCompilerConfig

hyperparameters = {"epochs": 3, "train_batch_size": 24}
lr = 5e-5
epochs: int = 3
hyperparameters["learning_rate"] = lr
hyperparameters["per_device_train_batch_size"] = 24

estimator = HuggingFace(
    entry_point="train.py",
    instance_type="ml.p3.2xlarge",
    instance_count=1,
    transformers_version="4.21.1",
    pytorch_version="1.11.0",
    py_version="py38",
    hyperparameters=hyperparameters,
    compiler_config=TrainingCompilerConfig(),
    debugger_hook_config=False,
    disable_profiler=True,
)
