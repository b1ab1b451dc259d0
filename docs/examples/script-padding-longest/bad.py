from transformers import AutoTokenizer

tokenizer = AutoTokenizer.from_pretrained("bert-base-uncased")


def encode(batch):
    return tokenizer(batch["text"], padding="longest", truncation=True)
