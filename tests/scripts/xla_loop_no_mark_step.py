# The same loop ported carelessly: no mark_step, a per-step .item() and a
# plain torch.save checkpoint.
import torch
import torch_xla.core.xla_model as xm


def train(model, loader, epochs=3):
    device = xm.xla_device()
    model = model.to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    criterion = torch.nn.CrossEntropyLoss()
    for epoch in range(epochs):
        running = 0.0
        for inputs, labels in loader:
            inputs, labels = inputs.to(device), labels.to(device)
            optimizer.zero_grad()
            loss = criterion(model(inputs), labels)
            loss.backward()
            optimizer.step()
            running += loss.item()
        print("epoch", epoch, running)
        torch.save(model.state_dict(), f"/opt/ml/checkpoints/epoch-{epoch}.pt")
