"""Regression tests for bug classes the differential fuzzer found
(tests/fuzz/known_open.py, corpus fixed_*.py), each compared with NumPy:
dtypes, 0-d, empty and strided inputs, and arrays over a tile at the
default settings where the path depends on size."""
import warnings

import numpy as np
import pytest

import ndtile as nt
from _helpers import assert_same, check_same_error, tol_for


def _both(fn_nt, fn_np, rtol=0):
    """fn on both; the same error, or the same result and warnings."""
    with warnings.catch_warnings(record=True) as wn:
        warnings.simplefilter('always')
        raised, exp = check_same_error(fn_nt, fn_np)
    if raised:
        return
    with warnings.catch_warnings(record=True) as wt:
        warnings.simplefilter('always')
        got = fn_nt()
    assert_same(got, exp, rtol=rtol)
    assert sorted(w.category.__name__ for w in wt) == sorted(w.category.__name__ for w in wn)
    return got


# nan functions of complex input with a real dtype=: NumPy masks the complex
# NaNs (inf+nanj among them) before the cast

def _complex_nans(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    a = (rng.integers(-5, 5, shape) + 1j * rng.integers(-5, 5, shape)).astype(dtype)
    flat = a.reshape(-1)
    specials = [complex(np.inf, np.nan), complex(np.nan, 1), complex(np.nan, np.inf),
                complex(-np.inf, np.nan)]
    for i in range(0, flat.size, 3):
        flat[i] = specials[i % 4]
    return a


@pytest.mark.parametrize('name', ['nansum', 'nanprod', 'nanmean', 'nanvar', 'nanstd',
                                  'nancumsum', 'nancumprod'])
@pytest.mark.parametrize('cdt', ['complex64', 'complex128'])
@pytest.mark.parametrize('dt', ['float64', 'float32', 'int64', 'complex128'])
@pytest.mark.parametrize('shape', [(), (0,), (4,), (3, 4), (2, 0, 3)])
def test_nan_functions_complex_real_dtype(name, cdt, dt, shape):
    a = _complex_nans(shape, cdt)
    kws = [{}] if name.startswith('nancum') or len(shape) < 2 else [{}, {'axis': 0},
                                                                     {'axis': -1}]
    for kw in kws:
        for x_np in (a, a[::-1] if a.ndim else a):
            x_nt = nt.asarray(x_np.copy())
            _both(lambda: getattr(nt, name)(x_nt, dtype=dt, **kw),
                  lambda: getattr(np, name)(x_np, dtype=dt, **kw),
                  rtol=max(tol_for(dt, 'sum'), tol_for(cdt, 'sum')))


def test_nanmean_complex_real_dtype_scalar_and_warning():
    with pytest.warns(np.exceptions.ComplexWarning):
        r = nt.nanmean(nt.asarray([complex(np.inf, np.nan), 1 + 2j]), dtype='float64')
    assert r == 1.0 and type(r) is np.float64


@pytest.mark.default_settings
@pytest.mark.parametrize('name', ['nansum', 'nanmean', 'nanprod'])
def test_nan_functions_complex_real_dtype_big(name):
    a = _complex_nans((300, 1000), 'complex128', 3)          # 4.8 MB
    if name == 'nanprod':
        a = np.where(np.isnan(a), a, 1 + 0j)
    x = nt.asarray(a)
    for kw in ({}, {'axis': 0}, {'axis': 1}):
        _both(lambda: getattr(nt, name)(x[:, ::2], dtype='float64', **kw),
              lambda: getattr(np, name)(a[:, ::2], dtype='float64', **kw), rtol=1e-12)
