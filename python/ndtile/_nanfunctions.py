"""The NaN-skipping functions (NumPy's lib/_nanfunctions_impl): nansum,
nanprod, nanmax, nanmin, nanmean, nanvar, nanstd, nanargmax, nanargmin,
nancumsum, nancumprod, nanmedian, nanquantile, nanpercentile."""

import sys

import numpy as _np

from . import _convert as C
from . import _core
from . import _dtypes as D
from . import _fallback as F
from ._umath import _ufn
from . import _fromnumeric
from . import _methods
from . import _multiarray
from . import _umath
from ._fromnumeric import mean
from ._function_base import _quantile
from ._methods import _generic, _minmax, _prepare, _scan, check_out, finish, reduce_nd
from ._umath import _fallback_kw

Array = _core.Array
_NoValue = _np._NoValue


def _nt():
    return sys.modules['ndtile']


_u = _ufn          # a ufunc by name


def nansum(a, axis=None, dtype=None, out=None, keepdims=_NoValue, initial=_NoValue, where=_NoValue):
    keepdims = C.given(keepdims, False)
    where = C.given(where, True)
    return _generic('nansum', a, axis, dtype, out, keepdims, initial, where)


def nanprod(a, axis=None, dtype=None, out=None, keepdims=_NoValue, initial=_NoValue,
            where=_NoValue):
    keepdims = C.given(keepdims, False)
    where = C.given(where, True)
    return _generic('nanprod', a, axis, dtype, out, keepdims, initial, where)


def nanmax(a, axis=None, out=None, keepdims=_NoValue, initial=_NoValue, where=_NoValue):
    keepdims = C.given(keepdims, False)
    where = C.given(where, True)
    return _minmax('nanmax', a, axis, out, keepdims, initial, where)


def nanmin(a, axis=None, out=None, keepdims=_NoValue, initial=_NoValue, where=_NoValue):
    keepdims = C.given(keepdims, False)
    where = C.given(where, True)
    return _minmax('nanmin', a, axis, out, keepdims, initial, where)


def _sub_wrap(a, out, f):
    """f(a's plain view) for a subclass instance a, its result of the
    instance's class (NumPy reduces the instance itself); None for anything
    else."""
    if type(a) is C.ND or not isinstance(a, Array) or out is not None:
        return None
    return C.subclass_like(C.asarray(f(a._view())), a)


def nanmean(a, axis=None, dtype=None, out=None, keepdims=_NoValue, *, where=_NoValue):
    keepdims = C.given(keepdims, False)
    where = C.given(where, True)
    r = _sub_wrap(a, out, lambda v: nanmean(v, axis, dtype, None, keepdims, where=where))
    if r is not None:
        return r
    p = _prepare(a, dtype)
    if p is None or where is not True:
        return F.call("nanmean", _np.nanmean, (a,),
                      _fallback_kw(axis, dtype, out, keepdims, where=where))
    x, dtc = p
    if D.KIND[x._dt] not in 'fc':
        # NumPy: no NaN to skip, np.mean (whose dtype= rules differ)
        return mean(x, axis, dtype, out, keepdims)
    _nan_dtype_check(dtype, out)
    check_out('nanmean', x.shape, axis, keepdims, out)
    isnan = _umath.UFUNCS['isnan']._arrays(x)
    if D.KIND[x._dt] == 'c' and dtc != D.DEFAULT and D.KIND[dtc] != 'c':
        # NumPy replaces the NaNs before the sum casts them to a real dtype=
        # (inf+nanj is a NaN, its real part alone inf)
        s = reduce_nd('sum', _multiarray.where(isnan, 0, x), axis, dtc, keepdims)
    else:
        s = reduce_nd('nansum', x, axis, dtc, keepdims)
    notnan = _umath.UFUNCS['logical_not']._arrays(isnan)
    n = reduce_nd('sum', notnan, axis, D.DEFAULT, keepdims)
    r = _divide_by_count(s, n, s._dt if D.KIND[s._dt] in 'fc' else D.FLOAT64)
    if bool(_fromnumeric.any(_u('equal')(n, 0))):
        F.warn("Mean of empty slice", RuntimeWarning)
    return finish(r, out)


def _divide_by_count(a, b, dtc=D.DEFAULT):
    """a / b as NumPy's _divide_by_count: invalid and divide by zero ignored
    (an all-NaN slice warns instead), a 0-d `a` divided as a NumPy scalar
    (its errors "... in scalar divide")."""
    with _np.errstate(invalid='ignore', divide='ignore'):
        if a.ndim == 0:
            _core.fp_group_begin('scalar divide')
        try:
            return _core.apply(_umath._CORE_INDEX['divide'], [a, b], None, dtc)
        finally:
            if a.ndim == 0:
                _core.fp_group_end()


