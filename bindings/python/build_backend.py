"""PEP 517 build backend of the smpreflight wheel (standard library only).

build_wheel() runs the repository's Makefile (`make wheel-files`, two
levels up) and writes a self-contained wheel:

  smpreflight/__init__.py          this folder's smpreflight.py, with the
                                   version written into __version__
  smpreflight/__main__.py          python -m smpreflight runs the command
  smpreflight/py.typed             the module's annotations are for checkers
  smpreflight/libsmpreflight.so.N  libyaml linked in, run path $ORIGIN
  smpreflight-V.data/scripts/sm-preflight
                                   the command itself, which pip puts on the
                                   venv's PATH (as ruff's wheel does)

The shared objects may need nothing outside the C library but what is
bundled beside them (copied from where the build machine's loader finds
it, as auditwheel does); the platform tag is manylinux_2_NN for the
highest GLIBC_2.NN symbol version they use, so pip installs it exactly
where it runs. The version is the library's (lib/smpreflight.h). MAKE and
BUILD in the environment choose the make program and the build folder
(default build).
"""

import base64
import hashlib
import os
import platform
import re
import shutil
import subprocess
import sys
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
NAME = "smpreflight"


def _header_define(name):
    with open(os.path.join(ROOT, "lib", "smpreflight.h")) as f:
        m = re.search(r"^#define %s (\S+)" % name, f.read(), re.M)
    if not m:
        raise RuntimeError("lib/smpreflight.h defines no %s" % name)
    return m.group(1).strip('"')


def _version():
    return _header_define("SMP_VERSION_STRING")


# What glibc provides and every manylinux platform has (PEP 600): needed
# from the system, never bundled.
_SYSTEM_LIBS = ("libc.so.6", "libm.so.6", "libpthread.so.0", "libdl.so.2",
                "librt.so.1", "ld-linux-x86-64.so.2", "ld-linux-aarch64.so.1")


def _tool(*names):
    for n in names:
        if shutil.which(n):
            return n
    raise RuntimeError("building the wheel needs %s (apt-get install "
                       "binutils)" % " or ".join(names))


def _needed(path):
    out = subprocess.run([_tool("readelf"), "-d", path], check=True,
                         capture_output=True, text=True).stdout
    return re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", out)


def _glibc_minor(paths):
    """The highest N of the GLIBC_2.N versions the objects' undefined
    dynamic symbols need."""
    best = 17  # manylinux2014, the oldest a tag names
    for path in paths:
        out = subprocess.run([_tool("objdump"), "-T", path], check=True,
                             capture_output=True, text=True).stdout
        for line in out.splitlines():
            m = re.search(r"\*UND\*.*\bGLIBC_2\.(\d+)", line)
            if m:
                best = max(best, int(m.group(1)))
    return best


def _bundle(objects):
    """The shared libraries the objects need outside glibc, as (soname,
    path) from ldd: copied beside libsmpreflight (its run path is $ORIGIN).
    The command goes into scripts/, where no run path reaches: it may need
    nothing outside glibc."""
    extra = {}
    ldd = _tool("ldd")
    for path in objects:
        out = subprocess.run([ldd, path], capture_output=True,
                             text=True).stdout
        where = dict(re.findall(r"^\s*(\S+) => (/\S+)", out, re.M))
        for soname in _needed(path):
            if soname in _SYSTEM_LIBS:
                continue
            if os.path.basename(path) == "sm-preflight":
                raise RuntimeError("%s needs %s: the command in the wheel "
                                   "may need only the C library" %
                                   (path, soname))
            if soname not in where:
                raise RuntimeError("%s needs %s, which is not found here"
                                   % (path, soname))
            extra[soname] = where[soname]
    return sorted(extra.items())


def _tag(paths):
    machine = platform.machine()
    if sys.platform != "linux" or not machine:
        raise RuntimeError("the smpreflight wheel is built on Linux only")
    return "py3-none-manylinux_2_%d_%s" % (_glibc_minor(paths), machine)


