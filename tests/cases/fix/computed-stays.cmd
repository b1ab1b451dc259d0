check --no-script --diff --unsafe-fixes python/computed.py
