# approach 2: n_gpus parsed as a string into GPU_NUM_DEVICES
import argparse
import os

if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--n_gpus", type=str, default=os.environ["SM_NUM_GPUS"])
    args, _ = parser.parse_known_args()
    os.environ["GPU_NUM_DEVICES"] = args.n_gpus
