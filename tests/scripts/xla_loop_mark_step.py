# A hand-written PyTorch/XLA training loop on one GPU, following the AWS
# guide for scripts that do not use the Trainer: the XLA device, static
# padding, xm.mark_step() after every update and xm.save for checkpoints.
import torch
import torch_xla.core.xla_model as xm
from torch.utils.data import DataLoader
from transformers import AutoModelForSequenceClassification, AutoTokenizer


def train(args, dataset):
    device = xm.xla_device()
    tokenizer = AutoTokenizer.from_pretrained(args.model)
    model = AutoModelForSequenceClassification.from_pretrained(args.model).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
    loader = DataLoader(dataset, batch_size=args.batch_size, shuffle=True, drop_last=True)
    model.train()
    for epoch in range(args.epochs):
        for step, batch in enumerate(loader):
            enc = tokenizer(batch["text"], padding="max_length", max_length=128,
                            truncation=True, return_tensors="pt")
            enc = {k: v.to(device) for k, v in enc.items()}
            labels = batch["label"].to(device)
            optimizer.zero_grad()
            outputs = model(**enc, labels=labels)
            loss = outputs.loss
            loss.backward()
            optimizer.step()
            xm.mark_step()
        xm.master_print(f"epoch {epoch} done")
    xm.save(model.state_dict(), "/opt/ml/model/model.pt")
