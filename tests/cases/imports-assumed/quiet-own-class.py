# a file with its own PyTorch class: not the SDK's, no job
class PyTorch:
    def __init__(self, **kwargs):
        self.kwargs = kwargs


job = PyTorch(
    entry_point="train.py",
    instance_type="ml.p3.2xlarge",
    framework_version="1.13.1",
    py_version="py39",
)
