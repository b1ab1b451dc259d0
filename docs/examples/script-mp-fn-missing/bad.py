from transformers import Trainer, TrainingArguments


def main():
    Trainer(model=None, args=TrainingArguments("/opt/ml/model")).train()


if __name__ == "__main__":
    main()
