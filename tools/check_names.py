#!/usr/bin/env python3
"""check_names.py - the naming rule for functions and globals with external
linkage (docs/design.md, "Names"):

  ndt_   the public API: declared in include/ndtile.h, nowhere else;
  ndt__  internal: declared in src/internal.h or a header of src/ (one
         folder's own, such as src/ops/view.h), never in include/ndtile.h.

    python3 tools/check_names.py              # every name that breaks the rule
    python3 tools/check_names.py FILE.c ...   # only those defined in these files
    python3 tools/check_names.py --check ...  # the same; exit 1 when any

Every file of src/ follows it (the old internal ndt_ names were renamed at
once, by the script in that commit's message); the meson test `names`
checks them all.

A definition counts as static (not checked) when `static` comes before its
name on its line, directly or through a macro of src/ defined to contain
it (NDT_INLINE, KINLINE, ...): deps.py's parse, written for plain
definitions, reads those as external.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import deps  # noqa: E402  (the same reading of top-level definitions)

TOP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
_DECL = re.compile(r"\b(ndt_\w+)\s*\(")
_STATIC_MACRO = re.compile(r"^\s*#\s*define\s+(\w+)\b(?!\()[^\n]*\bstatic\b", re.M)


def static_macros():
    """Macros of src/ (object-like) whose expansion contains `static`."""
    found = set()
    for folder, _, files in os.walk(os.path.join(TOP, "src")):
        for f in files:
            if f.endswith((".c", ".h")):
                with open(os.path.join(folder, f)) as fh:
                    found.update(_STATIC_MACRO.findall(fh.read()))
    return found


def is_static(text, name, macros):
    """Whether every line that starts at column 0 and declares name (a
    definition or prototype) has `static` (or a macro of macros) before it."""
    lines = re.findall(r"^([A-Za-z_][^\n;{}=]*?)\b" + re.escape(name) + r"\s*[\(\[=;]", text, re.M)
    if not lines:
        return False
    for pre in lines:
        words = set(re.findall(r"\w+", pre))
        if "static" not in words and not (words & macros):
            return False
    return True


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
    macros = static_macros()
    bad = []
    for path in sources():
        if only and os.path.normpath(path) not in only:
            continue
        with open(os.path.join(TOP, path)) as fh:
            text = deps.strip(fh.read())
        names = deps.defined(text)
        for n in sorted(names):
            if is_static(text, n, macros):
                continue
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
