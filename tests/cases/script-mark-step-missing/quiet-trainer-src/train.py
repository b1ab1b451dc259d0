from transformers import Trainer


class SplitBatchTrainer(Trainer):
    def training_step(self, model, inputs):
        for part in self.split(inputs):
            loss = self.compute_loss(model, part)
            loss.backward()
            self.optimizer.step()  # the Trainer marks the step itself
        return loss
