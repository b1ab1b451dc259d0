import boto3

sm = boto3.client("sagemaker")
image = "763104351884.dkr.ecr.us-east-1.amazonaws.com/huggingface-pytorch-trcomp-training:1.11.0-transformers4.21.1-gpu-py38-cu113-ubuntu20.04"
tuning = {
    "HyperParameterTuningJobName": "bert-trcomp-tuning",
    "HyperParameterTuningJobConfig": {
        "Strategy": "Bayesian",
        "HyperParameterTuningJobObjective": {"Type": "Minimize", "MetricName": "eval_loss"},
        "ResourceLimits": {"MaxNumberOfTrainingJobs": 8, "MaxParallelTrainingJobs": 2},
        "ParameterRanges": {
            "IntegerParameterRanges": [
                {"Name": "per_device_train_batch_size", "MinValue": "32", "MaxValue": "64"},
            ],
        },
    },
    "TrainingJobDefinition": {
        "DefinitionName": "bert-p4d",
        "AlgorithmSpecification": {"TrainingImage": image, "TrainingInputMode": "File"},
        "RoleArn": "arn:aws:iam::111122223333:role/SageMakerRole",
        "StaticHyperParameters": {
            "sagemaker_training_compiler_enabled": "true",
            "sagemaker_pytorch_xla_multi_worker_enabled": "true",
            "model_name_or_path": "bert-base-uncased",
            "max_seq_length": "512",
            "preprocessing_num_workers": "96",
        },
        "OutputDataConfig": {"S3OutputPath": "s3://bucket/out"},
        "ResourceConfig": {"InstanceType": "ml.p4d.24xlarge", "InstanceCount": 1, "VolumeSizeInGB": 100},
        "StoppingCondition": {"MaxRuntimeInSeconds": 86400},
    },
}
sm.create_hyper_parameter_tuning_job(**tuning)
