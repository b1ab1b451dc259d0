"""Causal language modelling (GPT-2) with the Hugging Face Trainer on
SageMaker Training Compiler; _mp_fn is the pytorchxla entry point."""
import argparse

from datasets import load_dataset
from transformers import (AutoModelForCausalLM, AutoTokenizer, Trainer,
                          TrainingArguments, default_data_collator, set_seed)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model_name_or_path", default="gpt2")
    parser.add_argument("--per_device_train_batch_size", type=int, default=24)
    parser.add_argument("--learning_rate", type=float, default=6e-5)
    parser.add_argument("--block_size", type=int, default=512)
    args, _ = parser.parse_known_args()

    set_seed(42)
    tokenizer = AutoTokenizer.from_pretrained(args.model_name_or_path)
    tokenizer.pad_token = tokenizer.eos_token
    raw = load_dataset("wikitext", "wikitext-103-v1", split="train")
    data = raw.map(
        lambda b: tokenizer(b["text"], padding="max_length",
                            max_length=args.block_size, truncation=True),
        batched=True, remove_columns=["text"])
    data = data.map(lambda b: {"labels": b["input_ids"]}, batched=True)
    model = AutoModelForCausalLM.from_pretrained(args.model_name_or_path)
    training_args = TrainingArguments(
        output_dir="/opt/ml/model",
        per_device_train_batch_size=args.per_device_train_batch_size,
        learning_rate=args.learning_rate,
        logging_steps=100,
    )
    Trainer(model=model, args=training_args, train_dataset=data,
            data_collator=default_data_collator).train()


def _mp_fn(index):
    main()


if __name__ == "__main__":
    main()
