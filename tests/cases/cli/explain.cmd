explain gpu-num-devices-mismatch
