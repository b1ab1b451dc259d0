import os
os.environ["GPU_NUM_DEVICES"] = 4
environ["K"]=str(8)
os.environ.setdefault("GPU_NUM_DEVICES", x)
