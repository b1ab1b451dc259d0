# Mapping and list hyperparameter values are sent as JSON text: the SDK's
# EstimatorBase._json_encode_hyperparameters json.dumps() every value of
# a framework estimator (and of a generic Estimator with a source_dir).
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
    hyperparameters={
        "epochs": 3,
        "optimizer": {"name": "adamw", "betas": [0.9, 0.999]},
        "layers_to_freeze": [0, 1, 2],
    },
)
estimator.fit()
