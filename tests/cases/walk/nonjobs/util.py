import os


def data_dir():
    return os.environ.get("SM_CHANNEL_TRAIN", "/opt/ml/input/data/train")
