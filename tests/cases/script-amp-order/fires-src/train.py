import torch
import torch_xla.core.xla_model as xm
from torch.cuda.amp import GradScaler, autocast


def train(model, loader, optimizer):
    scaler = GradScaler()
    for batch in loader:
        with autocast():
            loss = model(**batch).loss
        scaler.scale(loss).backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        scaler.unscale_(optimizer)
        scaler.step(optimizer)
        scaler.update()
        xm.mark_step()
