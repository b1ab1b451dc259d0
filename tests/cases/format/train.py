# the entry script of the specs in this folder: nothing to report
from transformers import Trainer


def _mp_fn(index):
    Trainer
