# Trainer fine-tuning that pads dynamically: once in the tokenizer and once
# through the default behaviour of DataCollatorWithPadding.
from datasets import load_dataset
from transformers import (AutoModelForSequenceClassification, AutoTokenizer,
                          DataCollatorWithPadding, Trainer, TrainingArguments)

tokenizer = AutoTokenizer.from_pretrained("distilbert-base-uncased")
data = load_dataset("imdb")


def tokenize(batch):
    return tokenizer(batch["text"], padding="longest", truncation=True)


def tokenize_eval(batch):
    return tokenizer(batch["text"], truncation=True, padding=True)


train = data["train"].map(tokenize, batched=True)
test = data["test"].map(tokenize_eval, batched=True)
collator = DataCollatorWithPadding(tokenizer=tokenizer)
model = AutoModelForSequenceClassification.from_pretrained("distilbert-base-uncased")
trainer = Trainer(model=model, args=TrainingArguments("out"), train_dataset=train,
                  eval_dataset=test, data_collator=collator)
trainer.train()
