import os

os.environ["GPU_NUM_DEVICES"] = "8"  # copied from a p3.16xlarge job
