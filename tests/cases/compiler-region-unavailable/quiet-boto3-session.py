# The estimator's session is made for us-west-2 (boto3.Session's
# region_name): the Training Compiler container is published there.
import boto3
import sagemaker
from sagemaker.huggingface import HuggingFace, TrainingCompilerConfig

boto_session = boto3.Session(region_name="us-west-2")
session = sagemaker.Session(boto_session=boto_session)

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
    sagemaker_session=session,
)
estimator.fit()