def _nan_dtype_check(dtype, out):
    """NumPy's nanmean/nanvar/nanstd checks for an inexact input."""
    if dtype is not None and D.KIND[D.code_of(dtype)] not in 'fc':
        raise TypeError("If a is inexact, then dtype must be inexact")
    if out is not None and out.dtype.kind not in 'fc':
        raise TypeError("If a is inexact, then out must be inexact")


def nancumsum(a, axis=None, dtype=None, out=None):
    return _scan('nancumsum', a, axis, dtype, out)


def nancumprod(a, axis=None, dtype=None, out=None):
    return _scan('nancumprod', a, axis, dtype, out)


def nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims=_NoValue):
    keepdims = C.given(keepdims, False)
    nt = _nt()
    x = nt.asarray(a)
    if not isinstance(x, Array):         # (timedelta: NaT is skipped as NaN)
        return F.call("nanmedian (dtype)", _np.nanmedian, (a,),
                      dict(axis=axis, out=out, overwrite_input=overwrite_input,
                           keepdims=keepdims))
    if x.size == 0:
        # NumPy's nanmedian of no elements is their nanmean (whatever the
        # dtype: median itself fails on some empty transposed inputs)
        return nanmean(x, axis, out=out, keepdims=keepdims)
    if x.dtype.kind not in 'fc':
        r = nt.median(x, axis=axis, keepdims=keepdims)
        if out is None:
            return r
        out[...] = r        # NumPy's nanmedian ends in out[...] = result (unsafe)
        return out
    return _quantile('nanquantile', _np.nanquantile, x, 0.5, axis, out, False, 'midpoint',
                     keepdims, None, False, True, median=True) if x.dtype.kind == 'f' else \
        F.call("nanmedian (complex)", _np.nanmedian, (a,),
               dict(axis=axis, out=out, keepdims=keepdims))


def nanquantile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
                keepdims=_NoValue, *, weights=None):
    """NumPy's nanquantile: NaNs sort last, so each line's valid length picks
    its indices."""
    keepdims = C.given(keepdims, False)
    return _quantile('nanquantile', _np.nanquantile, a, q, axis, out, overwrite_input, method,
                     keepdims, weights, False, True)


def nanpercentile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
                  keepdims=_NoValue, *, weights=None):
    """NumPy's nanpercentile (see nanquantile)."""
    keepdims = C.given(keepdims, False)
    return _quantile('nanpercentile', _np.nanpercentile, a, q, axis, out, overwrite_input,
                     method, keepdims, weights, True, True)


def _nanarg(name, a, axis, out, keepdims):
    if axis is not None or keepdims:          # (a full argmin is NumPy's int)
        r = _sub_wrap(a, out, lambda v: _nanarg(name, v, axis, None, keepdims))
        if r is not None:
            return r
    x = C.asarray(a)
    if not isinstance(x, Array):
        return F.call(f"{name} (dtype)", getattr(_np, name), (a,),
                      {'axis': axis, 'out': out, 'keepdims': keepdims})
    base = 'argmax' if name == 'nanargmax' else 'argmin'
    if D.KIND[x._dt] not in 'fc':
        return _methods._arg(base, x, axis, out, keepdims)
    mask = _u('isnan')(x)
    allnan = _fromnumeric.all(mask, axis=axis)
    # (NumPy looks only in a non-empty input: argmin's own error for empty)
    if x.size and bool(_fromnumeric.any(allnan)):
        raise ValueError("All-NaN slice encountered")
    fill = -_np.inf if base == 'argmax' else _np.inf
    y = _core.apply(_ufunc_where(), [mask, _core.scalar(fill, x._dt, False), x])
    return _methods._arg(base, y, axis, out, keepdims)


def _ufunc_where():
    return _umath.WHERE


def nanargmax(a, axis=None, out=None, *, keepdims=_NoValue):
    keepdims = C.given(keepdims, False)
    return _nanarg('nanargmax', a, axis, out, keepdims)


def nanargmin(a, axis=None, out=None, *, keepdims=_NoValue):
    keepdims = C.given(keepdims, False)
    return _nanarg('nanargmin', a, axis, out, keepdims)


