config config/tree/isolated
