config config/select/job.yaml
