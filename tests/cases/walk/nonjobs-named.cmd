check --color never --no-script walk/nonjobs/jobs/plain-job.yaml walk/nonjobs/jobs/plain_launcher.py walk/nonjobs/environment.yml walk/nonjobs/web/package.json walk/nonjobs/util.py
