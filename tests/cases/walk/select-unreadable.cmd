check --color never --select instance walk/broken-syntax.yaml walk/does-not-exist.yaml walk/bad-job.yaml
