import torch
import torch_xla.core.xla_model as xm
import torch_xla.distributed.parallel_loader as pl
from torch.utils.data import DataLoader, DistributedSampler


def _mp_fn(index, dataset):
    torch.manual_seed(42)
    model = torch.nn.Linear(16, 16).to(xm.xla_device())
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    sampler = DistributedSampler(dataset, num_replicas=xm.xrt_world_size(), rank=xm.get_ordinal())
    for (x,) in pl.MpDeviceLoader(DataLoader(dataset, sampler=sampler), xm.xla_device()):
        model(x).sum().backward()
        xm.optimizer_step(optimizer)
