from transformers import DataCollatorWithPadding, Trainer

# no padding in the tokenizer: the collator pads each batch to its longest
collator = DataCollatorWithPadding(tokenizer=tokenizer)
trainer = Trainer(model=model, data_collator=collator, train_dataset=ds)
