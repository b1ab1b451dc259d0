import torch
import torch_xla.core.xla_model as xm
import torch_xla.distributed.parallel_loader as pl
from torch.utils.data import DataLoader, DistributedSampler


def _mp_fn(index, dataset, model):
    torch.manual_seed(42)
    sampler = DistributedSampler(dataset, num_replicas=xm.xrt_world_size(), rank=xm.get_ordinal())
    loader = pl.MpDeviceLoader(DataLoader(dataset, batch_size=32, sampler=sampler), xm.xla_device())
    for batch in loader:
        model(**batch).loss.backward()
        xm.optimizer_step(model.optimizer)
