# An Accelerate training loop: the Accelerator prepares the loaders,
# reduces the gradients and handles the device.
import torch
from accelerate import Accelerator
from accelerate.utils import set_seed
from torch.utils.data import DataLoader


def main(model, dataset):
    accelerator = Accelerator()
    set_seed(42)
    loader = DataLoader(dataset, batch_size=16, shuffle=True)
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for batch in loader:
        outputs = model(**batch)
        accelerator.backward(outputs.loss)
        accelerator.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        optimizer.zero_grad()


def _mp_fn(index):
    main(None, None)
