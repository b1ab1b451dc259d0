# The estimator's session is made for cn-north-1 (boto3.Session's
# region_name): the SDK's image_uris.retrieve has no Training Compiler
# container there ("Unsupported region").
import boto3
import sagemaker
from sagemaker.huggingface import HuggingFace, TrainingCompilerConfig

boto_session = boto3.Session(region_name="cn-north-1")
session = sagemaker.Session(boto_session=boto_session)

estimator = HuggingFace(
    entry_point="train.py",
    role="arn:aws-cn:iam::111122223333:role/SageMakerRole",
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
