suggest
