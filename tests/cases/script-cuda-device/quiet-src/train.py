import torch
import torch_xla.core.xla_model as xm

device = xm.xla_device()
print(torch.cuda.is_available(), torch.cuda.device_count())
with torch.cuda.amp.autocast():
    x = torch.ones(2, device=device).to(device)
note = "do not call model.cuda() or torch.device('cuda')"
