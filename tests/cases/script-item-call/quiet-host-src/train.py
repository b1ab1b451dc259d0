import logging

import torch_xla.core.xla_model as xm

logger = logging.getLogger(__name__)


def train(model, loader, optimizer):
    for step, batch in enumerate(loader):
        loss = model(**batch).loss
        loss.backward()
        optimizer.step()
        print("stepping")  # no tensor
        xm.mark_step()
        print(loss)  # after the step: the graph is already cut
        xm.add_step_closure(lambda: logger.info(float(loss.cpu())))
        if step % 100 == 0:
            logger.info(loss)  # periodic: fine
            print(loss.tolist())
    for batch in loader:  # an evaluation loop: no update
        print(model(**batch).logits.cpu().numpy())
    return float(loss)  # once, after training
