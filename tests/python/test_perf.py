"""The small-array path stays in C: operators between arrays and Python
scalars never call back into Python. (Per-call overhead against NumPy is a
benchmark, bench/workloads/small_loop.py in `make bench`, not a timed test:
a timing fails a loaded machine's suite.)"""
import numpy as np

import ndtile as nt


def test_scalar_operators_stay_in_c():
    """Operators between arrays and Python scalars must not call back into
    Python (the binop hook)."""
    from ndtile import _umath
    calls = []
    orig = _umath.binop_hook

    def spy(*a):
        calls.append(a)
        return orig(*a)
    from ndtile import _core, _dtypes, _indexing
    _core._setup(nt.ndarray, _dtypes.DTYPES, _dtypes.SCALARS, _dtypes.INT_SCALAR_TYPES, spy,
                 _indexing.getitem, _indexing.setitem)
    try:
        x = nt.ones(10)
        y = x * 2 + 1.5 - x / 3
        y += 2
        y **= 2
        _ = (y > 1) & (y < 100)
        _ = 3 - y, 2 ** y, -y, abs(y)
        xi = nt.arange(10, dtype=np.int8)
        xi += 3
        _ = xi * 2 < 7
    finally:
        _core._setup(nt.ndarray, _dtypes.DTYPES, _dtypes.SCALARS, _dtypes.INT_SCALAR_TYPES,
                     orig, _indexing.getitem, _indexing.setitem)
    assert calls == []
