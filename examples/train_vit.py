"""Vision Transformer fine-tuning with Keras under MirroredStrategy; the
compiler is built into the TensorFlow 2.9-2.11 training containers."""
import argparse

import tensorflow as tf


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch_size", type=int, default=192)
    parser.add_argument("--learning_rate", type=float, default=0.001)
    args, _ = parser.parse_known_args()

    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        model = tf.keras.applications.ResNet50(weights=None, classes=10)
        model.compile(
            optimizer=tf.keras.optimizers.Adam(args.learning_rate),
            loss="sparse_categorical_crossentropy")
    (x, y), _ = tf.keras.datasets.cifar10.load_data()
    x = tf.image.resize(x, (224, 224))
    model.fit(x, y, batch_size=args.batch_size, epochs=3)


if __name__ == "__main__":
    main()
