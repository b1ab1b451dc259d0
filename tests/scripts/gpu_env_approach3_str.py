# Approach 3 done right for an instance with four GPUs.
import os

os.environ["GPU_NUM_DEVICES"] = "4"

import torch_xla.core.xla_model as xm  # noqa: E402  (after the variable)

print(xm.xla_device())
