# Tokenizer corner cases around real findings: the positions after them
# must still be exact (tabs count as one column).
import torch
import torch_xla.core.xla_model as xm

TEMPLATE = f"""{
    "nested"
} {"torch.save(x)"} and {f'{1 + 2}'}
"""
PATH = "/opt/ml/" \
    "model.pt"
CFG = dict(a=1,
           b=(2,
              3))


def save(model):
	if True:
		torch.save(model.state_dict(), PATH)  # tab-indented
	return (lambda m: m)(model)


class Holder:
    """torch.save in a docstring"""
    def dump(self, obj): torch.save(obj, "x.pt"); return obj


weird = {"a": r"\"", "b": "\\", "c": Rb'\''}
torch.save(weird, u"w.pt")
