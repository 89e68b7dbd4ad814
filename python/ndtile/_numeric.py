"""NumPy's _core.numeric: ones, full, the *_like functions, moveaxis,
rollaxis, argwhere, flatnonzero, isclose, allclose, array_equal, outer,
tensordot, roll, convolve, correlate, indices, cross, count_nonzero, inner,
vdot, astype, isscalar, fromfunction, isfortran."""

import builtins
import operator
import sys

import numpy as _np

from . import _convert as C
from . import _core
from . import _dtypes as D
from . import _fallback as F
from . import _order as _O
from ._array_api import _check_device as _device
from . import _fromnumeric
from . import _multiarray
from . import _umath
from ._fromnumeric import ravel, swapaxes
from ._methods import _RED, _prepare, axes_mask, finish
from ._multiarray import _creation_order, _like, _shape, concatenate, nonzero, stack, zeros
from ._umath import _nd, _nd_or_fallback

Array = _core.Array


def _nt():
    return sys.modules['ndtile']


def ones(shape, dtype=None, order='C', *, device=None, like=None):
    if like is not None:
        liked = C.like_call(like, ones, locals())
        if liked is not C.NO_LIKE:
            return liked
    if device is not None:
        _device(device)
    c = D.code_of(dtype)
    if c is None:
        return _np.ones(shape, dtype=dtype, order=order)
    if order != 'C':
        _creation_order(order)
        if order in ('F', 'f'):
            return _O.f_empty(_shape(shape), c, (_core.ones,))
    return _core.ones(shape if type(shape) is tuple else _shape(shape), c)


def full(shape, fill_value, dtype=None, order='C', *, device=None, like=None):
    if like is not None:
        liked = C.like_call(like, full, locals())
        if liked is not C.NO_LIKE:
            return liked
    if device is not None:
        _device(device)
    if order != 'C':
        _creation_order(order)
    if isinstance(fill_value, Array) and fill_value.ndim == 0:
        fill_value = fill_value._scalar()
    if isinstance(fill_value, (Array, _np.ndarray, list, tuple)):
        # (a fill of non-native byte order gives NumPy's array of its dtype)
        fv = C.asarray(fill_value, None if dtype is None else D.as_dtype(dtype), native=False)
        dt = fv.dtype if dtype is None else D.as_dtype(dtype)
        c = D.code(dt)
        if c is None or not isinstance(fv, Array):
            return _np.full(shape, C.to_np_tree(fill_value), dtype=dt, order=order)
        r = _core.empty(_shape(shape), c) if order not in ('F', 'f') else \
            _O.f_empty(_shape(shape), c)
        r._assign(fv, _core.CASTING_UNSAFE)
        return r
    dt = _np.array(fill_value).dtype if dtype is None else D.as_dtype(dtype)
    c = D.code(dt)
    if c is None:
        return _np.full(shape, fill_value, dtype=dt, order=order)
    v = _np.full((), fill_value, dtype=dt)     # NumPy's conversion rules and errors
    if order in ('F', 'f'):
        return _O.f_empty(_shape(shape), c, (_core.full, v.item()))
    return _core.full(_shape(shape), c, v.item())


def zeros_like(a, dtype=None, order='K', subok=True, shape=None, *, device=None):
    return _like(zeros, a, dtype, order, subok, shape, device)


def ones_like(a, dtype=None, order='K', subok=True, shape=None, *, device=None):
    return _like(ones, a, dtype, order, subok, shape, device)


def full_like(a, fill_value, dtype=None, order='K', subok=True, shape=None, *, device=None):
    return _like(full, a, dtype, order, subok, shape, device, fill_value)


def count_nonzero(a, axis=None, *, keepdims=False):
    p = _prepare(a, None)
    if p is None:
        return F.call("count_nonzero (dtype)", _np.count_nonzero, (a,),
                      {'axis': axis, 'keepdims': keepdims})
    x, _ = p
    r = _core.reduce(_RED['count_nonzero'], x, axes_mask(axis, x.ndim, True), bool(keepdims),
                     D.DEFAULT, 0)
    return finish(r, None)


