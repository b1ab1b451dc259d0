diagnose diagnose-reports/yolov5-script-error.yaml
