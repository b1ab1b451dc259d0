#!/usr/bin/env python3
"""file_openers.py - python3 tests/lint/file_openers.py [DIR]

Every file the library reads on a spec's behalf (an entry script, a
source_dir, a launcher's or a notebook's script, a describe response's
sagemaker_program under --source-dir) is opened by one function,
smp__open_beneath() in lib/util/open_beneath.c, which resolves it beneath
the project root and fails closed. This lint keeps it so: any call that
opens, stats or resolves a path in DIR (default lib) outside the few
functions listed below fails, naming the file, line and function. A new
legitimate opener (a file the user names on the command line, the data
cache, a configuration file) is added to ALLOWED with the reason; a
spec-named path goes through smp__open_beneath() instead.
"""
import os
import re
import sys

# (file, function) -> why it may open a path that no spec names
ALLOWED = {
    ("lib/util/open_beneath.c", "*"): "the confined opener itself",
    ("lib/util/read_file.c", "*"):
        "the plain reader, for the paths listed below",
    ("lib/rules/check_buffer.c", "smp__check_file_run"):
        "smp_check_file(): the path the API caller passes",
    ("lib/rules/check_buffer.c", "too_big_without_job"):
        "the head of the same path, when a walk found it too large",
    ("lib/advise/suggest.c", "suggest"):
        "smp_suggest_file(): the path the API caller passes",
    ("lib/context/context.c", "load_catalog_dir"):
        "the instance data files of smp_context_options.data_dir",
    ("lib/catalog/data_cache.c", "*"): "the data cache (data_cache.h)",
    ("lib/catalog/data_cache_read.c", "*"): "the data cache",
    ("lib/catalog/data_cache_commit.c", "*"): "the data cache",
    ("lib/catalog/gen/embed_catalog.c", "*"):
        "a build-time generator, not part of the library",
    ("lib/schema/gen/embed_schemas.c", "*"):
        "a build-time generator, not part of the library",
}

CALLS = re.compile(
    r"\b(fopen|freopen|open|openat|openat2|opendir|fdopendir|creat|"
    r"stat|lstat|fstatat|realpath|readlink|readlinkat|access|faccessat|"
    r"truncate|smp__read_file|smp__open_regular)\s*\(")
FUNCTION = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)\(")


def code_only(text):
    """text with comments, strings and character literals blanked,
    line breaks kept (so that line numbers still count)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * (min(j, n) - i - 1) + (c if j < n else ""))
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def check(path, rel, text=None):
    bad = []
    if text is None:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    text = code_only(text)
    function = None
    for number, line in enumerate(text.split("\n"), 1):
        m = FUNCTION.match(line)
        if m:
            function = m.group(1)
        for call in CALLS.finditer(line):
            if line[:call.start()].rstrip().endswith(("struct", ".", "->")):
                continue  # struct stat, a member named open
            if (rel, "*") in ALLOWED or (rel, function) in ALLOWED:
                continue
            bad.append("%s:%d: %s() in %s(): files a spec names are "
                       "opened by smp__open_beneath() (util/open_beneath.h)"
                       % (rel, number, call.group(1), function or "?"))
    return bad


SAMPLE = """/* fopen(x) in a comment is fine */
static int
reader(const char *p)
{
	struct stat st;
	const char *s = "open(p)";

	return stat(p, &st) + (fopen(p, "r") != NULL);
}
"""


def self_test():
    """The lint finds what it is for: two calls, none in the comment or
    the string, each with its function."""
    got = check(None, "lib/x/sample.c", SAMPLE)
    want = ["lib/x/sample.c:8: stat() in reader()",
            "lib/x/sample.c:8: fopen() in reader()"]
    if [g.split(":", 3)[0:2] + [g.split(": ")[1]] for g in got] != \
            [w.split(":", 3)[0:2] + [w.split(": ")[1]] for w in want]:
        print("file_openers.py self-test failed:\n" + "\n".join(got))
        sys.exit(2)


def main():
    self_test()
    top = sys.argv[1] if len(sys.argv) > 1 else "lib"
    bad, seen = [], set()
    for folder, _, files in sorted(os.walk(top)):
        for name in sorted(files):
            if not name.endswith(".c"):
                continue
            path = os.path.join(folder, name)
            rel = os.path.normpath(path)
            seen.add(rel)
            bad += check(path, rel)
    stale = sorted(f for f, _ in ALLOWED
                   if f.startswith(top.rstrip("/") + "/") and f not in seen)
    for f in stale:
        bad.append("%s: listed in ALLOWED but not found" % f)
    print("\n".join(bad) if bad else
          "file openers: every path a spec names goes through "
          "smp__open_beneath()")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
