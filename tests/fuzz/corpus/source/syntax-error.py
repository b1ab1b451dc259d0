from sagemaker.huggingface import HuggingFace

estimator = HuggingFace(
    entry_point="train.py",
    instance_type="ml.p4de.24xlarge",
    hyperparameters={"epochs": 3,
)
