# The hyperparameters are a list, not a mapping: at fit() the SDK's
# Framework.hyperparameters() calls .items() on them, an AttributeError.
from sagemaker.huggingface import HuggingFace, TrainingCompilerConfig

estimator = HuggingFace(
    entry_point="train.py",
    role="arn:aws:iam::111122223333:role/SageMakerRole",
    instance_type="ml.p3.2xlarge",
    instance_count=1,
    transformers_version="4.21.1",
    pytorch_version="1.11.0",
    py_version="py38",
    compiler_config=TrainingCompilerConfig(),
    debugger_hook_config=False,
    disable_profiler=True,
    hyperparameters=[("epochs", 3), ("optimizer", {"name": "adamw"})],
)
estimator.fit()
