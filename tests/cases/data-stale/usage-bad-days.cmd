"$1" check --color never --no-script --stale-days 1x data-stale/job.yaml
