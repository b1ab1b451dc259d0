# Logging done the way the best practices ask: only every N steps, after
# the graph has been cut with mark_step.
import torch
import torch_xla.core.xla_model as xm

LOG_EVERY = 50


def train_loop(model, loader, optimizer, scheduler):
    device = xm.xla_device()
    model.to(device)
    for step, (x, y) in enumerate(loader):
        x, y = x.to(device), y.to(device)
        optimizer.zero_grad()
        loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
        scheduler.step()
        xm.mark_step()
        if (step + 1) % LOG_EVERY == 0:
            xm.master_print(f"step {step + 1} loss {loss.item():.4f}")
            print("lr", scheduler.get_last_lr()[0], loss.item())
    # once, after training: fine
    final = loss.item()
    return final
