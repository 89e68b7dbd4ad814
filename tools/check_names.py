#!/usr/bin/env python3
"""check_names.py - the naming rule for functions and globals with external
linkage (docs/design.md, "Names"):

  ndt_   the public API: declared in include/ndtile.h, nowhere else;
  ndt__  internal: declared in src/internal.h or a header of src/ (one
         folder's own, such as src/ops/view.h), never in include/ndtile.h.

    python3 tools/check_names.py              # every name that breaks the rule
    python3 tools/check_names.py FILE.c ...   # only those defined in these files
    python3 tools/check_names.py --check ...  # the same; exit 1 when any

The old internal names (ndt_submit, ndt_cpu_*, ...) are renamed when their
file is reworked anyway, not all at once (a global rename would touch every
file); this lists what is left.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import deps  # noqa: E402  (the same reading of top-level definitions)

TOP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
_DECL = re.compile(r"\b(ndt_\w+)\s*\(")


def public_names():
    with open(os.path.join(TOP, "include", "ndtile.h")) as fh:
        text = deps.strip(fh.read())
    names = set(_DECL.findall(text))
    # exported globals and typedef'd names do not matter here: functions only
    return names


def sources():
    for folder, _, files in os.walk(os.path.join(TOP, "src")):
        for f in sorted(files):
            if f.endswith(".c"):
                yield os.path.relpath(os.path.join(folder, f), TOP)


def main(argv):
    check = "--check" in argv
    only = [os.path.normpath(a) for a in argv if a != "--check"]
    public = public_names()
    bad = []
    for path in sources():
        if only and os.path.normpath(path) not in only:
            continue
        with open(os.path.join(TOP, path)) as fh:
            names = deps.defined(deps.strip(fh.read()))
        for n in sorted(names):
            if n in public:
                if n.startswith("ndt__"):
                    bad.append((path, n, "internal name in include/ndtile.h"))
                continue
            if n.startswith("ndt__"):
                continue
            if n.startswith("ndt_"):
                bad.append((path, n, "internal: should be ndt__" + n[4:]))
            elif not n.startswith("main"):
                bad.append((path, n, "no ndt prefix"))
    for path, n, why in bad:
        print("%s: %s (%s)" % (path, n, why))
    if not check:
        print("%d names break the rule" % len(bad))
    return 1 if check and bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
