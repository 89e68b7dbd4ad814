"""NumPy's _core.fromnumeric: the functions that are also ndarray methods
(reshape, ravel, transpose, swapaxes, squeeze, clip, round, take, put,
repeat, diagonal, trace, sort, argsort, partition, searchsorted, resize,
compress, choose, ...) and the reductions (sum, prod, any, all, mean, var,
std, argmax, argmin, cumsum, cumprod, ptp)."""

import builtins
import math
import operator
import sys

import numpy as _np

from . import _convert as C
from . import _core
from . import _dtypes as D
from . import _fallback as F
from . import _order
from . import _multiarray
from . import _umath
from ._methods import (
    RO_WRITEBACK, _arg, _generic, _meanlike, _minmax, _prepare, _reduced_size, _scan,
    axes_mask, check_out, check_out_cast, check_out_writeable, check_scan_out, finish, out_code,
    reduce_nd)
from ._multiarray import copyto, where
from ._umath import (
    _c_axis, _cast, _host, _nd, _nd_or_fallback, _norm_axis, _norm_axis as _axis, _take,
    _ufn)

Array = _core.Array
_NoValue = _np._NoValue


def _nt():
    return sys.modules['ndtile']


_NO_WRAP = _umath._NO_WRAP


def _wrapreduction(a, ufunc, method, axis, dtype, out, **kwargs):
    """NumPy's fromnumeric._wrapreduction for an object a of _umath.duck_of
    (else _NO_WRAP): a's own method (axis, dtype unless None, out and the
    keywords given), else, where a brings an __array_wrap__, the ufunc's
    reduce (which wraps the result with it); _NO_WRAP for neither. (The
    keywords whose default NumPy's signature leaves unset are passed only
    when they differ from that default.)"""
    if type(a) is C.ND or not _umath.duck_of(a):
        return _NO_WRAP
    kw = {k: v for k, v in kwargs.items() if v is not _NoValue and
          not (k == 'keepdims' and v is False) and not (k == 'where' and v is True)}
    m = getattr(a, method, None)
    if m is not None:
        if dtype is not None:
            return m(axis=axis, dtype=dtype, out=out, **kw)
        return m(axis=axis, out=out, **kw)
    if ufunc is None or _umath._own_wrap(a) is None:
        return _NO_WRAP
    if method in ('any', 'all'):
        dtype = _np.bool_       # NumPy's _wrapreduction_any_all
    return _umath.UFUNCS[ufunc].reduce(a, axis, dtype, out, **kw)


def _wrapfunc(a, name, args, kwargs):
    """_umath.wrapfunc (NumPy's _wrapfunc) of a, args the method's."""
    if type(a) is C.ND:
        return _NO_WRAP
    return _umath.wrapfunc(name, (a,) + args, kwargs)


def sum(a, axis=None, dtype=None, out=None, keepdims=_NoValue, initial=_NoValue, where=_NoValue):
    keepdims = C.given(keepdims, False)
    where = C.given(where, True)
    if type(a) is not C.ND:
        r = _wrapreduction(a, 'add', 'sum', axis, dtype, out, keepdims=keepdims,
                           initial=initial, where=where)
        if r is not _NO_WRAP:
            return r
    return _generic('sum', a, axis, dtype, out, keepdims, initial, where)


def prod(a, axis=None, dtype=None, out=None, keepdims=_NoValue, initial=_NoValue, where=_NoValue):
    keepdims = C.given(keepdims, False)
    where = C.given(where, True)
    if type(a) is not C.ND:
        r = _wrapreduction(a, 'multiply', 'prod', axis, dtype, out, keepdims=keepdims,
                           initial=initial, where=where)
        if r is not _NO_WRAP:
            return r
    return _generic('prod', a, axis, dtype, out, keepdims, initial, where)


def max(a, axis=None, out=None, keepdims=_NoValue, initial=_NoValue, where=_NoValue):
    keepdims = C.given(keepdims, False)
    where = C.given(where, True)
    if type(a) is not C.ND:
        r = _wrapreduction(a, 'maximum', 'max', axis, None, out, keepdims=keepdims,
                           initial=initial, where=where)
        if r is not _NO_WRAP:
            return r
    return _minmax('max', a, axis, out, keepdims, initial, where)


def min(a, axis=None, out=None, keepdims=_NoValue, initial=_NoValue, where=_NoValue):
    keepdims = C.given(keepdims, False)
    where = C.given(where, True)
    if type(a) is not C.ND:
        r = _wrapreduction(a, 'minimum', 'min', axis, None, out, keepdims=keepdims,
                           initial=initial, where=where)
        if r is not _NO_WRAP:
            return r
    return _minmax('min', a, axis, out, keepdims, initial, where)


amax = max
amin = min


def any(a, axis=None, out=None, keepdims=_NoValue, *, where=_NoValue):
    keepdims = C.given(keepdims, False)
    where = C.given(where, True)
    if type(a) is not C.ND:
        r = _wrapreduction(a, 'logical_or', 'any', axis, None, out, keepdims=keepdims, where=where)
        if r is not _NO_WRAP:
            return r
    return _generic('any', a, axis, None, out, keepdims, _NoValue, where)


def all(a, axis=None, out=None, keepdims=_NoValue, *, where=_NoValue):
    keepdims = C.given(keepdims, False)
    where = C.given(where, True)
    if type(a) is not C.ND:
        r = _wrapreduction(a, 'logical_and', 'all', axis, None, out, keepdims=keepdims, where=where)
        if r is not _NO_WRAP:
            return r
    return _generic('all', a, axis, None, out, keepdims, _NoValue, where)


def mean(a, axis=None, dtype=None, out=None, keepdims=_NoValue, *, where=_NoValue):
    keepdims = C.given(keepdims, False)
    where = C.given(where, True)
    if type(a) is not C.ND and _umath.duck_of(a) and getattr(a, 'mean', None) is not None:
        return _own_moment(a.mean, axis, dtype, out, keepdims, where)
    return _meanlike('mean', a, axis, dtype, out, keepdims, where)


def _own_moment(method, axis, dtype, out, keepdims, where, **kw):
    """NumPy's _methods._mean/_var/_std for an object with its own method:
    the method called (no __array_wrap__), keepdims, where and kw (ddof,
    mean) passed only where given."""
    kw = {k: v for k, v in kw.items() if v is not _NoValue}
    if keepdims is not False:
        kw['keepdims'] = keepdims
    if where is not True:
        kw['where'] = where
    return method(axis=axis, dtype=dtype, out=out, **kw)


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=_NoValue, *, where=_NoValue,
        mean=_NoValue, correction=_NoValue):
    keepdims = C.given(keepdims, False)
    where = C.given(where, True)
    if correction is not _NoValue:
        if ddof != 0:
            raise ValueError("ddof and correction can't be provided simultaneously.")
        ddof = correction
    if type(a) is not C.ND and _umath.duck_of(a) and getattr(a, 'var', None) is not None:
        return _own_moment(a.var, axis, dtype, out, keepdims, where, ddof=ddof, mean=mean)
    extra = {'mean': mean} if mean is not _NoValue else None
    return _meanlike('var', a, axis, dtype, out, keepdims, where, ddof, extra)


