from transformers import Trainer, TrainingArguments


def main(model, data):
    Trainer(model=model, args=TrainingArguments("out"), train_dataset=data).train()
