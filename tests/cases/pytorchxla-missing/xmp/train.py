import os

import torch_xla.distributed.xla_multiprocessing as xmp
from transformers import HfArgumentParser, Trainer, TrainingArguments


def main():
    parser = HfArgumentParser(TrainingArguments)
    (training_args,) = parser.parse_args_into_dataclasses()
    trainer = Trainer(args=training_args)
    trainer.train()


def _mp_fn(index):
    main()


if __name__ == "__main__":
    os.environ.setdefault("GPU_NUM_DEVICES", "4")
    xmp.spawn(_mp_fn, args=())
