import torch_xla.core.xla_model as xm
import torch_xla.distributed.parallel_loader as pl


def train(model, loader, optimizer):
    # MpDeviceLoader marks a step after every batch
    for batch in pl.MpDeviceLoader(loader, xm.xla_device()):
        model(**batch).loss.backward()
        optimizer.step()
