# Distributed AMP with the reduction too late: the step has already used
# each worker's own unscaled gradients.
import torch
import torch_xla.core.xla_model as xm
import torch_xla.distributed.parallel_loader as pl
from torch.utils.data import DataLoader, DistributedSampler


def _mp_fn(index):
    torch.manual_seed(0)
    device = xm.xla_device()
    model = torch.nn.Linear(128, 128).to(device)
    ds = torch.utils.data.TensorDataset(torch.randn(4096, 128))
    sampler = DistributedSampler(ds, num_replicas=xm.xrt_world_size(), rank=xm.get_ordinal())
    loader = pl.MpDeviceLoader(DataLoader(ds, sampler=sampler, batch_size=32), device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    scaler = torch.cuda.amp.GradScaler()
    for (x,) in loader:
        with torch.cuda.amp.autocast():
            loss = model(x).square().mean()
        scaler.scale(loss).backward()
        scaler.unscale_(optimizer)
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        scaler.step(optimizer)
        grads = [p.grad for p in model.parameters() if p.grad is not None]
        xm.all_reduce(xm.REDUCE_SUM, grads)
        scaler.update()
        xm.mark_step()
        loss_sum = xm.all_reduce(xm.REDUCE_SUM, loss)
