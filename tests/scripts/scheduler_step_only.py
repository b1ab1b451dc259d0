# xm.optimizer_step(..., barrier=True) marks the step itself; the
# scheduler's step() is no optimizer step.
import torch
import torch_xla.core.xla_model as xm
from transformers import get_linear_schedule_with_warmup


def run(model, loader, total_steps):
    device = xm.xla_device()
    model.to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-5)
    lr_scheduler = get_linear_schedule_with_warmup(optimizer, 100, total_steps)
    for batch in loader:
        loss = model(**{k: v.to(device) for k, v in batch.items()}).loss
        loss.backward()
        xm.optimizer_step(optimizer, barrier=True)
        lr_scheduler.step()
        optimizer.zero_grad()
