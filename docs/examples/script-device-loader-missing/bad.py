import torch
import torch_xla.core.xla_model as xm
from torch.utils.data import DataLoader


def _mp_fn(index, dataset, model):
    torch.manual_seed(42)
    loader = DataLoader(dataset, batch_size=32, shuffle=True)
    for batch in loader:
        model(**batch).loss.backward()
        xm.optimizer_step(model.optimizer)
        xm.mark_step()
