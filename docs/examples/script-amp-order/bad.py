import torch
import torch_xla.core.xla_model as xm
import torch_xla.distributed.parallel_loader as pl
from torch.utils.data import DataLoader, DistributedSampler


def _mp_fn(index, dataset, model, optimizer):
    torch.manual_seed(0)
    scaler = torch.cuda.amp.GradScaler()
    sampler = DistributedSampler(dataset, num_replicas=xm.xrt_world_size(), rank=xm.get_ordinal())
    for batch in pl.MpDeviceLoader(DataLoader(dataset, sampler=sampler), xm.xla_device()):
        scaler.scale(model(**batch).loss).backward()
        scaler.step(optimizer)
        xm.all_reduce("sum", xm._fetch_gradients(optimizer))
        scaler.update()
        xm.mark_step()
