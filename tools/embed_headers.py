#!/usr/bin/env python3
"""Writes a C file holding headers' texts, for the fused kernels that the
CUDA plugin compiles at run time with NVRTC (src/runtime/fused_gen.c):
    embed_headers.py OUT.c NAME=PATH...
NAME is how a generated source includes the header; its text goes in as
a C string, so the plugin needs no source tree at run time."""
import sys


def c_string(text):
    out = []
    for line in text.splitlines(keepends=True):
        s = line.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
        out.append('  "' + s + '"')
    return "\n".join(out) if out else '  ""'


def main(argv):
    out, pairs = argv[1], [a.split("=", 1) for a in argv[2:]]
    parts = ["/* written by tools/embed_headers.py: the headers of the fused kernels */"]
    for i, (_, path) in enumerate(pairs):
        with open(path, encoding="utf-8") as f:
            parts.append("static const char h%d[] =\n%s;" % (i, c_string(f.read())))
    parts.append("const char *const ndt__fgen_hnames[] = {%s};"
                 % ", ".join('"%s"' % n for n, _ in pairs))
    parts.append("const char *const ndt__fgen_htexts[] = {%s};"
                 % ", ".join("h%d" % i for i in range(len(pairs))))
    parts.append("const int ndt__fgen_nh = %d;" % len(pairs))
    with open(out, "w", encoding="utf-8") as f:
        f.write("\n".join(parts) + "\n")


if __name__ == "__main__":
    main(sys.argv)
