import torch
import torch_xla.core.xla_model as xm


def train(model, loader):
    optimizer = torch.optim.AdamW(model.parameters(), lr=5e-5)
    for batch in loader:
        model(**batch).loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        xm.mark_step()
