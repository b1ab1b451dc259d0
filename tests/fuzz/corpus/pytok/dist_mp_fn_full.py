# Distributed training with PyTorch/XLA done right: _mp_fn, a constant
# seed, DistributedSampler + MpDeviceLoader and xm.optimizer_step.
import torch
import torch_xla.core.xla_model as xm
import torch_xla.distributed.parallel_loader as pl
import torch_xla.distributed.xla_multiprocessing as xmp
from torch.utils.data import DataLoader
from torch.utils.data.distributed import DistributedSampler
from transformers import AutoModelForCausalLM


def train(index, args, dataset):
    torch.manual_seed(args.seed)
    device = xm.xla_device()
    model = AutoModelForCausalLM.from_pretrained("gpt2").to(device)
    sampler = DistributedSampler(
        dataset,
        num_replicas=xm.xrt_world_size(),
        rank=xm.get_ordinal(),
        shuffle=True,
    )
    loader = DataLoader(dataset, batch_size=args.batch_size, sampler=sampler, drop_last=True)
    device_loader = pl.MpDeviceLoader(loader, device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr * xm.xrt_world_size())
    for epoch in range(args.epochs):
        sampler.set_epoch(epoch)
        for step, batch in enumerate(device_loader):
            optimizer.zero_grad()
            loss = model(**batch).loss
            loss.backward()
            xm.optimizer_step(optimizer)
            if step % args.log_steps == 0:
                xm.add_step_closure(lambda l=loss: print(l.item()))
    if xm.is_master_ordinal():
        xm.save(model.state_dict(), "/opt/ml/model/model.pt")


def _mp_fn(index, args=None, dataset=None):
    train(index, args, dataset)


if __name__ == "__main__":
    xmp.spawn(_mp_fn, args=())
