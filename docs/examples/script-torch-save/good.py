import torch_xla.core.xla_model as xm


def save(model, path):
    xm.mark_step()
    xm.save(model.state_dict(), path)
