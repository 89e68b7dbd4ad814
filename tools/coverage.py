#!/usr/bin/env python3
"""Which of NumPy's public functions ndtile runs natively.

    python3 tools/coverage.py [--list] [--module numpy|linalg|fft|random]

A function is native when ndtile defines it (it runs as tasks on tiles);
otherwise ndtile runs NumPy's version on gathered data (a fallback, which
warns once; see python/ndtile/_fallback.py). Prints the counts per module
and, with --list, the names that fall back.
"""
import argparse
import sys
import types
import warnings

import numpy as np

import ndtile as nt
from ndtile import _fallback


def public_callables(mod):
    for name in sorted(dir(mod)):
        if name.startswith('_'):
            continue
        obj = getattr(mod, name, None)
        if isinstance(obj, (type, types.ModuleType)) or not callable(obj):
            continue
        yield name


def classify(ndmod, npmod):
    native, fallback = [], []
    for name in public_callables(npmod):
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            try:
                obj = getattr(ndmod, name)
            except AttributeError:
                fallback.append(name)
                continue
        (fallback if _fallback.is_fallback(obj) else native).append(name)
    return native, fallback


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--list', action='store_true', help='list the names that fall back')
    ap.add_argument('--module', choices=['numpy', 'linalg', 'fft', 'random'])
    args = ap.parse_args(argv)
    mods = [('numpy', nt, np), ('numpy.linalg', nt.linalg, np.linalg),
            ('numpy.fft', nt.fft, np.fft), ('numpy.random', nt.random, np.random)]
    if args.module:
        mods = [m for m in mods if m[0].endswith(args.module)]
    total_n = total = 0
    for label, ndmod, npmod in mods:
        native, fallback = classify(ndmod, npmod)
        n = len(native) + len(fallback)
        total_n += len(native)
        total += n
        print(f"{label:14s} {len(native):4d} of {n:4d} functions native")
        if args.list and fallback:
            print('    falls back: ' + ', '.join(fallback))
    print(f"{'all':14s} {total_n:4d} of {total:4d}")
    return 0


if __name__ == '__main__':
    sys.exit(main())
