check --disable compiler-debg cli/warn.yaml