def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=_NoValue, *, where=_NoValue,
        mean=_NoValue, correction=_NoValue):
    keepdims = C.given(keepdims, False)
    where = C.given(where, True)
    if correction is not _NoValue:
        if ddof != 0:
            raise ValueError("ddof and correction can't be provided simultaneously.")
        ddof = correction
    if type(a) is not C.ND and _umath.duck_of(a) and getattr(a, 'std', None) is not None:
        return _own_moment(a.std, axis, dtype, out, keepdims, where, ddof=ddof, mean=mean)
    extra = {'mean': mean} if mean is not _NoValue else None
    return _meanlike('std', a, axis, dtype, out, keepdims, where, ddof, extra)


def argmax(a, axis=None, out=None, *, keepdims=_NoValue):
    keepdims = C.given(keepdims, False)
    if type(a) is not C.ND:
        r = _wrapfunc(a, 'argmax', (), dict(axis=axis, out=out, **(
            {'keepdims': keepdims} if keepdims is not False else {})))
        if r is not _NO_WRAP:
            return r
    return _arg('argmax', a, axis, out, keepdims)


def argmin(a, axis=None, out=None, *, keepdims=_NoValue):
    keepdims = C.given(keepdims, False)
    if type(a) is not C.ND:
        r = _wrapfunc(a, 'argmin', (), dict(axis=axis, out=out, **(
            {'keepdims': keepdims} if keepdims is not False else {})))
        if r is not _NO_WRAP:
            return r
    return _arg('argmin', a, axis, out, keepdims)


def ptp(a, axis=None, out=None, keepdims=_NoValue):
    keepdims = C.given(keepdims, False)
    if type(a) is not C.ND and (isinstance(a, Array) or _umath._own_wrap(a) is not None):
        # NumPy's _methods._ptp: through the ufuncs, so that a subclass or an
        # object's __array_wrap__ wraps the results
        uf = _umath.UFUNCS
        return uf['subtract'](uf['maximum'].reduce(a, axis, None, out, keepdims),
                              uf['minimum'].reduce(a, axis, None, None, keepdims), out)
    p = _prepare(a, None)
    if p is None:
        return F.call("ptp (dtype)", _np.ptp, (a,), {'axis': axis, 'out': out,
                                                     'keepdims': keepdims})
    x, _ = p
    check_out('ptp', x.shape, axis, keepdims, out)
    sub = _umath.UFUNCS['subtract']
    if out_code(out) not in (None, x._dt) or (isinstance(out, Array) and out._same_memory(x)):
        # NumPy's ptp: subtract(max(out=out), min, out) - the maximum in
        # its loop for out's dtype, subtracted in out's and the minimum's
        # (int8 into a float64 out: 127 - -128 is 255), the minimum that of
        # the array as the maximum's write left it (`np.ptp(a, axis=0,
        # out=a[2])`); the subtraction's casting error after the maximum's
        # for no elements, as NumPy's order, but before any work
        if _reduced_size(x, axes_mask(axis, x.ndim, True)):
            check_out_cast('ptp', x, out)
        hi = _minmax('max', x, axis, out, keepdims, _NoValue, True)
        return sub(hi, reduce_nd('min', x, axis, D.DEFAULT, keepdims), out=out)
    # (no out=, or one of x's dtype apart from it: one pass less)
    hi = reduce_nd('max', x, axis, D.DEFAULT, keepdims)
    lo = reduce_nd('min', x, axis, D.DEFAULT, keepdims)
    if D.KIND[x._dt] == 'b':
        _np.subtract(_np.True_, _np.True_)    # NumPy's boolean-subtract TypeError
    return finish(sub._arrays(hi, lo), out)     # NumPy's ptp: subtract(max, min)


def cumsum(a, axis=None, dtype=None, out=None):
    if type(a) is not C.ND:
        r = _wrapfunc(a, 'cumsum', (), dict(axis=axis, dtype=dtype, out=out))
        if r is not _NO_WRAP:
            return r
    return _scan('cumsum', a, axis, dtype, out)


def cumprod(a, axis=None, dtype=None, out=None):
    if type(a) is not C.ND:
        r = _wrapfunc(a, 'cumprod', (), dict(axis=axis, dtype=dtype, out=out))
        if r is not _NO_WRAP:
            return r
    return _scan('cumprod', a, axis, dtype, out)


# ---- shapes ------------------------------------------------------------------


def shape_arg(shape):
    """A shape or axes argument as NumPy's C methods parse it: an int or a
    sequence of ints, a 1-d or 0-d integer array included."""
    if type(shape) is int:
        return (shape,)
    return _multiarray._shape(shape)


def reshape(a, /, shape, order='C', *, copy=None):
    if type(a) is not C.ND and isinstance(a, Array):     # NumPy calls a subclass's method
        return C.subclass_method('reshape', (a, shape), {'order': order, 'copy': copy})
    xs, fb = _nd_or_fallback('reshape', _np.reshape, (a, shape), {'order': order}, a)
    if fb is not None:
        return fb
    x = xs[0]
    if shape is not None and type(shape) is not tuple:
        shape = shape_arg(shape)
    # NumPy: a.reshape(None) is a view of a, unchanged
    if shape is None:
        r = x._view()
    else:
        # NumPy checks order= before the shape: 'K' is refused, letters in
        # either case, None is 'C'
        order = C.ravel_order(order)
        if order == 'K':
            raise ValueError("order 'K' is not permitted for reshaping")
        if order == 'F' or (order == 'A' and x._flags & 3 == 2):
            r = _order.reshape(x, shape, order)
        else:
            r = x._reshape(shape)
    if copy is False and not r._same_store(x):
        raise ValueError("Unable to avoid creating a copy while reshaping.")
    if copy and r._same_store(x):
        r = r._copy()
    return r


def ravel(a, order='C'):
    xs, fb = _nd_or_fallback('ravel', _np.ravel, (a,), {'order': order}, a)
    if fb is not None:
        return fb
    return xs[0]._ravel(C.ravel_order(order))   # a view only where NumPy's is one


def transpose(a, axes=None):
    if type(a) is not C.ND:
        r = _wrapfunc(a, 'transpose', (axes,), {})
        if r is not _NO_WRAP:
            return r
    xs, fb = _nd_or_fallback('transpose', _np.transpose, (a,), {'axes': axes}, a)
    if fb is not None:
        return fb
    x = xs[0]
    if axes is not None:
        axes = shape_arg(axes)     # NumPy: an int, a sequence or an int array
        if len(axes) != x.ndim:
            raise ValueError("axes don't match array")
        seen = set()
        for ax in axes:
            ax = _norm_axis(ax, x.ndim)
            if ax in seen:
                raise ValueError("repeated axis in transpose")
            seen.add(ax)
    return x._transpose(axes)


def permute_dims(a, axes=None):
    return transpose(a, axes)


