# TrainingCompilerConfig is imported but never passed: the job runs
# without the compiler
from sagemaker.huggingface import HuggingFace, TrainingCompilerConfig

est = HuggingFace(
    entry_point="train.py",
    transformers_version="4.21.1",
    pytorch_version="1.11.0",
    py_version="py38",
    instance_type="ml.p3.2xlarge",
    instance_count=1,
    role="arn:aws:iam::111122223333:role/sm",
)
