"$1" check --color never --stale-days 36500 data-stale/job.yaml
