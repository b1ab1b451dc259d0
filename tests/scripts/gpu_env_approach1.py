# Approach 1 of the troubleshooting guide: GPU_NUM_DEVICES comes from the
# job's environment; the script only reads it.
import os

import torch_xla.core.xla_model as xm

print("devices:", os.environ.get("GPU_NUM_DEVICES"), xm.xla_device())
