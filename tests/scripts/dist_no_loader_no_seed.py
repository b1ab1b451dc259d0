# _mp_fn is there, but the data are not sharded, nothing seeds the
# workers and each worker applies its own gradients.
import torch
import torch_xla.core.xla_model as xm
from torch.utils.data import DataLoader


def _mp_fn(index):
    device = xm.xla_device()
    model = torch.nn.Sequential(torch.nn.Linear(784, 256), torch.nn.ReLU(),
                                torch.nn.Linear(256, 10)).to(device)
    dataset = torch.utils.data.TensorDataset(torch.randn(6000, 784),
                                             torch.randint(0, 10, (6000,)))
    train_loader = DataLoader(dataset, batch_size=128, shuffle=True)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(5):
        for data, target in train_loader:
            data, target = data.to(device), target.to(device)
            optimizer.zero_grad()
            loss = torch.nn.functional.cross_entropy(model(data), target)
            loss.backward()
            optimizer.step()
            xm.mark_step()
