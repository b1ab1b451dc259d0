from sagemaker.pytorch import PyTorch

est = PyTorch(
    entry_point="train.py",
    framework_version="1.13.1",
    py_version="py39",
    instance_type="ml.m5.large",
    instance_count=1,
    role="arn:aws:iam::111122223333:role/sm",
)
est.fit()
