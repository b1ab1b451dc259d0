from transformers import Trainer, TrainingArguments


def main(model, data):
    Trainer(model=model, args=TrainingArguments("/opt/ml/model"), train_dataset=data).train()
