check --color never --no-script --jobs 4 compiler-end-of-support/run/c-tf.json compiler-end-of-support/run/b-pytorch.yaml compiler-end-of-support/run/a-hf.yaml
