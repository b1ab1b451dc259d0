# Clipping the scaled gradients: clip_grad_norm_ comes before unscale_.
import torch
import torch_xla.core.xla_model as xm
from torch.nn.utils import clip_grad_norm_


class Runner:
    def __init__(self, model, lr):
        self.device = xm.xla_device()
        self.model = model.to(self.device)
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
        self.scaler = torch.cuda.amp.GradScaler()

    def train_epoch(self, loader):
        for batch in loader:
            with torch.cuda.amp.autocast():
                loss = self.model(**batch).loss
            self.scaler.scale(loss).backward()
            clip_grad_norm_(self.model.parameters(), 1.0)
            self.scaler.unscale_(self.optimizer)
            self.scaler.step(self.optimizer)
            self.scaler.update()
            self.optimizer.zero_grad()
            xm.mark_step()


def clip_without_unscale(model, loader, optimizer):
    scaler = torch.cuda.amp.GradScaler()
    for batch in loader:
        scaler.scale(model(**batch).loss).backward()
        torch.nn.utils.clip_grad_value_(model.parameters(), 0.5)
        scaler.step(optimizer)
        scaler.update()
        xm.mark_step()
