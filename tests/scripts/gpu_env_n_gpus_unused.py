# The job passes n_gpus, but this script never turns it into
# GPU_NUM_DEVICES (the comment below is not code):
# os.environ["GPU_NUM_DEVICES"] = args.n_gpus
import argparse

parser = argparse.ArgumentParser()
parser.add_argument("--n_gpus", type=str)
args, _ = parser.parse_known_args()
print("GPU_NUM_DEVICES should be", args.n_gpus)
