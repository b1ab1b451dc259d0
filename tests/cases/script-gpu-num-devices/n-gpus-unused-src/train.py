# the job passes n_gpus, but nothing here turns it into GPU_NUM_DEVICES
import argparse

parser = argparse.ArgumentParser()
parser.add_argument("--n_gpus", type=str)
args, _ = parser.parse_known_args()
