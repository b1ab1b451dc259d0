check --no-script --diff --unsafe-fixes fix/launcher.py
