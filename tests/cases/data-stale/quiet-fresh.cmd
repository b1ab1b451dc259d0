"$1" check --color never --no-script --stale-days 36500 data-stale/job.yaml
