from transformers import Trainer, TrainingArguments


def main():
    Trainer(model=None, args=TrainingArguments("out")).train()


if __name__ == "__main__":
    main()
