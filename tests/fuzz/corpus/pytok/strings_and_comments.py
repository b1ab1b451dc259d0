'''Trigger words that are no code: every rule must stay quiet here.

    torch.save(model.state_dict(), path)      # use xm.save instead
    loss.item()  model.cuda()  torch.device("cuda")
    tokenizer(text, padding="longest")
    os.environ["GPU_NUM_DEVICES"] = 4
'''
import os

import torch
import torch_xla.core.xla_model as xm

HELP = "call .item() rarely; never torch.save(...) or .cuda() on XLA"
NOTE = r'padding="longest" or padding=True recompiles; os.environ["GPU_NUM_DEVICES"] = 4'
FMT = f"{'torch.save'} and {HELP!r:>10} and {{loss.item()}}"
BYTES = rb"model.cuda() \" torch.device('cuda')"
MULTI = """
for batch in loader:
    optimizer.step()      # no mark_step here, but this is a string
    print(loss.item())
"""
# for batch in loader: optimizer.step(); loss.item(); torch.save(m, p)
# os.environ["GPU_NUM_DEVICES"] = 4


def train(model, loader, optimizer):
    """Train; see the notes: loss.item() and torch.save are slow.

    >>> model.cuda()  # doctest: +SKIP
    """
    device = xm.xla_device()
    model.to(device)
    for batch in loader:  # loss.item() here would be bad
        loss = model(**batch).loss
        loss.backward()
        optimizer.step()  # torch.save(model) would be too
        xm.mark_step()
        msg = "loss %s" % "not .item()"
    xm.save(model.state_dict(), os.path.join("/opt/ml/model", "torch.save.pt"))
    return msg
