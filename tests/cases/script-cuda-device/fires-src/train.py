import torch

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def prepare(model, batch):
    model.cuda()
    return {k: v.to("cuda:0") for k, v in batch.items()}
