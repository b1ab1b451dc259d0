# The launcher sets the region boto3 reads (AWS_DEFAULT_REGION) before the
# estimator makes its default session: cn-northwest-1, where the SDK has
# no Training Compiler container.
import os

from sagemaker.pytorch import PyTorch, TrainingCompilerConfig

os.environ["AWS_DEFAULT_REGION"] = "cn-northwest-1"

estimator = PyTorch(
    entry_point="train.py",
    role="arn:aws-cn:iam::111122223333:role/SageMakerRole",
    instance_type="ml.p3.2xlarge",
    instance_count=1,
    framework_version="1.13.1",
    py_version="py39",
    compiler_config=TrainingCompilerConfig(),
    debugger_hook_config=False,
    disable_profiler=True,
)
estimator.fit()
