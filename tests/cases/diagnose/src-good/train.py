import argparse

import torch
import torch_xla.core.xla_model as xm
from datasets import load_dataset
from transformers import AutoModelForSequenceClassification, AutoTokenizer


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model_name_or_path", type=str)
    parser.add_argument("--per_device_train_batch_size", type=int, default=24)
    parser.add_argument("--learning_rate", type=float, default=5e-5)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--max_seq_length", type=int, default=128)
    args, _ = parser.parse_known_args()

    device = xm.xla_device()
    tokenizer = AutoTokenizer.from_pretrained(args.model_name_or_path)
    model = AutoModelForSequenceClassification.from_pretrained(
        args.model_name_or_path, num_labels=2
    ).to(device)
    data = load_dataset("glue", "sst2", split="train").map(
        lambda b: tokenizer(
            b["sentence"],
            padding="max_length",
            truncation=True,
            max_length=args.max_seq_length,
        ),
        batched=True,
    )
    data.set_format("torch", columns=["input_ids", "attention_mask", "label"])
    loader = torch.utils.data.DataLoader(
        data, batch_size=args.per_device_train_batch_size, drop_last=True
    )
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.learning_rate)
    for epoch in range(args.epochs):
        for batch in loader:
            batch = {k: v.to(device) for k, v in batch.items()}
            loss = model(
                input_ids=batch["input_ids"],
                attention_mask=batch["attention_mask"],
                labels=batch["label"],
            ).loss
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
            xm.mark_step()
    xm.save(model.state_dict(), "/opt/ml/model/model.pt")


if __name__ == "__main__":
    main()
