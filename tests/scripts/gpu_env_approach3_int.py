# train.py -- approach 3 exactly as the troubleshooting guide prints it
# (with its {{4}} placeholder filled in): an int, which os.environ rejects.
import os
os.environ["GPU_NUM_DEVICES"] = 4
