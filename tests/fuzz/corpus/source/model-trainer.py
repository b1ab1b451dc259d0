from sagemaker.modules.train import ModelTrainer
from sagemaker.modules.configs import Compute, SourceCode

trainer = ModelTrainer(
    training_image="763104351884.dkr.ecr.us-east-1.amazonaws.com/pytorch-trcomp-training:1.13.1-gpu-py39-cu117-ubuntu20.04-sagemaker",
    source_code=SourceCode(source_dir="scripts", entry_script="train.py"),
    compute=Compute(instance_type="ml.p3.2xlarge", instance_count=1),
    hyperparameters={"epochs": "3"},
)
trainer.train()
