from transformers import Trainer, TrainingArguments


def main():
    Trainer(model=None, args=TrainingArguments("out")).train()


def _mp_fn(index):
    # For xla_spawn (pytorchxla)
    main()


if __name__ == "__main__":
    main()
