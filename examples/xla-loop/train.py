"""Fine-tune BERT on SST-2 with PyTorch/XLA, one process per GPU.

Launched by the pytorchxla distribution, which calls _mp_fn(index) in
every worker process.
"""
import argparse
import os

import torch
import torch_xla.core.xla_model as xm
import torch_xla.distributed.parallel_loader as pl
from datasets import load_dataset
from torch.utils.data import DataLoader
from torch.utils.data.distributed import DistributedSampler
from transformers import AutoModelForSequenceClassification, AutoTokenizer


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model_name_or_path", default="bert-base-uncased")
    parser.add_argument("--per_device_train_batch_size", type=int, default=24)
    parser.add_argument("--learning_rate", type=float, default=5e-5)
    parser.add_argument("--epochs", type=int, default=3)
    args, _ = parser.parse_known_args()
    return args


def train(args):
    torch.manual_seed(42)
    device = xm.xla_device()
    tokenizer = AutoTokenizer.from_pretrained(args.model_name_or_path)
    data = load_dataset("glue", "sst2", split="train")
    data = data.map(
        lambda b: tokenizer(b["sentence"], padding="longest", truncation=True),
        batched=True,
    )
    data.set_format("torch", columns=["input_ids", "attention_mask", "label"])
    sampler = DistributedSampler(
        data, num_replicas=xm.xrt_world_size(), rank=xm.get_ordinal()
    )
    loader = DataLoader(data, batch_size=args.per_device_train_batch_size,
                        sampler=sampler)
    model = AutoModelForSequenceClassification.from_pretrained(
        args.model_name_or_path, num_labels=2
    ).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.learning_rate)
    for epoch in range(args.epochs):
        for batch in pl.MpDeviceLoader(loader, device):
            optimizer.zero_grad()
            outputs = model(input_ids=batch["input_ids"],
                            attention_mask=batch["attention_mask"],
                            labels=batch["label"])
            outputs.loss.backward()
            xm.optimizer_step(optimizer)
            xm.master_print("loss", outputs.loss.item())
        torch.save(model.state_dict(), os.path.join("/opt/ml/model", "model.pt"))


def _mp_fn(index):
    train(parse_args())


if __name__ == "__main__":
    _mp_fn(0)
