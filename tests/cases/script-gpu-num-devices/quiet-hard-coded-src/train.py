# approach 3 done right: a string equal to the instance's GPUs; this also
# keeps gpu-num-devices-missing quiet for the spec
import os

os.environ["GPU_NUM_DEVICES"] = "4"
