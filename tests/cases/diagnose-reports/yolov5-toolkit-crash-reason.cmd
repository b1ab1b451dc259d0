diagnose diagnose-reports/yolov5-toolkit-crash.yaml
