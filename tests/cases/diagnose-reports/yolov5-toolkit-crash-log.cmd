diagnose --log diagnose-reports/yolov5-toolkit-crash.log diagnose-reports/yolov5-toolkit-crash.yaml
