"""python -m smpreflight: the sm-preflight command the wheel carries.

pip puts the command itself on the venv's PATH (the wheel's scripts); this
finds that copy, as `python -m ruff` does, for when the scripts folder is
not on PATH, and runs it with the arguments given.
"""

import os
import sys
import sysconfig


def _command():
    names = ["sm-preflight"]
    if sys.platform == "win32":
        names = ["sm-preflight.exe"]
    folders = [sysconfig.get_path("scripts")]
    user = sysconfig.get_path("scripts", scheme="%s_user" % os.name)
    folders.append(user)
    for folder in folders:
        for n in names:
            path = os.path.join(folder, n)
            if os.path.isfile(path) and os.access(path, os.X_OK):
                return path
    return None


def main():
    path = _command()
    if path is None:
        sys.stderr.write("sm-preflight: the command is not installed beside "
                         "this smpreflight (%s); install the wheel with pip, "
                         "or the tool with 'make install'\n"
                         % sysconfig.get_path("scripts"))
        return 2
    os.execv(path, [path] + sys.argv[1:])
    return 2  # not reached: execv() replaces the process or raises


if __name__ == "__main__":
    sys.exit(main())