def matrix_transpose(x, /):
    a, x = x, C.asarray(x)
    if not isinstance(x, Array):      # float16, longdouble, ...: NumPy's
        return F.call("matrix_transpose (dtype)", _np.matrix_transpose, (a,), {})
    if x.ndim < 2:
        raise ValueError("Input array must be at least 2-dimensional")
    return x._swapaxes(-1, -2)


def swapaxes(a, axis1, axis2):
    if type(a) is not C.ND:
        r = _wrapfunc(a, 'swapaxes', (axis1, axis2), {})
        if r is not _NO_WRAP:
            return r
    xs, fb = _nd_or_fallback('swapaxes', _np.swapaxes, (a, axis1, axis2), {}, a)
    if fb is not None:
        return fb
    x = xs[0]
    # NumPy's errors name the argument (axis2: axis 3 is out of bounds ...)
    norm = _np.lib.array_utils.normalize_axis_index
    return x._swapaxes(norm(operator.index(axis1), x.ndim, 'axis1'),
                       norm(operator.index(axis2), x.ndim, 'axis2'))


def squeeze(a, axis=None):
    if type(a) is not C.ND:
        r = _wrapfunc(a, 'squeeze', (), {} if axis is None else {'axis': axis})
        if r is not _NO_WRAP:
            return r
    xs, fb = _nd_or_fallback('squeeze', _np.squeeze, (a,), {'axis': axis}, a)
    if fb is not None:
        return fb
    x = xs[0]
    # NumPy returns the array itself, not a view, where no axis goes (its
    # flags, setflags included, are then the array's)
    if axis is None:
        return x._squeeze(None) if 1 in x.shape else x
    if isinstance(axis, list):
        raise TypeError("'list' object cannot be interpreted as an integer")
    if x.ndim == 0 and not isinstance(axis, tuple) and D.int_axis(axis) in (0, -1):
        return x     # NumPy: axis 0 or -1 of a 0-d array
    axes = axis if isinstance(axis, tuple) else (axis,)
    axes = tuple(_c_axis(ax, x.ndim) for ax in axes)
    if len(set(axes)) != len(axes):
        raise ValueError("duplicate value in 'axis'")
    return x._squeeze(axes) if axes else x


def clip(a, a_min=_NoValue, a_max=_NoValue, out=None, *, min=_NoValue, max=_NoValue,
         **kwargs):
    # NumPy's argument rules: both positional bounds, or the min=/max= keywords
    if a_min is _NoValue and a_max is _NoValue:
        a_min = None if min is _NoValue else min
        a_max = None if max is _NoValue else max
    elif a_min is _NoValue:
        raise TypeError("clip() missing 1 required positional argument: 'a_min'")
    elif a_max is _NoValue:
        raise TypeError("clip() missing 1 required positional argument: 'a_max'")
    elif min is not _NoValue or max is not _NoValue:
        raise ValueError("Passing `min` or `max` keyword argument when `a_min` and `a_max` are "
                         "provided is forbidden.")
    if kwargs.get('where', True) is _NoValue:
        del kwargs['where']         # (the ufunc's default, as NumPy's ufunc takes it)
    if type(a) is not C.ND and isinstance(a, Array):     # NumPy calls a subclass's method
        return C.subclass_method('clip', (a, a_min, a_max), dict(kwargs, out=out))
    if type(a) is not C.ND:
        r = _wrapfunc(a, 'clip', (a_min, a_max), dict(kwargs, out=out))
        if r is not _NO_WRAP:
            return r
    if kwargs or (out is not None and not isinstance(out, Array)):
        return F.call("clip (kwargs)", _np.clip, (a, a_min, a_max),
                      dict(kwargs, out=out))
    try:
        x = _umath.operand(a)
        lo = None if a_min is None else _umath.operand(a_min)
        hi = None if a_max is None else _umath.operand(a_max)
    except _umath._Unsupported:
        return F.call("clip (dtype)", _np.clip, (a, a_min, a_max), {'out': out})
    if not isinstance(x, Array):
        x = C.asnd(_np.asarray(x))
    if D.KIND[x._dt] in 'iu':
        # NumPy's _clip: a Python int bound at or past the type's range is
        # no bound
        info = _np.iinfo(x.dtype)
        if type(a_min) is int and a_min <= info.min:
            lo = None
        if type(a_max) is int and a_max >= info.max:
            hi = None
    if lo is None and hi is None:
        # NumPy's identity: positive (a TypeError for bool), into out=
        return _umath.UFUNCS['positive'](x, out=out)
    ops = [x] + [o for o in (lo, hi) if o is not None]
    if builtins.any(type(o) is int for o in ops[1:]):
        try:
            _umath.fix_ints(_core.UFUNC_NAMES.index('clip') if len(ops) == 3 else
                       _umath._CORE_INDEX['minimum'], ops)
        except OverflowError:
            return F.call("clip (Python int bounds)", _np.clip, (a, a_min, a_max), {'out': out})
        it = iter(ops[1:])
        lo = next(it) if lo is not None else None
        hi = next(it) if hi is not None else None
    r = _core.clip(x, lo, hi, out)
    return r if out is not None else _umath.scalar_result(r)    # (NumPy's clip is a ufunc)


def round(a, decimals=0, out=None):
    if type(a) is not C.ND and isinstance(a, Array):     # NumPy calls a subclass's method
        return C.subclass_method('round', (a,), dict(decimals=decimals, out=out))
    if type(a) is not C.ND:
        r = _wrapfunc(a, 'round', (), dict(decimals=decimals, out=out))
        if r is not _NO_WRAP:
            return r
    r = _round(a, round_decimals(decimals), out)
    # NumPy: a 0-d result (of a scalar or a 0-d array) is a scalar
    return r._scalar() if out is None and isinstance(r, Array) and r.ndim == 0 else r


def around(a, decimals=0, out=None):
    return round(a, decimals, out)


def round_decimals(decimals):
    """decimals as NumPy's round parses it: a C int ('i'), with its errors."""
    d = operator.index(decimals)
    if not -2**63 <= d < 2**63:
        raise OverflowError("Python int too large to convert to C long")
    if d > 2**31 - 1:
        raise OverflowError("signed integer is greater than maximum")
    if d < -2**31:
        raise OverflowError("signed integer is less than minimum")
    return d


def _power_of_ten(n):
    """10**n as NumPy's round computes it (products of 10.0 past 1e9, so
    its bits; inf once it overflows)."""
    if n < 9:
        return float(10 ** n)
    r = 1e9
    for _ in range(n - 9):
        r *= 10.0
        if r == math.inf:
            break
    return r


def _check_round_out(x, decimals, out):
    """NumPy's checks of round's out= (PyArray_Round), before any work: an
    array of x's shape, of a dtype the first step's loop may cast to."""
    if not isinstance(out, (Array, _np.ndarray)):
        raise TypeError("output must be an array")
    if tuple(out.shape) != x.shape:
        raise ValueError("invalid output shape")
    k = D.KIND[x._dt]
    if k == 'c':
        if out.dtype.kind != 'c':
            raise TypeError("array does not have imaginary part to set")
    elif k in 'iu' and decimals >= 0:
        if not _np.can_cast(x.dtype, out.dtype, 'same_kind'):
            raise TypeError(f"Cannot cast array data from {x.dtype!r} to {out.dtype!r} "
                            f"according to the rule 'same_kind'")
    elif k != 'b':
        # the first ufunc NumPy runs into out (integers go through float64)
        name = 'rint' if decimals == 0 else 'multiply' if decimals > 0 else 'divide'
        _umath._check_cast(name, x.dtype if k == 'f' else _np.dtype(_np.float64), out.dtype,
                           'same_kind')


