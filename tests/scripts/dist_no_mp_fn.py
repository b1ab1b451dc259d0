# Distributed job whose script was never adapted: it starts training at
# import through main(), and the launcher has no _mp_fn to call.
import torch
import torch_xla.core.xla_model as xm
import torch_xla.distributed.parallel_loader as pl
from torch.utils.data import DataLoader, DistributedSampler


def main():
    torch.manual_seed(1234)
    device = xm.xla_device()
    model = torch.nn.Linear(10, 2).to(device)
    ds = torch.utils.data.TensorDataset(torch.randn(1000, 10), torch.randint(0, 2, (1000,)))
    sampler = DistributedSampler(ds, num_replicas=xm.xrt_world_size(), rank=xm.get_ordinal())
    loader = pl.MpDeviceLoader(DataLoader(ds, batch_size=16, sampler=sampler), device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        xm.optimizer_step(optimizer)


if __name__ == "__main__":
    main()
