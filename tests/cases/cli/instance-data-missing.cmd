check --instance-data cli/no-such-dir cli/good.yaml