def moveaxis(a, source, destination):
    xs, fb = _nd_or_fallback('moveaxis', _np.moveaxis, (a, source, destination), {}, a)
    if fb is not None:
        return fb
    x = xs[0]
    src = _np.lib.array_utils.normalize_axis_tuple(source, x.ndim, 'source')
    dst = _np.lib.array_utils.normalize_axis_tuple(destination, x.ndim, 'destination')
    if len(src) != len(dst):
        raise ValueError('`source` and `destination` arguments must have the same number of '
                         'elements')
    order = [n for n in range(x.ndim) if n not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return x._transpose(tuple(order))


def rollaxis(a, axis, start=0):
    x = C.asarray(a)
    if not isinstance(x, Array):      # float16, longdouble, ...: NumPy's
        return F.call("rollaxis (dtype)", _np.rollaxis, (a, axis, start), {})
    n = x.ndim
    axis = _np.lib.array_utils.normalize_axis_index(axis, n)   # NumPy's errors
    if start < 0:
        start += n
    if not (0 <= start < n + 1):
        raise _np.exceptions.AxisError(f"'start' arg requires {-n} <= start < {n + 1}, but "
                                       f"{start} was passed in")
    if axis < start:
        start -= 1
    if axis == start:
        return x[...]
    axes = list(range(n))
    axes.remove(axis)
    axes.insert(start, axis)
    return x._transpose(tuple(axes))


def argwhere(a):
    x = C.asarray(a)
    if not isinstance(x, Array) or x.ndim == 0:
        return F.call("argwhere", _np.argwhere, (a,), {})
    return _core.argwhere(x)


def flatnonzero(a):
    return nonzero(ravel(a))[0]


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    if not (isinstance(a, Array) or isinstance(b, Array)):
        return _np.isclose(C.to_np_tree(a), C.to_np_tree(b), rtol, atol, equal_nan)
    try:
        x = _umath.operand(a)
        y = _umath.operand(b)
    except _umath._Unsupported:
        # an operand the core cannot hold (str, object, float16): NumPy's
        # result or NumPy's exception (DTypePromotionError, TypeError)
        return F.call("isclose (dtype)", _np.isclose, (a, b, rtol, atol, equal_nan), {})
    absolute, isfinite = _umath.UFUNCS['absolute'], _umath.UFUNCS['isfinite']
    if isinstance(y, Array):
        if D.KIND[y._dt] not in 'fc':
            y = y._astype(D.FLOAT64, _core.CASTING_UNSAFE)
        ay = absolute(y)
    else:
        y = float(y) if not isinstance(y, complex) else y
        ay = abs(y)         # a Python scalar, weak as in NumPy (NEP 50)
    # Python scalar tolerances stay weak, others are arrays (NumPy's rule)
    atol, rtol = (t if isinstance(t, (int, float, complex)) else C.asarray(t)
                  for t in (atol, rtol))
    if not (_all_finite(atol) and _all_finite(rtol)):
        msg = f"One of rtol or atol is not valid, atol: {atol}, rtol: {rtol}"
        mode = _np.geterr()["invalid"]
        if mode == "warn":
            F.warn(msg, RuntimeWarning)
        elif mode == "raise":
            raise FloatingPointError(msg)
        elif mode == "print":
            print(msg)
    r = _umath.UFUNCS['less_equal'](absolute(_umath.UFUNCS['subtract'](x, y)),
                                    atol + rtol * ay)
    r = (r & isfinite(y)) | _umath.UFUNCS['equal'](x, y)
    if equal_nan:
        isnan = _umath.UFUNCS['isnan']
        r = r | (isnan(x) & isnan(y))
    return r


def _all_finite(t):
    if isinstance(t, Array):
        return builtins.bool(_fromnumeric.all(_umath.UFUNCS['isfinite'](t)))
    return builtins.bool(_np.all(_np.isfinite(t)))


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    r = isclose(a, b, rtol, atol, equal_nan)
    if isinstance(r, Array):
        return builtins.bool(_fromnumeric.all(r))
    return builtins.bool(_np.all(r))


def array_equal(a1, a2, equal_nan=False):
    try:
        x, y = C.asarray(a1), C.asarray(a2)
    except Exception:
        return False
    if x.shape != y.shape:
        return False
    if not isinstance(x, Array) or not isinstance(y, Array):
        return _np.array_equal(C.to_np_tree(x), C.to_np_tree(y), equal_nan=equal_nan)
    eq = _umath.UFUNCS['equal'](x, y)
    if equal_nan and D.KIND[x._dt] in 'fc' and D.KIND[y._dt] in 'fc':
        eq = eq | (_umath.UFUNCS['isnan'](x) & _umath.UFUNCS['isnan'](y))
    return builtins.bool(_fromnumeric.all(eq))


def array_equiv(a1, a2):
    try:
        x, y = C.asarray(a1), C.asarray(a2)
    except Exception:
        return False
    try:
        _core.broadcast_shapes([x.shape, y.shape])
    except ValueError:
        return False
    if not isinstance(x, Array) or not isinstance(y, Array):
        # a dtype ndtile does not hold (str, object): NumPy's answer (False
        # where == has no loop, as array_equal)
        return _np.array_equiv(C.to_np_tree(x), C.to_np_tree(y))
    return builtins.bool(_fromnumeric.all(_umath.UFUNCS['equal'](x, y)))


def indices(dimensions, dtype=int, sparse=False):
    dimensions = tuple(dimensions)
    N = len(dimensions)
    if not sparse and builtins.any(operator.index(d) < 0 for d in dimensions):
        raise ValueError("negative dimensions are not allowed")   # NumPy's empty((N,) + dims)
    if D.code_of(dtype) is None:
        # a dtype ndtile does not hold ('>i4', float16, object): NumPy's arrays
        return _np.indices(dimensions, dtype=dtype, sparse=sparse)
    res = []
    for i, dim in enumerate(dimensions):
        idx = _multiarray.arange(dim, dtype=dtype)._reshape((1,) * i + (dim,) + (1,) * (N - i - 1))
        if not sparse:
            idx = idx._broadcast_to(dimensions)._copy()
        res.append(idx)
    if sparse:
        return tuple(res)
    if not res:
        return _multiarray.empty((0,), dtype=dtype)
    return stack(res)


def outer(a, b, out=None):
    x, y = C.asarray(a), C.asarray(b)
    if not isinstance(x, Array) or not isinstance(y, Array):
        return F.call("outer (dtype)", _np.outer, (a, b), {'out': out})
    return _umath.UFUNCS['multiply'](x._reshape((-1, 1)), y._reshape((1, -1)), out=out)


def astype(x, dtype, /, *, copy=True, device=None):
    if not isinstance(x, (Array, _np.ndarray, _np.generic)):
        if _np.isscalar(x):
            return x.astype(dtype, copy=copy)     # NumPy's AttributeError (1.5.astype)
        raise TypeError(f"Input should be a NumPy array or scalar. It is a {type(x)} instead.")
    x = C.asnd(x) if not isinstance(x, _np.ndarray) else x
    return x.astype(dtype, copy=copy)


def isscalar(element):
    return _np.isscalar(element)


def vdot(a, b, /):
    x, y = C.asarray(a), C.asarray(b)
    if isinstance(x, Array) and isinstance(y, Array):
        x = ravel(x)
        if x.dtype.kind == 'c':
            x = _umath.UFUNCS['conjugate'](x)
        return _core.dot(x, ravel(y), None)[()]
    return F.call("vdot", _np.vdot, (a, b), {})


def inner(a, b, /):
    x, y = C.asarray(a), C.asarray(b)
    if isinstance(x, Array) and isinstance(y, Array) and (x.ndim == 0 or y.ndim == 0):
        # NumPy's inner of a scalar: the product of the two as arrays (a
        # Python scalar is no weak operand here), a NumPy scalar for 0-d
        r = _umath.UFUNCS['multiply'](x, y)
        return r[()] if r.ndim == 0 else r
    if isinstance(x, Array) and isinstance(y, Array) and x.ndim >= 1 and y.ndim >= 1:
        if y.ndim == 1:
            return _core.dot(x, y, None) if x.ndim > 1 else _core.dot(x, y, None)[()]
        return _core.dot(x, swapaxes(y, -1, -2), None) if y.ndim == 2 else \
            F.call("inner", _np.inner, (a, b), {})
    return F.call("inner", _np.inner, (a, b), {})


def roll(a, shift, axis=None):
    x, fb = _nd(a, 'roll', _np.roll, (a, shift), {'axis': axis})
    if fb is not None:
        return fb
    if axis is None:
        return roll(x._reshape((-1,)), shift, 0)._reshape(x.shape)
    axes = _np.lib.array_utils.normalize_axis_tuple(axis, x.ndim, allow_duplicate=True)
    b = _np.broadcast(_np.asarray(shift), _np.asarray(axes))
    if b.ndim > 1:
        raise ValueError("'shift' and 'axis' should be scalars or 1D sequences")
    shifts = {ax: 0 for ax in range(x.ndim)}
    for sh, ax in b:
        shifts[int(ax)] += int(sh)
    r = x
    for ax, sh in shifts.items():
        n = x.shape[ax]
        sh = sh % n if n else 0
        if sh:
            pre = (slice(None),) * ax
            r = concatenate([r._view_index(pre + (slice(n - sh, None),)),
                             r._view_index(pre + (slice(None, n - sh),))], axis=ax)
    return r._copy() if r is x else r


def tensordot(a, b, axes=2):
    x, y = C.asarray(a), C.asarray(b)
    if not isinstance(x, Array) or not isinstance(y, Array):
        return F.call("tensordot (dtype)", _np.tensordot, (a, b), {'axes': axes})
    try:
        iter(axes)
    except Exception:
        n = operator.index(axes)
        axes_a = list(range(-n, 0)) if n > 0 else []    # NumPy: a negative n is no axes
        axes_b = list(range(0, n))
    else:
        axes_a, axes_b = axes
    axes_a = [axes_a] if isinstance(axes_a, (int, _np.integer)) else list(axes_a)
    axes_b = [axes_b] if isinstance(axes_b, (int, _np.integer)) else list(axes_b)
    if len(axes_a) != len(axes_b):
        raise ValueError("shape-mismatch for sum")
    axes_a = [int(ax) + x.ndim if ax < 0 else int(ax) for ax in axes_a]
    axes_b = [int(ax) + y.ndim if ax < 0 else int(ax) for ax in axes_b]
    for ax, nd in [(ax, x.ndim) for ax in axes_a] + [(ax, y.ndim) for ax in axes_b]:
        if not 0 <= ax < nd:
            raise IndexError("tuple index out of range")
    for p, q in zip(axes_a, axes_b):
        if x.shape[p] != y.shape[q]:
            raise ValueError("shape-mismatch for sum")
    free_a = [k for k in range(x.ndim) if k not in axes_a]
    free_b = [k for k in range(y.ndim) if k not in axes_b]
    kk = 1
    for p in axes_a:
        kk *= x.shape[p]
    m = 1
    for p in free_a:
        m *= x.shape[p]
    n = 1
    for q in free_b:
        n *= y.shape[q]
    at = x._transpose(tuple(free_a + axes_a))._reshape((m, kk))
    bt = y._transpose(tuple(axes_b + free_b))._reshape((kk, n))
    r = _core.matmul(at, bt)
    return r._reshape(tuple(x.shape[p] for p in free_a) + tuple(y.shape[q] for q in free_b))


# -- convolution and correlation (ndt_correlate, the direct sum) --
_MODES = {'valid': 0, 'same': 1, 'full': 2}


def _corr_mode(mode):
    """NumPy's convolve/correlate mode converter: the three names or 0-2."""
    if isinstance(mode, str):
        if mode in _MODES:
            return _MODES[mode]
        if mode[:1] in ('v', 'V', 's', 'S', 'f', 'F'):
            raise ValueError("Use one of 'valid', 'same', or 'full' for convolve/correlate mode")
        raise ValueError(f"mode must be one of 'valid', 'same', or 'full' (got {mode!r})")
    k = C.int_scalar(mode)
    if k is not None:
        if k not in (0, 1, 2):
            raise ValueError("integer convolve/correlate mode must be 0, 1, or 2")
        return k
    raise TypeError("convolve/correlate mode not understood")


def _corr(a, v, mode, conj, name, npf):
    x, y = C.asarray(a), C.asarray(v)
    if not isinstance(x, Array) or not isinstance(y, Array):
        return F.call(f"{name} (dtype)", npf, (a, v), {'mode': mode})
    if x.ndim == 0:
        x = x._reshape((1,))
    if y.ndim == 0:
        y = y._reshape((1,))
    n1, n2 = x.shape[0], y.shape[0]
    if name == 'convolve':
        # NumPy's convolve checks for empty inputs before anything else
        if n1 == 0:
            raise ValueError("a cannot be empty")
        if n2 == 0:
            raise ValueError("v cannot be empty")
    md = _corr_mode(mode)
    if x.ndim > 1 or y.ndim > 1:
        raise ValueError("object too deep for desired array")
    if name == 'convolve':
        if n2 > n1:
            x, y, n1, n2 = y, x, n2, n1
        y = y._view_index((slice(None, None, -1),))
    if n1 == 0:
        raise ValueError("a cannot be empty")
    if n2 == 0:
        raise ValueError("v cannot be empty")
    rdt = _np.result_type(x.dtype, y.dtype)
    k = rdt.kind
    cdt = {'b': _np.int64, 'i': _np.int64, 'u': _np.uint64}.get(k, rdt)
    xc = x if x.dtype == cdt else x.astype(cdt)
    yc = y if y.dtype == cdt else y.astype(cdt)
    if md == 2:
        lag0, n = -(n2 - 1), n1 + n2 - 1
    elif md == 0:
        lag0, n = builtins.min(0, n1 - n2), abs(n1 - n2) + 1
    elif n1 >= n2:
        lag0, n = -(n2 // 2), n1
    else:
        lag0, n = n1 // 2 - n2 + 1, n2
    r = _core.correlate(xc, yc, lag0, n, 1 if (conj and k == 'c') else 0)
    if k == 'b':
        return r != 0
    return r if r.dtype == rdt else r.astype(rdt)


def convolve(a, v, mode='full'):
    return _corr(a, v, mode, False, 'convolve', _np.convolve)


def correlate(a, v, mode='valid'):
    return _corr(a, v, mode, True, 'correlate', _np.correlate)


def fromfunction(function, shape, *, dtype=float, like=None, **kwargs):
    if like is not None:
        liked = C.like_call(like, fromfunction, locals())
        if liked is not C.NO_LIKE:
            return liked
    return function(*_nt().indices(shape, dtype=dtype), **kwargs)


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    nt = _nt()
    if axis is not None:
        axisa = axisb = axisc = axis
    a, b = nt.asarray(a), nt.asarray(b)
    if a.ndim < 1 or b.ndim < 1:
        raise ValueError("At least one array has zero dimension")
    # NumPy's errors name the argument (axisa: axis 5 is out of bounds ...)
    norm = _np.lib.array_utils.normalize_axis_index
    a = nt.moveaxis(a, norm(axisa, a.ndim, msg_prefix='axisa'), -1)
    b = nt.moveaxis(b, norm(axisb, b.ndim, msg_prefix='axisb'), -1)
    msg = ("incompatible dimensions for cross product\n"
           "(dimension must be 2 or 3)")
    if a.shape[-1] not in (2, 3) or b.shape[-1] not in (2, 3):
        raise ValueError(msg)
    if a.shape[-1] == 2 or b.shape[-1] == 2:
        F.warn("Arrays of 2-dimensional vectors are deprecated. Use arrays of "
               "3-dimensional vectors instead. (deprecated in NumPy 2.0)",
               DeprecationWarning)
    if a.shape[-1] == 3 or b.shape[-1] == 3:
        axisc = norm(axisc, a.ndim if a.ndim > b.ndim else b.ndim, msg_prefix='axisc')
    a0, a1 = a[..., 0], a[..., 1]
    b0, b1 = b[..., 0], b[..., 1]
    a2 = a[..., 2] if a.shape[-1] == 3 else None
    b2 = b[..., 2] if b.shape[-1] == 3 else None
    if a2 is None and b2 is None:
        # NumPy's result is an array, 0-d for one pair of vectors (out=...)
        mul = _umath.UFUNCS['multiply']._arrays
        return _umath.UFUNCS['subtract']._arrays(mul(a0, b1), mul(a1, b0))
    if a2 is None:
        c = nt.stack([a1 * b2, -(a0 * b2), a0 * b1 - a1 * b0], axis=-1)
    elif b2 is None:
        c = nt.stack([-(a2 * b1), a2 * b0, a0 * b1 - a1 * b0], axis=-1)
    else:
        c = nt.stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], axis=-1)
    return nt.moveaxis(c, -1, axisc)


def isfortran(a):
    return bool(a.flags.f_contiguous and not a.flags.c_contiguous)
