import torch_xla.core.xla_model as xm
import torch_xla.distributed.parallel_loader as pl
from torch.utils.data import DataLoader, DistributedSampler
from transformers import AutoModel, set_seed


def _mp_fn(index, dataset):
    set_seed(42)  # before the model: every worker starts alike
    model = AutoModel.from_pretrained("bert-base-uncased").to(xm.xla_device())
    sampler = DistributedSampler(dataset, num_replicas=xm.xrt_world_size(), rank=xm.get_ordinal())
    for batch in pl.MpDeviceLoader(DataLoader(dataset, sampler=sampler), xm.xla_device()):
        model(**batch).last_hidden_state.sum().backward()
        xm.optimizer_step(model.optimizer)
