# Single-GPU AMP in the order of the troubleshooting guide: scaled
# backward, unscale_, clip, step, update, then mark_step.
import torch
import torch_xla.core.xla_model as xm
from torch.cuda.amp import GradScaler, autocast


def fit(model, loader, max_norm=1.0):
    device = xm.xla_device()
    model.to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    scaler = GradScaler()
    for batch in loader:
        batch = {k: v.to(device) for k, v in batch.items()}
        optimizer.zero_grad()
        with autocast():
            loss = model(**batch).loss
        scaler.scale(loss).backward()
        scaler.unscale_(optimizer)
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        scaler.step(optimizer)
        scaler.update()
        xm.mark_step()
