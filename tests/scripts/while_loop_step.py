# A step-counted while loop; the optimizer is called `opt`.
import torch
import torch_xla.core.xla_model as xm

device = xm.xla_device()
model = torch.nn.Linear(512, 512).to(device)
opt = torch.optim.Adam(model.parameters())
data = iter(range(1000))
global_step = 0
while global_step < 1000:
    batch = torch.randn(64, 512, device=device)
    loss = model(batch).pow(2).mean()
    loss.backward()
    opt.step()
    opt.zero_grad()
    global_step += 1
