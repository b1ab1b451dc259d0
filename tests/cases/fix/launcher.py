"""A launcher: literals are fixed where they are written, computed values stay."""
from sagemaker.huggingface import HuggingFace, TrainingCompilerConfig

BATCH = 2  # a plain literal the call uses
base_lr = 5e-5
hyperparameters = {"model_name_or_path": "bert-base-uncased", "per_device_train_batch_size": BATCH, "learning_rate": base_lr / 32 * BATCH}

estimator = HuggingFace(
    entry_point='train.py',
    instance_type='ml.p3.8xlarge',
    instance_count=1,
    transformers_version='4.21.1',
    pytorch_version='1.11.0',
    py_version='py38',
    hyperparameters=hyperparameters,
    compiler_config=TrainingCompilerConfig(debug=True),
    debugger_hook_config=False,
    disable_profiler=True,
)
