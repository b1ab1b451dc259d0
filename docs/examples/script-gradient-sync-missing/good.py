import torch
import torch_xla.core.xla_model as xm
import torch_xla.distributed.parallel_loader as pl
from torch.utils.data import DataLoader, DistributedSampler


def _mp_fn(index, dataset, model):
    torch.manual_seed(0)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    sampler = DistributedSampler(dataset, num_replicas=xm.xrt_world_size(), rank=xm.get_ordinal())
    for batch in pl.MpDeviceLoader(DataLoader(dataset, sampler=sampler), xm.xla_device()):
        model(**batch).loss.backward()
        xm.optimizer_step(optimizer)
        optimizer.zero_grad()
