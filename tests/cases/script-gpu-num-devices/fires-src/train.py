# train.py (troubleshooting guide, approach 3, as printed)
import os
os.environ["GPU_NUM_DEVICES"] = 4
