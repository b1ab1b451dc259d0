check --format json --output /nonexistent/folder/report.json format/bad.yaml
