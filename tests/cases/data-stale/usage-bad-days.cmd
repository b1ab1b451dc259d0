"$1" check --color never --stale-days 1x data-stale/job.yaml
