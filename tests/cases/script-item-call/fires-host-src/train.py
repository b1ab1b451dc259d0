import logging

import torch_xla.core.xla_model as xm

logger = logging.getLogger(__name__)


def train(model, loader, optimizer):
    losses = []
    for batch in loader:
        loss = model(**batch).loss
        loss.backward()
        optimizer.step()
        print(loss)
        logger.info(loss)
        xm.mark_step()
        losses.append(float(loss))
        preds = model(**batch).logits.argmax(-1).cpu().numpy()
        labels = batch["labels"].tolist()
    return losses, preds, labels
