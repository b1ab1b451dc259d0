# A TensorFlow job: padding to the longest sequence recompiles there too.
import tensorflow as tf
from transformers import AutoTokenizer, TFAutoModelForSequenceClassification

tokenizer = AutoTokenizer.from_pretrained("bert-base-uncased")
texts = ["a short one", "a somewhat longer sentence to pad"]
enc = tokenizer(texts, padding=True, truncation=True, return_tensors="tf")
model = TFAutoModelForSequenceClassification.from_pretrained("bert-base-uncased")
model.compile(optimizer=tf.keras.optimizers.Adam(3e-5), loss="sparse_categorical_crossentropy")
model.fit(dict(enc), tf.constant([0, 1]), epochs=1)
pool = tf.keras.layers.Conv1D(8, 3, padding="same")