def _round(a, decimals, out):
    x = C.asarray(a)
    if isinstance(x, Array) and out is not None:
        _check_round_out(x, decimals, out)
    if not isinstance(x, Array) or (out is not None and not isinstance(out, Array)):
        return F.call("round (dtype)", _np.round, (a,), {'decimals': decimals, 'out': out})
    k = D.KIND[x._dt]
    if k == 'b':
        return F.call("round (bool)", _np.round, (a,), {'decimals': decimals, 'out': out})
    if k in 'iu':
        if decimals >= 0:
            if out is None:
                return x._copy()
            out._assign(x, _core.CASTING_UNSAFE)
            return out
        if out is None:
            # NumPy's steps in float64 (x / 10**-d, rint, * 10**-d), then
            # cast back to x's dtype unsafely: ties to even, and a value
            # past the dtype's range (or NaN, once 10**-d overflows) is
            # the cast's (its "invalid value encountered in cast")
            # (in NumPy's layout: Fortran for a Fortran-ordered x, else C)
            f = x.flags.f_contiguous and not x.flags.c_contiguous
            t = _multiarray.empty(x.shape, _np.float64, order='F' if f else 'C')
            return _round(x, decimals, t)._astype(x._dt, _core.CASTING_UNSAFE)
        # into out=: the float steps, each into out (below)
    if k == 'c':
        # NumPy rounds the real and imaginary parts each as a float array
        # (complex64's in float32; never a complex multiplication)
        r = x._copy()
        r.real = _round(x.real, decimals, None)
        r.imag = _round(x.imag, decimals, None)
        if out is None:
            return r
        return _umath.UFUNCS['positive'](r, out=out)
    uf = _umath.UFUNCS
    if decimals == 0:
        return uf['rint'](x, out=out)
    # NumPy's steps: x * 10**d (x / 10**-d), rint, then back, each into
    # out where one is given (its dtype's rounding at every step)
    op1, op2 = (uf['multiply'], uf['true_divide']) if decimals > 0 else \
        (uf['true_divide'], uf['multiply'])
    f = _power_of_ten(abs(decimals))
    if out is None:
        return op2(uf['rint'](op1(x, f)), f)
    op1(x, f, out=out)
    uf['rint'](out, out=out)
    return op2(out, f, out=out)


def to_out(res, out):
    """NumPy's out= of a function that computes a new array: res copied into
    out (same_kind casting) and out returned; res itself when out is None."""
    if out is None:
        return res
    copyto(out, res)
    return out


def shape(a):
    if isinstance(a, Array):
        return a.shape
    return _np.shape(a)


def ndim(a):
    if isinstance(a, Array):
        return a.ndim
    return _np.ndim(a)


def size(a, axis=None):
    if isinstance(a, Array):
        if axis is None:
            return a.size
        # NumPy: an axis or a tuple of axes, checked (AxisError)
        axes = _np.lib.array_utils.normalize_axis_tuple(axis, a.ndim, allow_duplicate=False)
        n = 1
        for ax in axes:
            n *= a.shape[ax]
        return n
    return _np.size(a, axis)


def repeat(a, repeats, axis=None):
    x, fb = _nd(a, 'repeat', _np.repeat, (a, repeats), {'axis': axis})
    if fb is not None:
        return fb
    if axis is None or x.ndim == 0:
        if axis is not None:
            _c_axis(axis, 1)
        x, ax = x._reshape((-1,)), 0
    else:
        ax = _c_axis(axis, x.ndim)
    n = x.shape[ax]
    if not isinstance(repeats, (Array, _np.ndarray, _np.generic)):
        try:        # NumPy's OverflowError for a Python int beyond int64
            _np.array(repeats, dtype=_np.intp)
        except OverflowError:
            raise OverflowError("Python int too large to convert to C long") from None
        except (TypeError, ValueError):
            pass
    r = C.asarray(repeats)
    if not isinstance(r, Array) or D.KIND[r._dt] == 'c':
        raise TypeError(f"Cannot cast array data from {_np.asarray(repeats).dtype!r} to "
                        f"dtype('int64') according to the rule 'safe'")
    if r.ndim > 1 or (r.ndim == 1 and r.size != 1 and r.size != n):
        raise ValueError(f"operands could not be broadcast together with shape ({n},) "
                         f"{tuple(r.shape)}".replace(',)', ',)'))
    if r.size == 1:
        k = int(r._reshape(())._item())
        if k >= 2**63:
            k -= 2**64       # NumPy casts repeats to intp
        if k < 0 or n * k >= 2**63:
            # NumPy: a negative (or wrapped) length, unless the axis is empty
            if n:
                raise ValueError("negative dimensions are not allowed")
            k = 0
        shp = x.shape
        v = x._expand_dims(ax + 1)._broadcast_to(shp[:ax + 1] + (k,) + shp[ax + 1:])
        c = v._copy()
        r = c._reshape(shp[:ax] + (n * k,) + shp[ax + 1:])
        if r._same_store(c):
            _core.take_owner(r, c)      # NumPy's result owns its data
        return r
    r = r._astype(D.INT64, _core.CASTING_UNSAFE)
    if n and int(min(r)) < 0:
        raise ValueError("repeats may not contain negative values.")
    cs = cumsum(r)
    total = int(cs[-1]) if n else 0
    marks = _core.bincount(cs[:-1], None, total + 1)._view_index((slice(0, total),))
    idx = cumsum(marks)
    return take(x, idx, axis=ax)


def _index_array(indices, name='take', orig=False):
    """indices as an ndtile int64 array (NumPy's conversion and errors for
    take and the *_along_axis functions); orig: (that array, the integer
    array it was converted from: a NumPy array given, as given)."""
    if not isinstance(indices, (Array, _np.ndarray)):
        if name == 'take_along_axis':
            # NumPy reads indices.dtype
            raise AttributeError(f"'{type(indices).__name__}' object has no attribute 'dtype'")
        # NumPy converts anything else as np.array(indices, dtype=intp) does
        # (floats truncated, strings parsed, NaN or ints beyond int64 errors)
        indices = _np.array(C.to_np_tree(indices), dtype=_np.intp)
    ix = C.asarray(indices)
    if not isinstance(ix, Array):
        raise TypeError(f"Cannot cast array data from {indices.dtype!r} to dtype('int64') "
                        f"according to the rule 'same_kind'")
    k = D.KIND[ix._dt]
    if name == 'take_along_axis' and k in 'fcb':     # (take casts bool safely)
        raise IndexError("`indices` must be an integer array")
    if k in 'fc' or (name == 'put' and ix._dt == D.UINT64):
        # (put casts an index array safely, take same_kind)
        raise TypeError(f"Cannot cast array data from {ix.dtype!r} to dtype('int64') "
                        f"according to the rule '{'safe' if name == 'put' else 'same_kind'}'")
    # (a NumPy array's own layout gives NumPy's order of checking it)
    ix0 = indices if isinstance(indices, _np.ndarray) else ix
    if ix._dt != D.INT64:
        ix = ix._astype(D.INT64, _core.CASTING_UNSAFE)
    return (ix, ix0) if orig else ix


