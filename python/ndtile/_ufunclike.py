"""fix, isposinf, isneginf (NumPy's lib/_ufunclike_impl)."""

import sys

import numpy as _np

from . import _dtypes as D
from . import _methods
from . import _umath
from ._type_check import _real_kind


def _nt():
    return sys.modules['ndtile']


def isposinf(x, out=None):
    if out is None and isinstance(x, (int, float, _np.generic)):
        return _np.isposinf(x)        # a scalar's: NumPy's bool scalar
    a, fb = _real_kind(x, 'isposinf', _np.isposinf)
    if fb is not None:
        return fb
    _methods.check_out_writeable(out)     # (NumPy's ufuncs write out=)
    if D.KIND[a._dt] == 'c':
        raise TypeError(f"This operation is not supported for {a.dtype} values because it "
                        "would be ambiguous.")
    r = _umath.UFUNCS['isinf'](a) & _umath.UFUNCS['logical_not'](_umath.UFUNCS['signbit'](a))
    if out is not None:
        out[...] = r
        return out
    return r


def isneginf(x, out=None):
    if out is None and isinstance(x, (int, float, _np.generic)):
        return _np.isneginf(x)        # a scalar's: NumPy's bool scalar
    a, fb = _real_kind(x, 'isneginf', _np.isneginf)
    if fb is not None:
        return fb
    _methods.check_out_writeable(out)     # (NumPy's ufuncs write out=)
    if D.KIND[a._dt] == 'c':
        raise TypeError(f"This operation is not supported for {a.dtype} values because it "
                        "would be ambiguous.")
    r = _umath.UFUNCS['isinf'](a) & _umath.UFUNCS['signbit'](a)
    if out is not None:
        out[...] = r
        return out
    return r


# ---- arithmetic helpers ------------------------------------------------------


def fix(x, out=None):
    return _nt().trunc(x, out=out)       # NumPy's fix is trunc
