cd ../../examples/config && "$1" config jobs/nlp/bert.yaml
