from transformers import Trainer, TrainingArguments

# one GPU, no pytorchxla: no _mp_fn needed
Trainer(model=None, args=TrainingArguments("out")).train()
