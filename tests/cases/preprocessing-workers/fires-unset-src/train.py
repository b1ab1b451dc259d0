import argparse

from transformers import AutoModelForSequenceClassification, Trainer, TrainingArguments


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model_name_or_path", type=str)
    parser.add_argument("--per_device_train_batch_size", type=int, default=8)
    parser.add_argument("--preprocessing_num_workers", type=int, default=None)
    args = parser.parse_args()
    model = AutoModelForSequenceClassification.from_pretrained(args.model_name_or_path)
    trainer = Trainer(model=model, args=TrainingArguments(output_dir="/opt/ml/model"))
    trainer.train()


if __name__ == "__main__":
    main()
