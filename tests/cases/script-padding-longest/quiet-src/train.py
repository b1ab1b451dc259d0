import torch
from transformers import AutoTokenizer, DataCollatorWithPadding

tokenizer = AutoTokenizer.from_pretrained("bert-base-uncased")
HELP = 'never use padding="longest" here'  # nor padding=True


def encode(batch, padding_strategy):
    # a variable is not judged; max_length pads statically
    a = tokenizer(batch["text"], padding="max_length", max_length=128)
    b = tokenizer(batch["text"], padding=padding_strategy)
    return a, b


conv = torch.nn.Conv2d(3, 8, 3, padding=True)
collator = DataCollatorWithPadding(tokenizer)  # inputs are already padded
