"""Fine-tune a sequence classifier with the Hugging Face Trainer.

Mirrors transformers' examples/pytorch/text-classification/run_glue.py as
adapted for SageMaker Training Compiler: static padding, a constant seed
and the _mp_fn entry point for the pytorchxla launcher.
"""
import argparse
import logging
import os
import sys

from datasets import load_dataset
from transformers import (
    AutoModelForSequenceClassification,
    AutoTokenizer,
    Trainer,
    TrainingArguments,
    set_seed,
)

logger = logging.getLogger(__name__)


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model_name_or_path", type=str, default="bert-base-uncased")
    parser.add_argument("--per_device_train_batch_size", type=int, default=24)
    parser.add_argument("--learning_rate", type=float, default=5e-5)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--max_length", type=int, default=128)
    parser.add_argument("--output_dir", type=str, default=os.environ.get("SM_MODEL_DIR", "/opt/ml/model"))
    args, _ = parser.parse_known_args()
    return args


def main():
    args = parse_args()
    set_seed(42)
    tokenizer = AutoTokenizer.from_pretrained(args.model_name_or_path)
    raw = load_dataset("glue", "sst2")

    def preprocess(examples):
        # static shapes: every batch has the same sequence length
        return tokenizer(
            examples["sentence"],
            padding="max_length",
            max_length=args.max_length,
            truncation=True,
        )

    encoded = raw.map(preprocess, batched=True, num_proc=os.cpu_count())
    model = AutoModelForSequenceClassification.from_pretrained(
        args.model_name_or_path, num_labels=2
    )
    training_args = TrainingArguments(
        output_dir=args.output_dir,
        per_device_train_batch_size=args.per_device_train_batch_size,
        learning_rate=args.learning_rate,
        num_train_epochs=args.epochs,
        logging_steps=50,
        save_strategy="epoch",
    )
    trainer = Trainer(
        model=model,
        args=training_args,
        train_dataset=encoded["train"],
        eval_dataset=encoded["validation"],
        tokenizer=tokenizer,
    )
    result = trainer.train()
    trainer.save_model()
    metrics = trainer.evaluate()
    logger.info("train loss %s, eval %s", result.training_loss, metrics)


def _mp_fn(index):
    # For xla_spawn (TPUs/GPUs with the pytorchxla distribution)
    main()


if __name__ == "__main__":
    main()
