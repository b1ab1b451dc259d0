# Distributed AMP as in the AWS guide: gradients are gathered with
# _fetch_gradients and all_reduce'd before unscale_, clip and step.
import torch
import torch_xla.core.xla_model as xm
import torch_xla.distributed.parallel_loader as pl
from torch.cuda.amp import GradScaler, autocast
from torch.utils.data import DataLoader
from torch.utils.data.distributed import DistributedSampler
from transformers import set_seed


def _mp_fn(index, args):
    set_seed(args.seed)
    device = xm.xla_device()
    model = args.model_cls.from_pretrained(args.model_name).to(device)
    sampler = DistributedSampler(args.dataset, num_replicas=xm.xrt_world_size(),
                                 rank=xm.get_ordinal())
    loader = pl.MpDeviceLoader(DataLoader(args.dataset, sampler=sampler,
                                          batch_size=args.batch_size), device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
    scaler = GradScaler()
    for batch in loader:
        optimizer.zero_grad()
        with autocast():
            loss = model(**batch).loss
        scaler.scale(loss).backward()
        gradients = xm._fetch_gradients(optimizer)
        xm.all_reduce("sum", gradients, scale=1.0 / xm.xrt_world_size())
        scaler.unscale_(optimizer)
        torch.nn.utils.clip_grad_norm_(model.parameters(), args.max_grad_norm)
        scaler.step(optimizer)
        scaler.update()
        xm.mark_step()
