"""Arguments computed the way AWS's examples compute them."""
from sagemaker.huggingface import HuggingFace, TrainingCompilerConfig

MODEL = "bert-base-uncased"
GPUS = 4
BATCH = 6 * 2
version = "4." + str(21) + ".1"
hyperparameters = dict(epochs=3, model_name_or_path=MODEL)
hyperparameters.update({"per_device_train_batch_size": BATCH})
hyperparameters["learning_rate"] = round(float("5e-5") / 32 * BATCH, 8)
hyperparameters["logging_steps"] = 10 // 5
environment = {"GPU_NUM_DEVICES": str(GPUS * 2)}

estimator = HuggingFace(
    entry_point="train.py",
    base_job_name=f"{MODEL.split('-')[0]}-trcomp-{GPUS}gpu",
    instance_type="ml.p3.8xlarge",
    instance_count=1,
    transformers_version=version,
    pytorch_version="1.11.0",
    py_version="py38",
    hyperparameters=hyperparameters,
    environment=environment,
    compiler_config=TrainingCompilerConfig(enabled=True, debug=False),
    distribution={"pytorchxla": {"enabled": 1 > 0}},
    debugger_hook_config=False,
    disable_profiler=True,
)
