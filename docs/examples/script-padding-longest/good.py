from transformers import AutoTokenizer

tokenizer = AutoTokenizer.from_pretrained("bert-base-uncased")


def encode(batch):
    return tokenizer(batch["text"], padding="max_length", max_length=128, truncation=True)
