import torch
import torch_xla.core.xla_model as xm


def train(model, loader):
    device = xm.xla_device()
    optimizer = torch.optim.AdamW(model.parameters(), lr=5e-5)
    for batch in loader:
        loss = model(**{k: v.to(device) for k, v in batch.items()}).loss
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