def clip_mode(mode, strict=False):
    """mode= of take/put/choose as NumPy's converter reads it: the three
    names, bytes too, or 0/1/2 (clip/wrap/raise; take and put take any other
    int as raise, choose (strict) refuses it); a near miss ('c', 'Clip') has
    its own error."""
    if mode in ('raise', 'wrap', 'clip'):
        return mode
    if mode is None:
        return 'raise'
    if isinstance(mode, bytes):
        mode = mode.decode('latin1')
    if isinstance(mode, str):
        if mode in ('raise', 'wrap', 'clip'):
            return mode
        if mode[:1] in ('c', 'C', 'w', 'W', 'r', 'R'):
            raise ValueError("Use one of 'clip', 'raise', or 'wrap' for clip mode")
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {mode!r})")
    k = C.int_scalar(mode)
    if k is not None:
        if strict and k not in (0, 1, 2):
            raise ValueError("integer clipmode must be RAISE, WRAP, or CLIP from "
                             "'numpy._core.multiarray'")
        return {0: 'clip', 1: 'wrap'}.get(k, 'raise')
    raise TypeError("clipmode not understood")


def _empty_axis_error(ix, ax):
    """NumPy's error for indices into an axis of length 0: every index is
    out of bounds, the first one is named."""
    first = int(ix._reshape((-1,))[0])
    raise IndexError(f"index {first} is out of bounds for axis {ax} with size 0")


def _fix_indices(ix, n, mode, ax, bound=False, order='C', orig=None):
    """Indices normalized into [0, n): 'raise' checks bounds (IndexError,
    naming the first bad index in NumPy's order: _in_check_order), 'wrap'
    takes them modulo n, 'clip' clips them. bound: (indices, lb, ub) with
    every value in [lb, ub): [min, max + 1) where 'raise' found them
    (indices of one sign), else [0, n). orig: the indices before their
    conversion to int64 (their layout and dtype give NumPy's order)."""
    mode = clip_mode(mode)
    lb, ub = 0, n
    if ix.size and n == 0:
        raise IndexError("cannot do a non-empty take from an empty axes.")
    if ix.size == 0:
        pass
    elif mode == 'wrap':
        ix = _ufn('remainder')(ix, n)
    elif mode == 'clip':
        ix = _core.clip(ix, 0, n - 1, None)     # (an array, 0-d too)
    else:
        lo, hi = int(min(ix)), int(max(ix))
        if hi >= n or lo < -n:
            bad = _first_out_of_bounds(ix if orig is None else orig, n, order)[1]
            raise IndexError(f"index {bad} is out of bounds for axis {ax} with size {n}")
        if lo >= 0 or hi < 0:
            lb, ub = (lo, hi + 1) if lo >= 0 else (lo + n, hi + n + 1)
        ix = where(ix < 0, ix + n, ix) if lo < 0 else ix
    return (ix, lb, ub) if bound else ix


def _in_check_order(ix, order, intp=None):
    """ix's values (an ndtile or a NumPy array) as a 1-d array in the order
    NumPy checks them: 'C' (take, put, flat), 'K' (NumPy's
    MapIterCheckIndices, for assignments, ufunc.at and several index
    arrays: its nditer's memory order, axes by decreasing absolute stride
    and negative strides reversed, but an intp array of one axis, `intp`
    when given (the indices' dtype before a conversion), in its own order),
    'S' (a getitem's one index array beside no sliced axis: axes by
    decreasing absolute stride, each in its own direction). Axes of stride
    0 only repeat values, so they are dropped."""
    intp = ix.dtype == _np.intp if intp is None else intp
    if order == 'C' or ix.ndim == 0 or (order == 'K' and ix.ndim == 1 and intp):
        return ix.ravel()
    st = ix.strides
    keep = [k for k in range(ix.ndim) if ix.shape[k] > 1 and st[k] != 0]
    v = ix[tuple(slice(None) if k in keep else 0 for k in range(ix.ndim))]
    sst = [st[k] for k in keep]
    if order == 'K':
        v = v[tuple(slice(None, None, -1) if s < 0 else slice(None) for s in sst)]
    perm = sorted(range(len(keep)), key=lambda i: -abs(sst[i]))
    return v.transpose(perm).ravel()


def _first_out_of_bounds(ix, n, order='C', intp=None):
    """(position, value) of the first index of ix (an ndtile or a NumPy
    array) outside [-n, n) in NumPy's order of checking them
    (_in_check_order: the first it meets is the one it names); the
    position counts in that order. A uint64 ix counts as NumPy's cast to
    intp (its order is the uint64 array's)."""
    flat = _in_check_order(ix, order, intp)
    if flat.dtype == _np.uint64:
        flat = flat.astype(_np.int64)
    p = int(((flat >= n) | (flat < -n)).argmax())
    return p, int(flat[p])


def _arange_at(n, pos, nd):
    return _multiarray.arange(n, dtype=_np.int64)._reshape((1,) * pos + (n,) + (1,) * (nd - pos - 1))


def _gather_along(x, ix, ax, shape, ub=None):
    """x[..., ix, ...] with ix broadcast into shape at axis ax's positions
    (its values below ub when given). The other axes go to the core as
    slices (a length-1 axis of x broadcast: step 0), so each task reads
    only the rows of x its block of the result reaches."""
    parts = [ix._broadcast_to(shape) if k == ax else (k, 0, 1 if x.shape[k] == shape[k] else 0)
             for k in range(x.ndim)]
    hi = [ub if k == ax and ub is not None else x.shape[k] for k in range(x.ndim)]
    return _core.gather(x, parts, shape, hi)


