"""Type resolution against NumPy: every (op, input dtypes) the core has,
strong arrays and weak Python scalars, through the C entry point
(ndt_ufunc_resolve) and through the Python ufuncs; and the generated loop
table against the installed NumPy."""
import itertools
import os
import runpy

import numpy as np
import pytest

import ndtile
from ndtile import _core
from ndtile import _dtypes as D

ROOT = os.path.join(os.path.dirname(__file__), '..', '..')
NAMES = [np.dtype(n) for n in ('bool', 'int8', 'int16', 'int32', 'int64', 'uint8', 'uint16',
                               'uint32', 'uint64', 'float32', 'float64', 'complex64',
                               'complex128')]
F16 = np.dtype(np.float16)
F32 = np.dtype(np.float32)
WEAK = {int: D.INT64, float: D.FLOAT64, complex: D.COMPLEX128}
HALF = 1

# core op index -> (NumPy ufunc, output index)
OPS = {}
for i, name in enumerate(_core.UFUNC_NAMES):
    if name == 'where':
        continue
    npname, out = {'_frexp_exponent': ('frexp', 1), '_modf_integral': ('modf', 1)}.get(
        name, (name, 0))
    OPS[i] = (np._core.umath.clip if name == 'clip' else getattr(np, npname), out)


def numpy_says(u, out, ins):
    """NumPy's loop dtypes (inputs, then output `out`), or None (TypeError)."""
    try:
        r = u.resolve_dtypes(tuple(ins) + (None,) * u.nout)
    except TypeError:
        return None
    return r[:u.nin] + (r[u.nin + out],)


def cases(nin):
    kinds = NAMES + [int, float, complex]
    for ins in itertools.product(kinds, repeat=nin):
        if all(isinstance(x, type) for x in ins):
            continue        # scalars only: NumPy's scalar path, not the core's
        if nin == 3 and any(isinstance(x, type) for x in ins):
            continue
        yield ins


def test_loop_table_is_numpy_s():
    gen = runpy.run_path(os.path.join(ROOT, 'tools', 'gen_ufunc_loops.py'))
    with open(os.path.join(ROOT, 'src', 'core', 'ufunc_loops.h')) as f:
        assert f.read() == gen['generate'](), \
            'src/core/ufunc_loops.h is out of date: run tools/gen_ufunc_loops.py'


def test_resolve_matches_numpy():
    """ndt_ufunc_resolve agrees with ufunc.resolve_dtypes on every case
    (float16 loops: the core runs float32 and says so)."""
    bad, n = [], 0
    for op, (u, out) in OPS.items():
        for ins in cases(u.nin):
            n += 1
            want = numpy_says(u, out, ins)
            codes = [WEAK[x] if isinstance(x, type) else D.code(x) for x in ins]
            weak = [isinstance(x, type) for x in ins]
            try:
                got, flags = _core.ufunc_resolve(op, codes, weak)
            except TypeError:
                got = None
            if want is None or got is None:
                if want is not got:
                    bad.append((u.__name__, ins, want, got))
                continue
            exp = tuple(F32 if d == F16 else d for d in want)
            if tuple(D.DTYPES[c] for c in got) != exp or \
                    bool(flags & HALF) != (want[-1] == F16):
                bad.append((u.__name__, ins, want, got, flags))
    assert n > 9000
    assert not bad, f'{len(bad)} of {n} differ from NumPy, e.g. {bad[:5]}'


def test_ufuncs_match_numpy():
    """The result dtype of every ndtile ufunc on arrays of every dtype pair
    (and with Python scalars) is NumPy's."""
    bad, n = [], 0
    arrays = {d: (np.zeros(3, d), ndtile.zeros(3, d)) for d in NAMES}
    scal = {int: 3, float: 0.5, complex: 1j}
    for op, (u, out) in OPS.items():
        if u.nout != 1 or u.__name__ == 'clip':
            continue
        mine = getattr(ndtile, u.__name__)
        for ins in cases(u.nin):
            n += 1
            na = [scal[x] if isinstance(x, type) else arrays[x][0] for x in ins]
            ta = [scal[x] if isinstance(x, type) else arrays[x][1] for x in ins]
            try:
                want = u(*na).dtype
            except TypeError:
                want = TypeError
            try:
                got = mine(*ta).dtype
            except TypeError:
                got = TypeError
            if want != got:
                bad.append((u.__name__, ins, want, got))
    assert n > 9000
    assert not bad, f'{len(bad)} of {n} differ from NumPy, e.g. {bad[:5]}'


def test_c_resolve_errors():
    with pytest.raises(ValueError):
        _core.ufunc_resolve(0, [D.INT8], [False])           # add takes 2 inputs
    with pytest.raises(TypeError, match="not supported for the input types"):
        _core.ufunc_resolve(_core.UFUNC_NAMES.index('subtract'), [D.BOOL, D.BOOL],
                            [False, False])
    w = _core.UFUNC_NAMES.index('where')
    assert _core.ufunc_resolve(w, [D.INT8, D.INT8, D.FLOAT32], [0, 0, 0]) == \
        ((D.BOOL, D.FLOAT32, D.FLOAT32, D.FLOAT32), 0)
