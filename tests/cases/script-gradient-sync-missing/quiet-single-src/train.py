import torch
import torch_xla.core.xla_model as xm

# one GPU: nothing to synchronize
model = torch.nn.Linear(8, 8).to(xm.xla_device())
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for _ in range(10):
    model(torch.ones(8, device=xm.xla_device())).sum().backward()
    optimizer.step()
    xm.mark_step()
