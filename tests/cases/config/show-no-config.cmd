config --no-config config/tree
