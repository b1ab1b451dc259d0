# Trainer-based fine-tuning launched with the pytorchxla distribution but
# written for a single process: the launcher finds no _mp_fn(index).
import os

from datasets import load_dataset
from transformers import AutoModelForMaskedLM, AutoTokenizer, DataCollatorForLanguageModeling
from transformers import Trainer, TrainingArguments


def main():
    tokenizer = AutoTokenizer.from_pretrained("roberta-base")
    ds = load_dataset("wikitext", "wikitext-103-raw-v1", split="train")
    ds = ds.map(
        lambda b: tokenizer(b["text"], padding="max_length", max_length=512, truncation=True),
        batched=True,
    )
    model = AutoModelForMaskedLM.from_pretrained("roberta-base")
    collator = DataCollatorForLanguageModeling(tokenizer, mlm_probability=0.15)
    trainer = Trainer(
        model=model,
        args=TrainingArguments(output_dir=os.environ["SM_MODEL_DIR"], seed=7),
        train_dataset=ds,
        data_collator=collator,
    )
    trainer.train()


if __name__ == "__main__":
    main()
