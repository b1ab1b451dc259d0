import boto3

sm = boto3.client("sagemaker", region_name="us-east-1")
image = "763104351884.dkr.ecr.us-east-1.amazonaws.com/huggingface-pytorch-trcomp-training:1.11.0-transformers4.21.1-gpu-py38-cu113-ubuntu20.04"
request = {
    "TrainingJobName": "bert-trcomp",
    "AlgorithmSpecification": {"TrainingImage": image, "TrainingInputMode": "File"},
    "RoleArn": "arn:aws:iam::111122223333:role/SageMakerRole",
    "HyperParameters": {"epochs": 3, "sagemaker_training_compiler_enabled": "true", "sagemaker_program": "train.py"},
    "OutputDataConfig": {"S3OutputPath": "s3://bucket/out"},
    "ResourceConfig": {"InstanceType": "ml.p3.8xlarge", "InstanceCount": 1, "VolumeSizeInGB": 30},
    "StoppingCondition": {"MaxRuntimeInSeconds": 3600},
    "Environment": {"GPU_NUM_DEVICES": "8"},
}
response = sm.create_training_job(**request)
