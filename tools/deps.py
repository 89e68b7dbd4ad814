#!/usr/bin/env python3
"""deps.py - which file of a folder of src/ uses which (by the non-static
functions and globals each .c file defines), and whether the files of each
folder form circles.

    python3 tools/deps.py            # the graph and the order per folder
    python3 tools/deps.py --check    # exit 1 when a folder has a circle

A file A uses file B when A names a function or global that B defines
(outside comments and strings; a macro that names it counts too). Only
files of the same folder are compared: between folders the include
direction (ops -> runtime -> core) is the rule, and the headers say it.
The names in EXEMPT are not counted (each says why).
The parse is a regular expression, not a compiler: it reads top-level
definitions written in the project's style (return type, name, '(' on one
line, the body's '{' at the end of the signature).
"""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")
FOLDERS = ["ops", "runtime", "core", "kernels/cpu"]

# Calls up that the check lets through, with the reason. Every other call
# between the files of a folder goes one way.
EXEMPT = {
    # The lazy start: the first call of the program, whatever file it is
    # in, starts the whole runtime (settings, ranks, workers).
    "ndt__runtime_ensure": "the runtime's lazy start",
}

_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
_STRING = re.compile(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'')
_IDENT = re.compile(r"[A-Za-z_]\w*")
# A top-level definition: starts at column 0, not static, name then '('.
_FUNC = re.compile(r"^(?!static\b|typedef\b|#|extern\b)[A-Za-z_][\w \t\*]*?\b([A-Za-z_]\w*)\s*\(([^;{]*?)\)\s*"
                   r"(?:__attribute__\s*\(\(.*?\)\)\s*)*\{", re.M | re.S)
_GLOBAL = re.compile(r"^(?!static\b|typedef\b|#|extern\b|return\b)(?:_Thread_local\s+|const\s+)*"
                     r"[A-Za-z_][\w \t\*]*?\b([A-Za-z_]\w*)\s*(?:\[[^\]]*\]\s*)*(?:=[^;]*)?;", re.M)


def strip(text):
    text = _COMMENT.sub(" ", text)
    return _STRING.sub('""', text)


def defined(text):
    names = set()
    for m in _FUNC.finditer(text):
        if m.group(1) not in ("if", "for", "while", "switch", "return", "sizeof"):
            names.add(m.group(1))
    for m in _GLOBAL.finditer(text):
        names.add(m.group(1))
    return names


def graph(folder):
    path = os.path.join(ROOT, folder)
    files = sorted(f for f in os.listdir(path) if f.endswith(".c"))
    text = {}
    for f in files:
        with open(os.path.join(path, f)) as fh:
            text[f] = strip(fh.read())
    defs = {f: defined(text[f]) for f in files}
    owner = {}
    for f in files:
        for n in defs[f]:
            owner.setdefault(n, f)
    uses = {f: {} for f in files}
    for f in files:
        for n in set(_IDENT.findall(text[f])):
            g = owner.get(n)
            if g and g != f and n not in EXEMPT:
                uses[f].setdefault(g, []).append(n)
    return files, uses


def circles(files, uses):
    """Strongly connected components of more than one file (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in uses[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in files:
        if v not in index:
            visit(v)
    return out


def layers(files, uses):
    """Files by level: level 0 uses no file of the folder, level k only
    files of lower levels (None when there is a circle)."""
    level = {}
    left = set(files)
    k = 0
    while left:
        now = {f for f in left if all(g in level for g in uses[f])}
        if not now:
            return None
        for f in now:
            level[f] = k
        left -= now
        k += 1
    return [sorted(f for f in files if level[f] == i) for i in range(k)]


def main(argv):
    check = "--check" in argv
    bad = 0
    for folder in FOLDERS:
        if not os.path.isdir(os.path.join(ROOT, folder)):
            continue
        files, uses = graph(folder)
        circ = circles(files, uses)
        if not check:
            print("src/%s" % folder)
            for f in files:
                for g in sorted(uses[f]):
                    names = sorted(set(uses[f][g]))
                    more = " ..." if len(names) > 4 else ""
                    print("  %-14s -> %-14s %s%s" % (f, g, " ".join(names[:4]), more))
            lv = layers(files, uses)
            if lv:
                print("  order (bottom first): " + " | ".join(" ".join(l) for l in lv))
        for c in circ:
            bad = 1
            print("circle in src/%s: %s" % (folder, " <-> ".join(c)))
            for f in c:
                for g in c:
                    if g in uses[f]:
                        print("  %s -> %s: %s" % (f, g, " ".join(sorted(set(uses[f][g])))))
    return bad if check else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
