from dataclasses import dataclass, field
from typing import Optional

from transformers import HfArgumentParser, Trainer, TrainingArguments


@dataclass
class DataTrainingArguments:
    max_seq_length: Optional[int] = field(default=512)
    preprocessing_num_workers: Optional[int] = field(default=None)


def main():
    parser = HfArgumentParser((DataTrainingArguments, TrainingArguments))
    data_args, training_args = parser.parse_args_into_dataclasses()
    trainer = Trainer(args=training_args)
    trainer.train()


if __name__ == "__main__":
    main()
