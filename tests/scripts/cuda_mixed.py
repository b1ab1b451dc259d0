# Mostly XLA, but two tensors still go to CUDA.
import torch
import torch_xla.core.xla_model as xm

dev = xm.xla_device()


def step(model, optimizer, batch):
    mask = torch.ones(batch["input_ids"].shape, device="cuda:0")
    inputs = {k: v.to(dev) for k, v in batch.items()}
    labels = batch["labels"].cuda()
    out = model(**inputs, attention_mask=mask.to(dev), labels=labels)
    out.loss.backward()
    optimizer.step()
    xm.mark_step()