def _build_files():
    build = os.environ.get("BUILD", "build")
    make = os.environ.get("MAKE", "make")
    # make's own output goes to stderr: pip shows it only on failure
    subprocess.run([make, "-C", ROOT, "--no-print-directory",
                    "BUILD=" + build, "wheel-files"], check=True,
                   stdout=sys.stderr)
    soname = "libsmpreflight.so.%s" % _header_define("SMP_ABI_VERSION")
    wheel_dir = os.path.join(ROOT, build, "wheel")
    library = os.path.join(wheel_dir, soname)
    command = os.path.join(wheel_dir, "bin", "sm-preflight")
    for path in (library, command):
        if not os.path.exists(path):
            raise RuntimeError("make wheel-files did not build %s" % path)
    return soname, library, command


def _record_line(arcname, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest())
    return "%s,sha256=%s,%d" % (arcname, digest.rstrip(b"=").decode(),
                               len(data))


def _metadata(version):
    return ("Metadata-Version: 2.1\n"
            "Name: %s\n"
            "Version: %s\n"
            "Summary: Preflight checks for Amazon SageMaker Training "
            "Compiler job specs (ctypes binding of libsmpreflight)\n"
            "License: Apache-2.0\n"
            "Requires-Python: >=3.8\n" % (NAME, version))


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory,
                                     config_settings=None):
    dist_info = "%s-%s.dist-info" % (NAME, _version())
    os.makedirs(os.path.join(metadata_directory, dist_info), exist_ok=True)
    with open(os.path.join(metadata_directory, dist_info, "METADATA"),
              "w") as f:
        f.write(_metadata(_version()))
    return dist_info


def _read(path):
    with open(path, "rb") as f:
        return f.read()


def build_wheel(wheel_directory, config_settings=None,
                metadata_directory=None):
    version = _version()
    soname, library, command = _build_files()
    bundled = _bundle([library, command])
    tag = _tag([library, command] + [p for _, p in bundled])
    dist_info = "%s-%s.dist-info" % (NAME, version)
    data = "%s-%s.data" % (NAME, version)
    module = _read(os.path.join(HERE, "smpreflight.py")).decode()
    module, n = re.subn(r'^__version__ = "0\.0\.0\+source"$',
                        '__version__ = "%s"' % version, module, flags=re.M)
    if n != 1:
        raise RuntimeError("smpreflight.py has no __version__ placeholder")
    files = [
        (NAME + "/__init__.py", module.encode(), 0o644),
        (NAME + "/__main__.py", _read(os.path.join(HERE, "main.py")), 0o644),
        (NAME + "/py.typed", b"", 0o644),
        (NAME + "/" + soname, _read(library), 0o755),
    ]
    for name, path in bundled:
        files.append((NAME + "/" + name, _read(path), 0o755))
    files.append((data + "/scripts/sm-preflight", _read(command), 0o755))
    files.append((dist_info + "/LICENSE",
                  _read(os.path.join(ROOT, "LICENSE")), 0o644))
    # libyaml is linked in: its licence (MIT) goes with it
    for doc in ("/usr/share/doc/libyaml-0-2/copyright",
                "/usr/share/doc/libyaml-dev/copyright"):
        if os.path.exists(doc):
            files.append((dist_info + "/LICENSE.libyaml", _read(doc), 0o644))
            break
    files.append((dist_info + "/METADATA",
                  _metadata(version).encode(), 0o644))
    files.append((dist_info + "/WHEEL",
                  ("Wheel-Version: 1.0\nGenerator: smpreflight "
                   "build_backend.py\nRoot-Is-Purelib: false\nTag: %s\n"
                   % tag).encode(), 0o644))
    record = [_record_line(n, d) for n, d, _ in files]
    record.append(dist_info + "/RECORD,,")
    files.append((dist_info + "/RECORD",
                  ("\n".join(record) + "\n").encode(), 0o644))
    wheel = "%s-%s-%s.whl" % (NAME, version, tag)
    with zipfile.ZipFile(os.path.join(wheel_directory, wheel), "w",
                         zipfile.ZIP_DEFLATED) as z:
        for arcname, data_, mode in files:
            info = zipfile.ZipInfo(arcname, date_time=(2020, 1, 1, 0, 0, 0))
            info.external_attr = (0o100000 | mode) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data_)
    return wheel


def build_sdist(sdist_directory, config_settings=None):
    raise RuntimeError("smpreflight has no source distribution of its own: "
                       "the wheel is built from a checkout of the "
                       "repository (pip install ./bindings/python)")
