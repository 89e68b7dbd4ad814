#!/usr/bin/env python3
"""Runs NumPy's own test files against ndtile, side by side with NumPy.

    python3 tools/numpy_tests.py lib/tests/test_shape_base.py [...] [--out DIR]
                                 [--numpy] [--keep] [-- PYTEST ARGS]

Each file (a path inside the installed numpy package; its wheel ships its
tests) is copied into DIR (default /tmp/ndtile-numpy-tests) with its imports
rewritten: `import numpy as np` and `from numpy import ...` take ndtile,
`from numpy.testing import ...` takes ndtile.testing (numpy.testing on
gathered operands), numpy.linalg and numpy.fft ndtile's, numpy.polynomial
and its kinds' modules ndtile's name for them (NumPy's modules, their
evaluation functions taking ndtile points: deviations.md 16), the public names a
test imports from NumPy's implementation modules (`from
numpy.lib._stride_tricks_impl import as_strided`) ndtile's where ndtile has
them; every other import (numpy._core internals, also
as np._core, numpy.exceptions, ...) stays NumPy's, but one:
numpy._core.umath (NumPy's ufunc module, `import numpy._core.umath as ncu`,
`np._core.umath.__dict__`) becomes _nt_umath, written beside the copies:
that module with each ufunc that ndtile has (by name) replaced by ndtile's.
NumPy's test files build their ufunc lists from it (`[obj for obj in
np._core.umath.__dict__.values() if isinstance(obj, np.ufunc)]`) and call
its ufuncs (`ncu.arctan(...)`); with np now ndtile, NumPy's ufunc objects
are not `ndtile.ufunc` instances and those lists came out empty (no ufunc
test collected, test_ufunc.py's collection failed on `list.remove`).
Making `isinstance(numpy.add, ndtile.ufunc)` true instead would serve
only these tests - a program asks that of its own np's ufuncs - and would
test NumPy's ufuncs, not ndtile's. NumPy's ufuncs that ndtile does not
have (its string ufuncs, `_ones_like`, `clip`) stay NumPy's there.

The copy runs under pytest and the
script prints, per file, passed / failed / errors / skipped, and with
--numpy the same file unchanged under NumPy, so a failure NumPy has too is
not counted against ndtile. DIR/<name>.failures.txt lists each failing test
with its one-line reason.

A failure is one of: a wrong result (the worst: find it and fix it), an
exception NumPy would not raise, a missing function or keyword (ndtile falls
back to NumPy with a warning for most), or a test of NumPy's internals
(its C API, subclass machinery, object dtype) that does not apply.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys

import numpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ndtile_imports  # noqa: E402  (tools/ndtile_imports.py)

NPDIR = os.path.dirname(numpy.__file__)

# this tool's own rewrites, before ndtile_imports' common ones
_PRE = [
    (re.compile(r'^(\s*)import numpy as np\s*$', re.M),
     r'\1import numpy\n\1import ndtile as np\n\1import _nt_umath'),
    # NumPy's ufunc module: ndtile's ufuncs of the same names (_UMATH_SHIM)
    (re.compile(r'\b(np|numpy)\._core\.umath\b'), r'_nt_umath'),
    # NumPy's internals stay NumPy's (ndtile._core is ndtile's C extension)
    (re.compile(r'\bnp\.(_core|__config__)\b'), r'numpy.\1'),
    (re.compile(r'^(\s*)from numpy\.lib import stride_tricks', re.M),
     r'\1from ndtile.lib import stride_tricks'),
    # numpy.ma.testutils' comparisons, on gathered operands (_MA_SHIM)
    (re.compile(r'^(\s*)from numpy\.ma\.testutils import', re.M), r'\1from _nt_ma_testutils import'),
    # NumPy's implementation modules export public functions (test_stride_tricks
    # imports as_strided, broadcast_to, ... from numpy.lib._stride_tricks_impl,
    # test_index_tricks mgrid, r_, ...): ndtile's where ndtile has the name,
    # the private helpers (_as_pairs, _replace_nan) NumPy's
    (re.compile(r'^([ \t]*)from (numpy\.(?:lib\._\w+_impl|_core\.[a-z]\w*)) import '
                r'(\([^)]*\)|[^\n(]*)$', re.M),
     lambda m: _public_names(*m.groups())),
]

# written beside the copies: ndtile's public names (its namespace, then the
# public submodules NumPy's _impl modules stand behind)
_PUBLIC_SHIM = '''import ndtile
import ndtile.lib.stride_tricks

_SPACES = (vars(ndtile), vars(ndtile.lib.stride_tricks))


def get(name, default):
    for space in _SPACES:
        if name in space:
            return space[name]
    return default
'''


def _public_names(ind, mod, names):
    """`from mod import names`, then each public name rebound to ndtile's
    where ndtile has it."""
    public = [n.split(' as ')[-1].strip() for n in names.strip('()').replace('\n', ' ').split(',')]
    public = [n for n in public if n and not n.startswith('_')]
    text = f'{ind}from {mod} import {names}'
    if public:
        text += (f'\n{ind}import _nt_public\n' +
                 ''.join(f'{ind}{n} = _nt_public.get({n!r}, {n})\n' for n in public))
    return text.rstrip('\n')

# written beside the copies: numpy.ma.testutils with ndtile arrays gathered
# into NumPy arrays first (its comparisons take their array path for
# numpy.ndarray only; masked arrays stay NumPy's)
_MA_SHIM = '''import numpy.ma.testutils as _t
import ndtile.testing as _ntt


def __getattr__(name):
    f = getattr(_t, name)
    if not (callable(f) and name.startswith('assert')):
        return f
    def g(*a, **k):
        return f(*[_ntt._gather(x) for x in a], **{n: _ntt._gather(v) for n, v in k.items()})
    return g
'''


# written beside the copies: numpy._core.umath, its ufuncs ndtile's where
# ndtile has one of that name (its constants and helpers stay NumPy's)
_UMATH_SHIM = '''import numpy as _np
import numpy._core.umath as _u
import ndtile as _nt

globals().update({k: v for k, v in vars(_u).items() if not k.startswith('__')})
globals().update({k: getattr(_nt, k) for k, v in vars(_u).items()
                  if isinstance(v, _np.ufunc) and isinstance(getattr(_nt, k, None), _nt.ufunc)})
'''


def rewrite(text):
    # numpy itself and numpy.testing take ndtile; every other import (and
    # `import numpy`, which the tool's rewrites use for NumPy's internals)
    # stays NumPy's
    # (numpy.linalg and numpy.fft too: test_linalg imports norm, matrix_rank,
    # ... from numpy.linalg; numpy.random stays NumPy's, deviations.md 15;
    # numpy.polynomial is NumPy's package under ndtile's name, with its
    # evaluation functions taking ndtile points: polynomial/tests import it
    # and its kinds' modules)
    return ndtile_imports.rewrite(text, only=_ND_SUBMODULES, plain_numpy=False, pre=_PRE)


_ND_SUBMODULES = ('', 'testing', 'linalg', 'fft', 'polynomial') + tuple(
    'polynomial.' + k for k in ('polynomial', 'chebyshev', 'legendre', 'laguerre',
                                'hermite', 'hermite_e', 'polyutils'))


def copy_file(rel, out, to_ndtile):
    src = os.path.join(NPDIR, rel)
    name = rel.replace('/', '_').replace('_tests_test_', '_test_')
    if not name.startswith('test_'):
        name = 'test_' + name
    dst = os.path.join(out, ('nt_' if to_ndtile else 'np_') + name)
    with open(src) as f:
        text = f.read()
    with open(dst, 'w') as f:
        f.write(rewrite(text) if to_ndtile else text)
    # data files the tests open beside themselves (lib/tests/data and
    # _core/tests/data share DIR/data: each file that is not there yet)
    data = os.path.join(os.path.dirname(src), 'data')
    if os.path.isdir(data):
        def copy_new(s, d):
            if not os.path.exists(d):
                shutil.copy2(s, d)
        shutil.copytree(data, os.path.join(out, 'data'), dirs_exist_ok=True,
                        copy_function=copy_new)
    return dst


def run_pytest(path, extra):
    report = path + '.json'
    cmd = [sys.executable, '-m', 'pytest', '-q', '-p', 'no:cacheprovider',
           '-rfE', '--tb=line', '-W', 'ignore', path] + extra
    env = dict(os.environ, COLUMNS='400')     # -rfE's reasons unshortened
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=os.path.dirname(path), env=env)
    counts = {}
    last = (p.stdout.strip().splitlines() or [''])[-1]
    for n, what in re.findall(r'(\d+) (passed|failed|errors?|skipped|xfailed|xpassed)', last):
        counts[what.rstrip('s') if what.startswith('error') else what] = int(n)
    fails = [ln for ln in p.stdout.splitlines() if ln.startswith(('FAILED ', 'ERROR '))]
    with open(report, 'w') as f:
        json.dump({'counts': counts, 'failures': fails, 'rc': p.returncode}, f, indent=1)
    if p.returncode not in (0, 1):     # 2: interrupted/collection error, <0: a crash
        fails.append(f'pytest exited with {p.returncode}: {last}')
        tail = (p.stdout + p.stderr).strip().splitlines()[-20:]
        fails.extend('    ' + t for t in tail)
    return counts, fails


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('files', nargs='+', help='paths inside the numpy package')
    ap.add_argument('--out', default='/tmp/ndtile-numpy-tests')
    ap.add_argument('--numpy', action='store_true', help='also run each file under NumPy')
    argv = sys.argv[1:]
    cut = argv.index('--') if '--' in argv else len(argv)
    args, extra = ap.parse_args(argv[:cut]), argv[cut + 1:]   # (after --: pytest's)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, '_nt_ma_testutils.py'), 'w') as f:
        f.write(_MA_SHIM)
    with open(os.path.join(args.out, '_nt_umath.py'), 'w') as f:
        f.write(_UMATH_SHIM)
    with open(os.path.join(args.out, '_nt_public.py'), 'w') as f:
        f.write(_PUBLIC_SHIM)
    print(f"{'file':48s} {'ndtile pass/fail/err/skip':>26s}" +
          (f" {'numpy pass/fail/err/skip':>26s}" if args.numpy else ''))
    for rel in args.files:
        row = []
        for to_nt in ((True, False) if args.numpy else (True,)):
            dst = copy_file(rel, args.out, to_nt)
            c, fails = run_pytest(dst, extra)
            row.append('{}/{}/{}/{}'.format(c.get('passed', 0), c.get('failed', 0),
                                            c.get('error', 0), c.get('skipped', 0)))
            with open(dst + '.failures.txt', 'w') as f:
                f.write('\n'.join(fails) + '\n')
        print(f"{rel:48s} " + ' '.join(f'{r:>26s}' for r in row), flush=True)
    print(f"failures: {args.out}/*.failures.txt")


if __name__ == '__main__':
    main()
