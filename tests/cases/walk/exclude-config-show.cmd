config walk/excluded-config/forced
