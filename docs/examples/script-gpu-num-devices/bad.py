import argparse
import os

parser = argparse.ArgumentParser()
parser.add_argument("--n_gpus", type=int, default=1)
args, _ = parser.parse_known_args()
os.environ["GPU_NUM_DEVICES"] = args.n_gpus
