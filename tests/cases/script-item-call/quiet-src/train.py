import torch_xla.core.xla_model as xm


def train(model, loader, optimizer):
    for step, batch in enumerate(loader):
        loss = model(**batch).loss
        loss.backward()
        optimizer.step()
        xm.mark_step()
        xm.add_step_closure(lambda: print(loss.item()))  # after the step
        if step % 100 == 0:
            print(f"step {step}", loss.item())  # periodic: fine
    for batch in loader:  # an evaluation loop: no update
        print(model(**batch).loss.item())
    return loss.item()  # once, after training
