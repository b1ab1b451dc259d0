"""Fine-tune a Hugging Face model for sequence classification with the
Trainer, ready for SageMaker Training Compiler.

The Trainer runs the PyTorch/XLA loop itself (device, mark_step, data
loaders); the script only keeps input shapes static and exposes _mp_fn
for the pytorchxla launcher.
"""
import argparse

from datasets import load_dataset
from transformers import (AutoModelForSequenceClassification, AutoTokenizer,
                          Trainer, TrainingArguments, set_seed)


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model_name_or_path", default="bert-base-uncased")
    parser.add_argument("--per_device_train_batch_size", type=int, default=24)
    parser.add_argument("--learning_rate", type=float, default=5e-5)
    parser.add_argument("--max_seq_length", type=int, default=512)
    parser.add_argument("--preprocessing_num_workers", type=int, default=8)
    args, _ = parser.parse_known_args()
    return args


def main():
    args = parse_args()
    set_seed(42)
    tokenizer = AutoTokenizer.from_pretrained(args.model_name_or_path)
    data = load_dataset("glue", "sst2", split="train")
    # static shapes: every batch padded to the same length (no recompiles)
    data = data.map(
        lambda b: tokenizer(b["sentence"], padding="max_length",
                            max_length=args.max_seq_length, truncation=True),
        batched=True,
        num_proc=args.preprocessing_num_workers,
    )
    model = AutoModelForSequenceClassification.from_pretrained(
        args.model_name_or_path, num_labels=2)
    training_args = TrainingArguments(
        output_dir="/opt/ml/model",
        per_device_train_batch_size=args.per_device_train_batch_size,
        learning_rate=args.learning_rate,
        logging_steps=100,
    )
    Trainer(model=model, args=training_args, train_dataset=data).train()


def _mp_fn(index):
    main()


if __name__ == "__main__":
    main()
