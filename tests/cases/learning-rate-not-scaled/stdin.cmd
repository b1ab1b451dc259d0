check --color never --no-script --baseline learning-rate-not-scaled/native.yaml - < learning-rate-not-scaled/fires.yaml
