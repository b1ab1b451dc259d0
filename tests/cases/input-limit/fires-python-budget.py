# a list doubled 18 times before the job: the evaluation runs out of its
# budget, which is a finding at that statement, never "no training job"
from sagemaker.pytorch import PyTorch, TrainingCompilerConfig

l = [1, 2, 3, 4, 5, 6, 7, 8]
l = l + l
l = l + l
l = l + l
l = l + l
l = l + l
l = l + l
l = l + l
l = l + l
l = l + l
l = l + l
l = l + l
l = l + l
l = l + l
l = l + l
l = l + l
l = l + l
l = l + l
l = l + l
est = PyTorch(
    entry_point="train.py",
    instance_type="ml.p3.2xlarge",
    instance_count=1,
    framework_version="1.13.1",
    py_version="py39",
    compiler_config=TrainingCompilerConfig(),
)