def _nanvar_nd(x, axis, dtype, ddof, keepdims):
    """nanvar as an ndtile array (0-d for a full reduction), in NumPy's
    steps: deviations and squares in the input dtype, sums in `dtype`."""
    k = D.KIND[x._dt]
    sumc = D.DEFAULT if dtype is None else D.code_of(dtype)
    if k not in 'fc':
        return _methods.reduce_nd('var', x, axis, sumc, keepdims, ddof=ddof)
    mask = _u('isnan')(x)
    W = _ufunc_where()
    zero = _core.scalar(0, x._dt, False)
    x0 = _core.apply(W, [mask, zero, x])
    cnt = _methods.reduce_nd('sum', _u('logical_not')(mask), axis, D.DEFAULT, True)
    s1 = _methods.reduce_nd('sum', x0, axis, sumc, True)
    avg = _divide_by_count(s1, cnt)
    if avg._dt != s1._dt:
        avg = avg._astype(s1._dt, _core.CASTING_UNSAFE)
    d = _u('subtract')(x, avg)
    if d._dt != x._dt:
        d = d._astype(x._dt, _core.CASTING_UNSAFE)
    d = _core.apply(W, [mask, zero, d])
    if k == 'c':
        sq = _u('add')(_u('multiply')(d._real(), d._real()), _u('multiply')(d._imag(), d._imag()))
    else:
        sq = _u('multiply')(d, d)
    s = _methods.reduce_nd('sum', sq, axis, sumc, keepdims)
    dof = _u('subtract')(cnt if keepdims else cnt._reshape(s.shape), ddof)
    bad = _u('less_equal')(dof, 0)
    if bool(_fromnumeric.any(bad)):
        F.warn("Degrees of freedom <= 0 for slice.", RuntimeWarning)
    v = _divide_by_count(s, dof)
    if v._dt != s._dt:
        v = v._astype(s._dt, _core.CASTING_UNSAFE)
    return _core.apply(W, [bad, _core.scalar(_np.nan, v._dt, False), v])


def _nanvarlike(name, a, axis, dtype, out, ddof, keepdims, where, mean, correction):
    if correction is not _NoValue:
        if ddof != 0:
            raise ValueError("ddof and correction can't be provided simultaneously.")
        ddof = correction
    x = C.asarray(a)
    if not isinstance(x, Array) or where is not True or mean is not _NoValue or \
            (dtype is not None and D.code_of(dtype) is None):
        kw = dict(axis=axis, dtype=dtype, out=out, ddof=ddof, keepdims=keepdims)
        if where is not True:
            kw['where'] = where
        if mean is not _NoValue:
            kw['mean'] = mean
        return F.call(f"{name} (where=/mean=/dtype)", getattr(_np, name), (a,), kw)
    if D.KIND[x._dt] not in 'fc':
        # NumPy: no NaN to skip, np.var/np.std (whose dtype= rules differ)
        return getattr(_fromnumeric, name[3:])(x, axis, dtype, out, ddof, keepdims)
    _nan_dtype_check(dtype, out)
    _methods.axes_mask(axis, x.ndim, True)   # axis errors first (x is inexact here)
    _methods.check_out(name, x.shape, axis, keepdims, out)
    _methods.check_out_cast(name, x, out)
    if dtype is not None and D.KIND[x._dt] == 'c':
        # NumPy's sums run in dtype: a real one warns of the complex cast
        _core.warn_complex_cast(x._dt, D.code_of(dtype))
    v = _nanvar_nd(x, axis, dtype, ddof, bool(keepdims))
    if name == 'nanstd':
        v = _u('sqrt')(v)
    return _methods.finish(v, out)


def nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=_NoValue, *, where=_NoValue,
           mean=_NoValue, correction=_NoValue):
    keepdims = C.given(keepdims, False)
    where = C.given(where, True)
    r = _sub_wrap(a, out, lambda v: nanvar(v, axis, dtype, None, ddof, keepdims, where=where,
                                           mean=mean, correction=correction))
    return r if r is not None else \
        _nanvarlike('nanvar', a, axis, dtype, out, ddof, keepdims, where, mean, correction)


def nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=_NoValue, *, where=_NoValue,
           mean=_NoValue, correction=_NoValue):
    keepdims = C.given(keepdims, False)
    where = C.given(where, True)
    r = _sub_wrap(a, out, lambda v: nanstd(v, axis, dtype, None, ddof, keepdims, where=where,
                                           mean=mean, correction=correction))
    return r if r is not None else \
        _nanvarlike('nanstd', a, axis, dtype, out, ddof, keepdims, where, mean, correction)
