# train.py -- approach 2 of the troubleshooting guide: the job passes an
# n_gpus hyperparameter and the script parses it into GPU_NUM_DEVICES.
import os, argparse

if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    # Data, model, and output directories
    parser.add_argument("--output_data_dir", type=str, default=os.environ["SM_OUTPUT_DATA_DIR"])
    parser.add_argument("--model_dir", type=str, default=os.environ["SM_MODEL_DIR"])
    parser.add_argument("--training_dir", type=str, default=os.environ["SM_CHANNEL_TRAIN"])
    parser.add_argument("--test_dir", type=str, default=os.environ["SM_CHANNEL_TEST"])
    parser.add_argument("--n_gpus", type=str, default=os.environ["SM_NUM_GPUS"])
    args, _ = parser.parse_known_args()
    os.environ["GPU_NUM_DEVICES"] = args.n_gpus
