"""Real and complex parts and their tests (NumPy's lib/_type_check_impl):
real, imag, iscomplexobj, isrealobj, isreal, iscomplex, nan_to_num,
real_if_close."""

import sys

import numpy as _np

from . import _convert as C
from . import _core
from . import _dtypes as D
from . import _fallback as F
from . import _umath

Array = _core.Array


def _nt():
    return sys.modules['ndtile']


def real(val):
    if isinstance(val, (int, float, complex, _np.generic)):
        return val.real          # NumPy's val.real: a scalar's own (1.real is 1)
    x = C.asarray(val)
    if type(x) is not C.ND and isinstance(x, Array):
        return x.real            # NumPy: val.real, a subclass instance's
    if isinstance(x, Array):
        return x._real()
    return _np.real(val)


def imag(val):
    if isinstance(val, (int, float, complex, _np.generic)):
        return val.imag
    x = C.asarray(val)
    if isinstance(x, Array):
        return x.imag
    return _np.imag(val)


def iscomplexobj(x):
    if isinstance(x, Array):
        return D.KIND[x._dt] == 'c'
    return _np.iscomplexobj(x)


def isrealobj(x):
    return not iscomplexobj(x)


def _real_kind(x, name, npf):
    a = C.asarray(x)
    if not isinstance(a, Array):
        return None, F.call(f"{name} (dtype)", npf, (x,), {})
    return a, None


def isreal(x):
    a, fb = _real_kind(x, 'isreal', _np.isreal)
    if fb is not None:
        return fb
    return _umath.UFUNCS['equal'](a._imag(), 0)


def iscomplex(x):
    a, fb = _real_kind(x, 'iscomplex', _np.iscomplex)
    if fb is not None:
        return fb
    return _umath.UFUNCS['not_equal'](a._imag(), 0)


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    if not copy and isinstance(x, _np.ndarray):
        # in place into a NumPy array: NumPy's own, which returns x itself
        # (a copy into tiles would leave x as it was)
        return _np.nan_to_num(x, copy=False, nan=nan, posinf=posinf, neginf=neginf)
    a = C.asarray(x)
    if not isinstance(a, Array) or a.ndim == 0 and not isinstance(x, Array):
        return F.call("nan_to_num (scalar or dtype)", _np.nan_to_num, (x,),
                      {'copy': copy, 'nan': nan, 'posinf': posinf, 'neginf': neginf})
    k = D.KIND[a._dt]
    if k not in 'fc':
        # NumPy's x[()]: a 0-d array gives a scalar
        return a._scalar() if a.ndim == 0 else a._copy() if copy else a
    parts = [a._real(), a._imag()] if k == 'c' else [a]
    if not copy and not a._flags & 0x400:
        # NumPy writes with copyto: its message, before its casting check
        raise ValueError("assignment destination is read-only")
    res = a._copy() if copy else a
    rparts = [res._real(), res._imag()] if k == 'c' else [res]
    if a.ndim == 0:
        # one-element views: the ufuncs below give arrays (of a 0-d array,
        # NumPy's scalars)
        parts = [p._reshape((1,)) for p in parts]
        rparts = [p._reshape((1,)) for p in rparts]
    for v in (nan, posinf, neginf):
        if v is not None and not _np.can_cast(_np.asarray(v).dtype, a.dtype, 'same_kind') \
                and not isinstance(v, (int, float, complex)):
            # NumPy writes them with copyto (same_kind): its TypeError
            raise TypeError(f"Cannot cast scalar from {_np.asarray(v).dtype!r} to "
                            f"{_np.dtype(a.dtype.char.lower() if k == 'c' else a.dtype)!r} "
                            f"according to the rule 'same_kind'")
    for p, rp in zip(parts, rparts):
        fi = _np.finfo(p.dtype)
        big = fi.max if posinf is None else posinf
        small = fi.min if neginf is None else neginf
        isnan, isinf, signbit = _umath.UFUNCS['isnan'], _umath.UFUNCS['isinf'], _umath.UFUNCS['signbit']
        w = _umath.WHERE
        def conv(v, p=p):
            # an array_like nan/posinf/neginf broadcasts (NumPy's copyto)
            if _np.ndim(v) == 0:
                return _core.scalar(float(v), p._dt, False)
            v = C.asarray(v).astype(p.dtype)
            lead = v.ndim - p.ndim      # assignment drops leading 1s
            if lead > 0 and all(s == 1 for s in v.shape[:lead]):
                v = v.reshape(v.shape[lead:])
            return v
        _core.apply(w, [isnan(p), conv(nan), p], rp)
        _core.apply(w, [isinf(p) & _umath.UFUNCS['logical_not'](signbit(p)), conv(big), rp], rp)
        _core.apply(w, [isinf(p) & signbit(p), conv(small), rp], rp)
    return res._scalar() if res.ndim == 0 else res


def real_if_close(a, tol=100):
    nt = _nt()
    a = nt.asanyarray(a)
    if a.dtype.kind != 'c':
        return a
    if tol > 1:
        tol = _np.finfo(a.dtype).eps * tol
    if bool(nt.all(nt.absolute(a.imag) < tol)):
        a = a.real
    return a
