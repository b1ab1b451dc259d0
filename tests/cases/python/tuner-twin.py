from sagemaker.huggingface import HuggingFace, TrainingCompilerConfig
from sagemaker.tuner import CategoricalParameter, ContinuousParameter, HyperparameterTuner, IntegerParameter

estimator = HuggingFace(
    entry_point="train.py",
    instance_type="ml.p3.2xlarge",
    instance_count=1,
    transformers_version="4.11.0",
    pytorch_version="1.9.0",
    py_version="py38",
    compiler_config=TrainingCompilerConfig(),
    debugger_hook_config=False,
    disable_profiler=True,
    hyperparameters={
        "model_name_or_path": "bert-base-uncased",
        "max_seq_length": 512,
        "preprocessing_num_workers": 8,
    },
)
tuner = HyperparameterTuner(
    estimator,
    "eval_loss",
    hyperparameter_ranges={
        "per_device_train_batch_size": IntegerParameter(8, 24),
        "learning_rate": ContinuousParameter(1e-5, 1e-4),
        "warmup_steps": CategoricalParameter([0, 100, 500]),
    },
    objective_type="Minimize",
    max_jobs=8,
)
tuner.fit()
