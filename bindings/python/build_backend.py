"""PEP 517 build backend of the smpreflight wheel (standard library only).

build_wheel() runs the repository's Makefile (`make shared`, two levels up)
and writes a wheel whose package `smpreflight` holds this folder's
smpreflight.py as __init__.py and the freshly built libsmpreflight.so.N
beside it, so that `import smpreflight` loads the bundled copy. The version
is the library's (lib/smpreflight.h). MAKE and BUILD in the environment
choose the make program and the build folder (default build).
"""

import base64
import hashlib
import os
import re
import subprocess
import sys
import sysconfig
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


def _tag():
    plat = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return "py3-none-" + plat


def _build_library():
    build = os.environ.get("BUILD", "build")
    make = os.environ.get("MAKE", "make")
    # make's own output goes to stderr: pip shows it only on failure
    subprocess.run([make, "-C", ROOT, "--no-print-directory",
                    "BUILD=" + build, "shared"], check=True,
                   stdout=sys.stderr)
    soname = "libsmpreflight.so.%s" % _header_define("SMP_ABI_VERSION")
    path = os.path.join(ROOT, build, soname)
    if not os.path.exists(path):
        raise RuntimeError("make shared did not build %s" % path)
    return soname, os.path.realpath(path)


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


def build_wheel(wheel_directory, config_settings=None,
                metadata_directory=None):
    version = _version()
    soname, library = _build_library()
    dist_info = "%s-%s.dist-info" % (NAME, version)
    files = []
    with open(os.path.join(HERE, "smpreflight.py"), "rb") as f:
        files.append((NAME + "/__init__.py", f.read(), 0o644))
    with open(library, "rb") as f:
        files.append((NAME + "/" + soname, f.read(), 0o755))
    with open(os.path.join(ROOT, "LICENSE"), "rb") as f:
        files.append((dist_info + "/LICENSE", f.read(), 0o644))
    files.append((dist_info + "/METADATA",
                  _metadata(version).encode(), 0o644))
    files.append((dist_info + "/WHEEL",
                  ("Wheel-Version: 1.0\nGenerator: smpreflight "
                   "build_backend.py\nRoot-Is-Purelib: false\nTag: %s\n"
                   % _tag()).encode(), 0o644))
    record = [_record_line(n, d) for n, d, _ in files]
    record.append(dist_info + "/RECORD,,")
    files.append((dist_info + "/RECORD",
                  ("\n".join(record) + "\n").encode(), 0o644))
    wheel = "%s-%s-%s.whl" % (NAME, version, _tag())
    with zipfile.ZipFile(os.path.join(wheel_directory, wheel), "w",
                         zipfile.ZIP_DEFLATED) as z:
        for arcname, data, mode in files:
            info = zipfile.ZipInfo(arcname, date_time=(2020, 1, 1, 0, 0, 0))
            info.external_attr = (0o100000 | mode) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
    return wheel


def build_sdist(sdist_directory, config_settings=None):
    raise RuntimeError("smpreflight has no source distribution of its own: "
                       "the wheel is built from a checkout of the "
                       "repository (pip install ./bindings/python)")
