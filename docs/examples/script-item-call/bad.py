import torch_xla.core.xla_model as xm


def train(model, loader, optimizer):
    total = 0.0
    for batch in loader:
        loss = model(**batch).loss
        loss.backward()
        optimizer.step()
        xm.mark_step()
        total += loss.detach().item()
    return total
