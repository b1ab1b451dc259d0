# A seed that differs per worker: every replica starts from other weights.
import torch
import torch_xla.core.xla_model as xm
import torch_xla.distributed.parallel_loader as pl
from torch.utils.data import DataLoader, DistributedSampler


def _mp_fn(index):
    torch.manual_seed(1000 + xm.get_ordinal())
    device = xm.xla_device()
    model = torch.nn.Linear(32, 32).to(device)
    ds = torch.utils.data.TensorDataset(torch.randn(512, 32))
    sampler = DistributedSampler(ds, num_replicas=xm.xrt_world_size(), rank=xm.get_ordinal())
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for (x,) in pl.MpDeviceLoader(DataLoader(ds, sampler=sampler, batch_size=8), device):
        loss = model(x).sum()
        loss.backward()
        xm.optimizer_step(optimizer)
        optimizer.zero_grad()
