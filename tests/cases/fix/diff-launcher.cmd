check --no-script --diff fix/launcher.py
