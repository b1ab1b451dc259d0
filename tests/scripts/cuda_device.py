# A native CUDA script submitted to a compiler job unchanged.
import torch
from torch.utils.data import DataLoader

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def train(model, dataset):
    model.cuda()
    loader = DataLoader(dataset, batch_size=32, pin_memory=True)
    optimizer = torch.optim.AdamW(model.parameters())
    scaler = torch.cuda.amp.GradScaler()
    for x, y in loader:
        x = x.to("cuda", non_blocking=True)
        y = y.to(device)
        with torch.cuda.amp.autocast():
            loss = torch.nn.functional.cross_entropy(model(x), y)
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
        optimizer.zero_grad()
    print(torch.cuda.device_count(), torch.cuda.get_device_name(0))
