# Values the launcher only knows when it runs: nothing is guessed.
import os
import sys

import sagemaker
from sagemaker.huggingface import HuggingFace, TrainingCompilerConfig

role = sagemaker.get_execution_role()
instance_type = os.environ.get("INSTANCE_TYPE", "ml.p3.2xlarge")
count = int(sys.argv[1])
if len(sys.argv) > 2:
    version = "4.11.0"
else:
    version = "4.21.1"


def hyperparameters_for(model):
    return {"model_name_or_path": model}


estimator = HuggingFace(
    entry_point="train.py",
    role=role,
    instance_type=instance_type,
    instance_count=count,
    transformers_version=version,
    pytorch_version="1.11.0",
    py_version="py38",
    hyperparameters=hyperparameters_for("bert-base-uncased"),
    compiler_config=TrainingCompilerConfig(),
    environment={"GPU_NUM_DEVICES": os.environ["GPUS"]},
    debugger_hook_config=False,
    disable_profiler=True,
    output_path=f"s3://{os.environ['BUCKET']}/out",
)
estimator.fit()