def take(a, indices, axis=None, out=None, mode='raise'):
    x, fb = _nd(a, 'take', _np.take, (a, indices), {'axis': axis, 'out': out, 'mode': mode})
    if fb is not None:
        return fb
    if axis is not None and x.ndim == 0 and D.int_axis(axis) in (0, -1):
        axis = None          # NumPy takes axis 0 or -1 of a 0-d array as none
    if axis is None:
        x, ax = x._reshape((-1,)), 0
    else:
        ax = _c_axis(axis, x.ndim)
    ix = _index_array(indices)
    shape = x.shape[:ax] + ix.shape + x.shape[ax + 1:]
    if out is not None:
        # NumPy: out of the result's shape, writeable, whose dtype casts
        # safely to a's, checked before the indices
        if tuple(out.shape) != tuple(shape):
            raise ValueError("output array does not match result of ndarray.take")
        check_out_writeable(out, RO_WRITEBACK)
        if not _np.can_cast(out.dtype, x.dtype, 'safe'):
            raise TypeError(f"Cannot cast array data from {out.dtype!r} to {x.dtype!r} "
                            f"according to the rule 'safe'")
    if 0 in shape:
        # NumPy's take raises for an empty axis only when the result has
        # elements, and checks the indices only where the axes before
        # `axis` have elements (np.take(np.zeros((0, 0)), [2], axis=1))
        mode = clip_mode(mode)
        if 0 not in x.shape[:ax] and ix.size:
            if x.shape[ax]:
                ix = _fix_indices(ix, x.shape[ax], mode, ax)
            elif mode == 'raise':
                _empty_axis_error(ix, ax)
    else:
        ix, lb, ub = _fix_indices(ix, x.shape[ax], mode, ax, bound=True)
    if 0 in shape:
        res = _multiarray.empty(shape, dtype=x.dtype)
    else:
        if lb > 0 and ix.size * 4 <= math.prod(shape):
            # the indices in [lb, ub): a take from that slice of x, with
            # indices shifted (a pass over ix, much smaller than the result)
            x = x._view_index((slice(None),) * ax + (slice(lb, ub),))
            ix, ub = _ufn('subtract')(ix, lb), ub - lb      # (ix may be 0-d: an array)
        # x's other axes as slices at their positions in the result (the
        # core's tasks then read only the rows of x their block reaches);
        # the indices' values below ub
        parts = [(k if k < ax else k - 1 + ix.ndim, 0, 1) for k in range(x.ndim)]
        parts[ax] = ix._reshape((1,) * ax + ix.shape + (1,) * (x.ndim - ax - 1))._broadcast_to(shape)
        hi = list(x.shape)
        hi[ax] = ub
        res = _core.gather(x, parts, shape, hi)
    if out is not None:
        out[...] = res
        return out
    return res._scalar() if res.ndim == 0 else res


def _put_flat(x, flat, vals):
    """x.flat[flat] = vals (both 1-d ndtile arrays), last write wins."""
    if flat.size == 0:
        return
    if vals._dt != x._dt:
        vals = vals._astype(x._dt, _core.CASTING_UNSAFE)
    # NumPy reads the values and indices before writing: ones that alias
    # the target (np.put(a, i, a[1:])) are copied first
    if vals._same_store(x):
        vals = vals._copy()
    if flat._same_store(x):
        flat = flat._copy()
    _core.put(x, flat, vals)


def _values_for(v, dtype):
    """v as an ndtile array of values to store into an array of `dtype`.
    Arrays and NumPy scalars are cast (unsafe), Python objects are converted
    as NumPy converts them into `dtype` (OverflowError for out-of-range ints,
    ValueError for NaN into ints, TypeError for complex into reals)."""
    if isinstance(v, (Array, _np.ndarray, _np.generic)):
        vals = C.asarray(v)
        if isinstance(vals, Array):
            return vals
        return C.from_numpy(_np.asarray(v).astype(dtype))
    if type(v) not in (list, tuple) and getattr(type(v), '__array__', None) is not None:
        # an array-like: its __array__ (once), which may give an ndtile
        # array (NumPy's asarray refuses that: pint's q.put(i, [1.0, 2.0]))
        vals = C.asarray(v)
        if isinstance(vals, Array):
            return vals
        return C.from_numpy(_np.asarray(vals).astype(dtype))
    arr = _np.asarray(C.to_np_tree(v) if C.has_nd(v) else v, dtype=dtype)
    vals = C.asarray(arr)
    return vals if isinstance(vals, Array) else C.from_numpy(arr.astype(dtype))


def put(a, ind, v, mode='raise'):
    if isinstance(a, _np.generic):
        # a NumPy scalar (what an ndtile 0-d result can be) has NumPy's put:
        # into a temporary 0-d array, so nothing changes, but ind is checked
        # (ndtile index or values as NumPy's: NumPy's put would dispatch
        # them back here through __array_function__)
        ind, v = (C.to_np_tree(x) if C.has_nd(x) else x for x in (ind, v))
        return _np.put(a, ind, v, mode=mode)
    if isinstance(a, _np.ndarray):
        return F.call("put (dtype)", _np.put, (a, ind, v), {'mode': mode})
    if not isinstance(a, Array):
        raise TypeError(f"argument 1 must be numpy.ndarray, not {type(a)}")
    # NumPy's order: the read-only check, the indices' conversion, an empty
    # target, the values' conversion, then the indices' bounds
    a._before_write()     # NumPy's warning for a broadcast_arrays result
    if not a.flags.writeable:
        raise ValueError("put: output array is read-only")
    ix = _index_array(ind, 'put')._reshape((-1,))
    if ix.size and a.size == 0:
        raise IndexError("cannot replace elements of an empty array")
    vals = _values_for(v, a.dtype)._reshape((-1,))
    _core.warn_complex_cast(vals._dt, a._dt)
    if ix.size == 0 or vals.size == 0:
        return None
    n = a.size
    if clip_mode(mode) == 'raise':
        lo, hi = int(min(ix)), int(max(ix))
        if lo < -n or hi >= n:
            # NumPy puts the values in order and stops at the first index
            # out of bounds: the ones before it are written
            p, bad = _first_out_of_bounds(ix, n)
            if p:
                put(a, ix._view_index((slice(0, p),)), vals, mode)
            raise IndexError(f"index {bad} is out of bounds for axis 0 with size {n}")
        if lo < 0:
            ix = where(ix < 0, ix + n, ix)
    else:
        ix = _fix_indices(ix, n, mode, 0)
    if vals.size != ix.size:
        vals = take(vals, _multiarray.arange(ix.size) % vals.size) if vals.size < ix.size else \
            vals._view_index((slice(0, ix.size),))
    _put_flat(a, ix, vals)
    return None


def diagonal(a, offset=0, axis1=0, axis2=1):
    x, fb = _nd(a, 'diagonal', _np.diagonal, (a,),
                {'offset': offset, 'axis1': axis1, 'axis2': axis2})
    if fb is not None:
        return fb
    r = _core.diagonal(x, operator.index(offset), operator.index(axis1),
                       operator.index(axis2))
    r._set_writeable(False)      # NumPy's diagonal is a read-only view
    return r


def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    if type(a) is not C.ND and isinstance(a, Array):     # NumPy calls a subclass's method
        return a.trace(offset, axis1, axis2, dtype, out)
    if dtype is not None and not D.as_dtype(dtype).isnative:
        # NumPy's trace takes a dtype of either byte order (its sum would
        # not): the result is native
        dtype = D.as_dtype(dtype).newbyteorder('=')
    return sum(diagonal(a, offset, axis1, axis2), axis=-1, dtype=dtype, out=out)


# ---- sorting (the core's stable merge sort, src/ops/sort.c) --------------------


def _check_kind(kind, stable):
    if kind is not None and stable is not None:
        raise ValueError("`kind` and keyword parameters can't be provided at the same time. "
                         "Use only one of them.")
    if kind is None:
        return
    if not isinstance(kind, str):
        raise TypeError("sort kind must be str or None (got %r)" % (kind,))
    if not kind or kind[0].lower() not in 'qhms':
        raise ValueError("sort kind must be one of 'quick', 'heap', or 'stable' "
                         f"(got '{kind}')")


