# The real training script of a launcher-era job (PyTorch 1.10): the entry
# point starts torch_xla.distributed.sm_dist, which runs this file in one
# process per GPU. Each process steps its own optimizer.
import argparse

import torch
import torch_xla.core.xla_model as xm
import torch_xla.distributed.parallel_loader as pl
from torch.utils.data import DataLoader
from torch.utils.data.distributed import DistributedSampler


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    args = parser.parse_args()
    torch.manual_seed(42)
    device = xm.xla_device()
    model = torch.nn.Linear(64, 64).to(device)
    ds = torch.utils.data.TensorDataset(torch.randn(2048, 64))
    sampler = DistributedSampler(ds, num_replicas=xm.xrt_world_size(), rank=xm.get_ordinal())
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(args.epochs):
        for (x,) in pl.MpDeviceLoader(DataLoader(ds, sampler=sampler, batch_size=64), device):
            optimizer.zero_grad()
            model(x).sum().backward()
            optimizer.step()


if __name__ == "__main__":
    main()
