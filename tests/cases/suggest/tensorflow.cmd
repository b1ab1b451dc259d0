suggest suggest/resnet-tf.yaml --to ml.p3.8xlarge
