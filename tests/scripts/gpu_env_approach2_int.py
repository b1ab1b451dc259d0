# Approach 2 with the count parsed as an int: os.environ rejects it.
import argparse
import os

parser = argparse.ArgumentParser()
parser.add_argument("--n-gpus", type=int, default=1)
parser.add_argument("--epochs", type=int, default=3)
args = parser.parse_args()
os.environ["GPU_NUM_DEVICES"] = args.n_gpus
