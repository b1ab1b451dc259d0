# create_training_job(**r, **r): Python raises TypeError, no job is made
import boto3

request = {
    "TrainingJobName": "bert-trcomp",
    "RoleArn": "arn:aws:iam::111122223333:role/SageMakerRole",
    "AlgorithmSpecification": {
        "TrainingImage": "763104351884.dkr.ecr.us-east-1.amazonaws.com/pytorch-trcomp-training:1.13.1-gpu-py39-cu117-ubuntu20.04-sagemaker",
        "TrainingInputMode": "File",
    },
    "ResourceConfig": {"InstanceType": "ml.p3.2xlarge", "InstanceCount": 1, "VolumeSizeInGB": 30},
    "OutputDataConfig": {"S3OutputPath": "s3://bucket/out"},
    "StoppingCondition": {"MaxRuntimeInSeconds": 3600},
    "HyperParameters": {"sagemaker_training_compiler_enabled": "true"},
    "UnknownMember": 1,
}
sm = boto3.client("sagemaker")
sm.create_training_job(**request, **request)