def _sort_axis(axis, ndim, strict=False):
    if axis is None:
        return None
    if not strict and not isinstance(axis, (int, _np.integer)) and \
            not hasattr(axis, '__index__'):
        # sort's axis parser's message (integer argument expected, got float)
        _np.lib.array_utils.normalize_axis_index(axis, builtins.max(ndim, 1))
    ax = D.int_axis(axis) if strict else operator.index(axis)
    if ax < -ndim or ax >= ndim:
        raise _np.exceptions.AxisError(ax, ndim)
    return ax


_QUIET_NAN = {}


def _sort_flags(dtype, kind, stable):
    """NDT_SORT_QUIET_NAN (2) when NumPy's sort of this kind writes every NaN
    as the quiet NaN (its vectorised quicksort and heapsort on x86 do; its
    stable sort keeps each NaN's bits, as ndtile's does). Asked of NumPy
    once per (dtype, kind), so the bits follow the NumPy of this machine."""
    if dtype.kind != 'f':
        return 0
    k = 's' if stable else (kind or 'q')[0].lower()
    q = _QUIET_NAN.get((dtype.char, k))
    if q is None:
        kind = {'q': 'quicksort', 'h': 'heapsort', 'm': 'mergesort', 's': 'stable'}[k]
        probe = _np.array([1.0, -_np.nan, -_np.nan], dtype)
        q = _QUIET_NAN[dtype.char, k] = not _np.signbit(_np.sort(probe, kind=kind)).any()
    return 2 if q else 0


def sort(a, axis=-1, kind=None, order=None, *, stable=None):
    """NumPy's sort (NaNs last): a stable sort for every kind, NaN bits as
    NumPy's sort of that kind writes them."""
    if type(a) is not C.ND and isinstance(a, Array):
        r = a.copy(order='K')      # NumPy: a copy of the subclass instance, sorted
        r.sort(axis=axis, kind=kind, order=order, stable=stable)
        return r
    x = C.asarray(a)
    if order is not None or not isinstance(x, Array):
        return F.call("sort", _np.sort, (a,), dict(axis=axis, kind=kind, order=order,
                                                    stable=stable))
    _check_kind(kind, stable)
    return _core.sort(x, _sort_axis(axis, x.ndim), _sort_flags(x.dtype, kind, stable))


def argsort(a, axis=-1, kind=None, order=None, *, stable=None):
    """NumPy's argsort; stable for every kind (ties keep their order)."""
    if type(a) is not C.ND:
        r = _wrapfunc(a, 'argsort', (), dict(axis=axis, kind=kind, order=order, stable=stable))
        if r is not _NO_WRAP:
            return r
    if type(a) is not C.ND and isinstance(a, Array):
        return C.subclass_method('argsort', (a,), dict(axis=axis, kind=kind, order=order,
                                                        stable=stable))
    x = C.asarray(a)
    if order is not None or not isinstance(x, Array):
        return F.call("argsort", _np.argsort, (a,), dict(axis=axis, kind=kind, order=order,
                                                          stable=stable))
    _check_kind(kind, stable)
    if x.ndim == 0:
        # NumPy: argsort of a 0-d array is [0], its axis checked as of a 1-d one
        _sort_axis(axis, 1, True)
        axis = None
    return _core.sort(x, _sort_axis(axis, x.ndim, True), True)


