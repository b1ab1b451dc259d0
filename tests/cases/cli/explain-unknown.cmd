explain gpu-num-device
