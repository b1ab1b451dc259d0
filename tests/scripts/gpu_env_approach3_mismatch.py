# Hard-coded for an 8-GPU instance, run on one with 4; and a setdefault
# that never takes effect but is wrong too.
import os
from os import environ

environ["GPU_NUM_DEVICES"] = "8"
os.environ.setdefault("GPU_NUM_DEVICES", str(8))
os.environ["XLA_USE_BF16"] = "1"