def resize(a, new_shape):
    nt = _nt()
    if isinstance(new_shape, (int, _np.integer)):
        new_shape = (new_shape,)
    if isinstance(new_shape, Array):
        new_shape = C.to_numpy(new_shape)
    shape_in = tuple(new_shape)    # the final reshape gets these (bools rejected there)
    # NumPy's own loop (its errors for odd elements: a 1-d row is ambiguous)
    for s in shape_in:
        if s < 0:
            raise ValueError("all elements of `new_shape` must be non-negative")
    new_shape = tuple(operator.index(s) for s in shape_in)
    a = nt.ravel(a)
    size = math.prod(new_shape)
    if a.size == 0 or size == 0:
        return nt.zeros_like(a, shape=shape_in)     # (a subclass instance keeps its class)
    # a new array, as NumPy's (a[:size] alone would be a view of the input);
    # tile is one broadcast copy where concatenate took reps operands
    return nt.tile(a, -(-size // a.size))[:size].reshape(shape_in)


# ---- selecting ---------------------------------------------------------------


def compress(condition, a, axis=None, out=None):
    if type(a) is not C.ND:
        r = _wrapfunc(a, 'compress', (condition,), dict(axis=axis, out=out))
        if r is not _NO_WRAP:
            return r
    nt = _nt()
    cond = _np.asarray(C.to_np_tree(condition))
    if cond.ndim != 1:
        raise ValueError("condition must be a 1-d array")
    a = nt.asarray(a)
    if axis is None:
        a = a.ravel()
        axis = 0
    axis = _axis(axis, a.ndim)
    idx = _np.flatnonzero(cond)
    # NumPy's compress is a take (its out= rules and index checks too)
    return nt.take(a, nt.asarray(idx.astype(_np.int64)), axis=axis, out=out)


def choose(a, choices, out=None, mode='raise'):
    if type(a) is not C.ND:
        r = _wrapfunc(a, 'choose', (choices,), dict(out=out, mode=mode))
        if r is not _NO_WRAP:
            return r
    nt = _nt()
    idx = nt.asarray(a)
    if idx.dtype.kind not in 'iub':
        raise TypeError(f"Cannot cast array data from {idx.dtype!r} to dtype('int64') "
                        "according to the rule 'safe'")
    raw = list(choices)
    choices = [nt.asarray(c) for c in raw]
    n = len(choices)
    if n == 0:
        raise ValueError("0-length sequence.")
    if n + 1 > 64:      # NumPy's limit on the operands (a counts too)
        raise ValueError("Need at least 0 and at most 64 array objects.")
    mode = clip_mode(mode, strict=True)
    if mode == 'wrap':
        idx = nt.mod(idx, n)
    elif mode == 'clip':
        idx = nt.clip(idx, 0, n - 1)
    elif mode != 'raise':       # ('raise' is checked on the broadcast result, below)
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {mode!r})")
    # Python scalars are weak (NEP 50): choose([0], (1000, uint8 array)) is uint8
    dtype = _np.result_type(*[c if type(c) in (bool, int, float, complex) else d.dtype
                              for c, d in zip(raw, choices)])
    # (NumPy broadcasts the choices, then the indices: its error's arg numbers)
    shape = _np.broadcast_shapes(*[tuple(c.shape) for c in choices], tuple(idx.shape))
    if out is not None and tuple(out.shape) != shape:
        raise TypeError("choose: invalid shape for output array.")
    check_out_writeable(out)
    # NumPy checks the indices of the broadcast result's elements: none
    # when it is empty, after the broadcast's and out='s errors
    if mode == 'raise' and 0 not in shape and idx.size and \
            (bool(nt.any(idx < 0)) or bool(nt.any(idx >= n))):
        raise ValueError("invalid entry in choice array")
    r = nt.broadcast_to(choices[0].astype(dtype, copy=False), shape)
    for k in range(1, n):
        r = nt.where(idx == k, choices[k].astype(dtype, copy=False), r)
    r = nt.asarray(r).copy() if n == 1 else r
    if out is None:
        return _umath.scalar_result(r)      # (NumPy's PyArray_Return)
    copyto(out, r, casting='unsafe')      # NumPy casts into out= unsafely (FORCECAST)
    return out


def cumulative_sum(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    return _cumulative('cumsum', 0, x, axis, dtype, out, include_initial)


def cumulative_prod(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    return _cumulative('cumprod', 1, x, axis, dtype, out, include_initial)


def _cumulative(name, initial, x, axis, dtype, out, include_initial):
    check_out_writeable(out)    # (a ufunc's accumulate: before the shape checks)
    nt = _nt()
    x = nt.asarray(x)
    if x.ndim == 0:
        x = x.reshape((1,))
    if axis is None:
        if x.ndim > 1:
            raise ValueError("For arrays which have more than one dimension ``axis`` "
                             "argument is required.")
        axis = 0
    ax = _axis(axis, x.ndim)
    shape = list(x.shape)
    shape[ax] += bool(include_initial)
    check_scan_out(shape, out)
    r = getattr(nt, name)(x, axis=ax, dtype=dtype)
    if include_initial:
        shape = list(x.shape)
        shape[ax] = 1
        r = nt.concatenate((nt.full(tuple(shape), initial, dtype=r.dtype), r), axis=ax)
    return to_out(r, out)


# ---- partition ----------------------------------------------------------------


def _kth_list(kth):
    k = _host(kth)
    if k.ndim > 1:
        if isinstance(kth, (Array, _np.ndarray)):
            raise ValueError("object too deep for desired array")
        raise ValueError("setting an array element with a sequence. The requested array "
                         "would exceed the maximum number of dimension of 1.")
    if k.dtype.kind == 'b':
        raise ValueError("Booleans unacceptable as partition index")
    if k.dtype.kind not in 'iu':
        raise TypeError("Partition index must be integer")
    return [int(v) for v in k.ravel()]


def _check_kth(ks, n):
    """NumPy's bounds check of kth, which it reports after adding n to a
    negative kth."""
    for k in ks:
        kk = k + n if k < 0 else k
        if not 0 <= kk < n:
            raise ValueError(f"kth(={kk}) out of bounds ({n})")


def _check_select_kind(kind):
    if not isinstance(kind, (str, bytes)):
        raise TypeError(f"select kind must be str, not {type(kind).__name__}")
    if kind not in ('introselect', b'introselect'):
        raise ValueError(f"select kind must be 'introselect' (got {kind!r})".replace('"', "'"))


def _partition(name, a, kth, axis, kind, order, want):
    x = C.asarray(a)
    if order is not None or not isinstance(x, Array):
        npf = _np.argpartition if want else _np.partition
        return F.call(name, npf, (a, kth), dict(axis=axis, kind=kind, order=order))
    _check_select_kind(kind)
    ks = _kth_list(kth)
    if want and x.ndim == 0:
        axis = None          # NumPy: argpartition of a 0-d array is [0]
    if axis is not None:
        axis = operator.index(axis)
        if not -x.ndim <= axis < x.ndim:
            raise _np.exceptions.AxisError(axis, x.ndim)
    if not x.size:
        # NumPy checks no kth of an empty array: an empty result
        shape = (0,) if axis is None else x.shape
        return _core.empty(shape, D.code(_np.dtype(_np.intp))) if want else \
            (x._reshape((0,)) if axis is None else x)._copy()
    _check_kth(ks, x.size if axis is None else x.shape[axis])
    return _core.partition(x, axis, ks, want)


def partition(a, kth, axis=-1, kind='introselect', order=None):
    """NumPy's partition (introselect per line; NaNs last)."""
    return _partition('partition', a, kth, axis, kind, order, False)


def argpartition(a, kth, axis=-1, kind='introselect', order=None):
    """NumPy's argpartition (introselect per line; NaNs last)."""
    if type(a) is not C.ND:
        r = _wrapfunc(a, 'argpartition', (kth,), dict(axis=axis, kind=kind, order=order))
        if r is not _NO_WRAP:
            return r
    if type(a) is not C.ND and isinstance(a, Array):
        return C.subclass_method('argpartition', (a, kth),
                                 dict(axis=axis, kind=kind, order=order))
    return _partition('argpartition', a, kth, axis, kind, order, True)


# ---- searchsorted -------------------------------------------------------------


def _side(side):
    """NumPy's side converter: the two names (bytes too); a near miss ('r',
    'Left') has its own error; anything but a string a TypeError."""
    if side == 'left' or side == 'right':
        return side == 'right'
    if isinstance(side, bytes):
        side = side.decode('latin1')
        if side in ('left', 'right'):
            return side == 'right'
    if not isinstance(side, str):
        raise TypeError(f"search side must be str, not {type(side).__name__}")
    if side[:1] in ('l', 'L', 'r', 'R'):
        raise ValueError("search side must be one of 'left' or 'right'")
    raise ValueError(f"search side must be 'left' or 'right' (got {side!r})")


def _common(x, v, vorig):
    """x and v cast to NumPy's common dtype. NumPy's searchsorted promotes the
    two dtypes strongly (PyArray_DescrFromObject): a Python scalar counts as
    the array it makes (-4 is int64, so uint64 with -4 is float64, and int8
    with 300 is int64), never as a weak scalar cast into x's dtype."""
    dt = _np.promote_types(x.dtype, v.dtype)
    if D.code(dt) is None:
        return None
    return _cast(x, dt), _cast(v, dt)


def searchsorted(a, v, side='left', sorter=None):
    """NumPy's searchsorted: binary search per value, tasks over tiles of v."""
    if type(a) is not C.ND:
        r = _wrapfunc(a, 'searchsorted', (v,), dict(side=side, sorter=sorter))
        if r is not _NO_WRAP:
            return r
    x, y = C.asarray(a), C.asarray(v)
    s = None if sorter is None else C.asarray(sorter)
    if not isinstance(x, Array) or not isinstance(y, Array) or \
            (s is not None and not isinstance(s, Array)):
        return F.call("searchsorted", _np.searchsorted, (a, v),
                      dict(side=side, sorter=sorter))
    right = _side(side)
    if x.ndim == 0:
        raise ValueError("object of too small depth for desired array")
    if x.ndim > 1:
        raise ValueError("object too deep for desired array")
    if s is not None:
        if s.dtype.kind not in 'iu':
            raise TypeError("sorter must only contain integers")
        if s.size != x.size:
            raise ValueError("sorter.size must equal a.size")
        s = ravel(s)
        if s.size and (int(min(s)) < 0 or int(max(s)) >= x.size):
            raise ValueError("Sorter index out of range.")
        x = _take(x, _cast(s, _np.dtype(_np.int64)))
    c = _common(x, y, v)
    if c is None:
        return F.call("searchsorted", _np.searchsorted, (a, v), dict(side=side, sorter=sorter))
    r = _core.searchsorted(c[0], c[1], right)
    return r[()] if r.ndim == 0 else r
