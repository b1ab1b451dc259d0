check --format jsno format/bad.yaml
