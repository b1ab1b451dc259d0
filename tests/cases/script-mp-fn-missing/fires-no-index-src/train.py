from transformers import Trainer, TrainingArguments


def main():
    Trainer(model=None, args=TrainingArguments("out")).train()


def _mp_fn():
    main()
