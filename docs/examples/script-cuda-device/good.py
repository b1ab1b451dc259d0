import torch
import torch_xla.core.xla_model as xm

device = xm.xla_device()
mask = torch.ones(8, 128, device=device)
