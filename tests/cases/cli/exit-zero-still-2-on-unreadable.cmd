check --exit-zero --no-script format/bad.yaml no-such-file.yaml
