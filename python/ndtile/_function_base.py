"""NumPy's lib/_function_base_impl and _core.function_base: linspace,
logspace, geomspace, diff, gradient, interp, append, delete, insert, select,
piecewise, place, extract, trim_zeros, unwrap, sinc, trapezoid, flip, rot90,
angle, meshgrid, average, median, quantile, percentile, digitize, cov,
corrcoef, copy, asarray_chkfinite, ..."""

import operator
import sys

import numpy as _np

from . import _convert as C
from . import _core
from . import _dtypes as D
from . import _fallback as F
from . import _order as _O
from ._array_api import _check_device as _device
from ._umath import _ufn
from . import _fromnumeric
from . import _multiarray
from . import _ndarray
from . import _numeric
from . import _shape_base
from . import _stride_tricks
from . import _umath
from ._fromnumeric import _common, mean, partition, to_out, transpose
from ._methods import check_out, check_out_writeable
from ._multiarray import _like_order_check, arange, array, asarray
from ._shape_base import expand_dims
from ._stride_tricks import broadcast_arrays
from ._umath import _along, _cast, _host, _i64, _nd_or_fallback, _norm_axis, _norm_axis as _axis

Array = _core.Array
_NoValue = _np._NoValue


def _nt():
    return sys.modules['ndtile']


_u = _ufn          # a ufunc by name


def copy(a, order='K', subok=False):
    if order != 'K':
        _like_order_check(order)
    if isinstance(a, Array):
        r = _O.order_copy(a, order)
        return C.subclass_like(r, a, True) if subok else r
    return array(a, copy=True)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0, *,
             device=None):
    if device is not None:
        _device(device)
    subs = [v for v in (start, stop) if _is_sub(v)]
    if subs:
        # NumPy computes with the bounds' arithmetic: the result (and the
        # step) is of the subclass of the highest __array_priority__
        proto = _ndarray._wrapper(subs)
        r = linspace(start._view() if _is_sub(start) else start,
                     stop._view() if _is_sub(stop) else stop, num, endpoint, retstep,
                     dtype, axis)
        if retstep:
            return _subclass_result(r[0], proto), \
                (_subclass_result(r[1], proto) if isinstance(r[1], (Array, _np.generic))
                 else r[1])
        return _subclass_result(r, proto)
    num = operator.index(num)
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    if num >= 2**63:
        raise ValueError("Maximum allowed size exceeded")      # NumPy's arange(0, num)
    scalar = all(isinstance(v, (int, float, _np.integer, _np.floating)) and
                 not isinstance(v, bool) for v in (start, stop))
    dt = None if dtype is None else D.as_dtype(dtype)
    if dt is not None and not dt.isnative and D.code(dt.newbyteorder('=')) is not None:
        # a non-native dtype ('>f4'): the native values in NumPy's array of
        # that byte order (docs/guide/deviations.md, item 13), as NumPy casts
        # its float64 values to the dtype last
        r = linspace(start, stop, num, endpoint, retstep, dt.newbyteorder('='), axis)
        if retstep:
            return _np.asarray(C.to_np_tree(r[0])).astype(dt), r[1]
        return _np.asarray(C.to_np_tree(r)).astype(dt)
    if dt is not None and D.code(dt) is None:
        return F.call("linspace (dtype)", _np.linspace,
                      (start, stop), {'num': num, 'endpoint': endpoint, 'retstep': retstep,
                                      'dtype': dtype, 'axis': axis})
    if not scalar or axis != 0 or (dt is not None and dt.kind == 'c') or \
            _np.result_type(start, stop, float(num)) == _np.float32:
        # (NumPy computes in float32 when the bounds are float32 scalars)
        return _linspace_general(start, stop, num, endpoint, retstep, dt, axis)
    if dt is None:
        dt = _np.result_type(start, stop, float(num))
    c = D.code(dt)
    if c is None:
        return _np.linspace(start, stop, num, endpoint, retstep, dtype, axis)
    if dt.kind == 'b':
        # NumPy floors only for integer dtypes: bools are the float values
        # cast (0.5 is True)
        r = _core.linspace(float(start), float(stop), num, bool(endpoint), D.FLOAT64)
        r = r._astype(c, _core.CASTING_UNSAFE)
    else:
        r = _core.linspace(float(start), float(stop), num, bool(endpoint), c)
    if retstep:
        div = (num - 1) if endpoint else num
        if div <= 0:
            return r, _np.nan       # NumPy: a Python float then
        # NumPy's step has the working type, result_type(start, stop, float)
        wt = _np.result_type(start, stop, float(num))
        return r, wt.type((wt.type(stop) - wt.type(start)) / wt.type(div))
    return r


def _linspace_general(start, stop, num, endpoint, retstep, dtype, axis):
    """linspace with array or complex bounds or another axis: NumPy's
    algorithm (numpy/_core/function_base.py) on ndtile arrays."""
    div = (num - 1) if endpoint else num
    a, b = asarray(start), asarray(stop)
    if not isinstance(a, Array) or not isinstance(b, Array):
        return F.call("linspace (dtype)", _np.linspace, (start, stop),
                      {'num': num, 'endpoint': endpoint, 'retstep': retstep,
                       'dtype': dtype, 'axis': axis})
    # NumPy's working type: Python scalar bounds weak, at least float
    dt = _np.result_type(*[v if type(v) in (int, float, complex) else x.dtype
                           for v, x in ((start, a), (stop, b))], 0.0)
    integer_dtype = dtype is not None and dtype.kind in 'iu'
    if dtype is None:
        dtype = dt
    delta = _umath.UFUNCS['subtract']._arrays(b.astype(dt), a.astype(dt))
    y = arange(0, num, dtype=dt).reshape((-1,) + (1,) * delta.ndim)
    if div > 0:
        step = delta / div
        if bool(_umath.UFUNCS['equal'](step, 0).any()):
            y = (y / div) * delta
        else:
            y = y * step
    else:
        step = _np.nan
        y = y * delta
    y = y + a.astype(dt)
    if endpoint and num > 1:
        y[-1, ...] = b
    if axis != 0:
        y = _numeric.moveaxis(y, 0, axis)
    if integer_dtype:
        y = _umath.UFUNCS['floor'](y)
    y = y.astype(dtype, copy=False)
    if retstep:
        if isinstance(step, Array) and step.ndim == 0:
            step = step[()]
        return y, step
    return y


def _subclass_result(r, proto):
    """r (an array, a scalar or a tuple of them) as proto's class: NumPy's
    functions that wrap their results for a subclass instance."""
    if isinstance(r, tuple):
        return tuple(_subclass_result(v, proto) for v in r)
    return C.subclass_like(C.asarray(r), proto)


def _is_sub(a):
    return type(a) is not C.ND and isinstance(a, Array)


def average(a, axis=None, weights=None, returned=False, *, keepdims=_NoValue):
    """NumPy's average: sum(a * w) / sum(w) in NumPy's result dtype."""
    keepdims = C.given(keepdims, False)
    if _is_sub(a) or _is_sub(weights):
        # NumPy computes on plain arrays and wraps the results (a's class)
        proto = a if _is_sub(a) else weights
        r = average(a._view() if _is_sub(a) else a, axis,
                    weights._view() if _is_sub(weights) else weights, returned,
                    keepdims=keepdims)
        return _subclass_result(r, proto)
    x = C.asarray(a)
    w = None if weights is None else C.asarray(weights)
    if not isinstance(x, Array) or (w is not None and not isinstance(w, Array)):
        return F.call("average (dtype)", _np.average, (a,),
                      {'axis': axis, 'weights': weights, 'returned': returned,
                       'keepdims': keepdims})
    if axis is not None:
        # NumPy's average normalises the axis in Python (bools and lists
        # are taken as ints)
        axis = _np.lib.array_utils.normalize_axis_tuple(axis, x.ndim, argname="axis")
    if w is None:
        avg = mean(x, axis=axis, keepdims=keepdims)
        # NumPy's scale a.size / avg.size, made returned= or not: an empty
        # result is its ZeroDivisionError
        scl = avg.dtype.type(x.size / int(_np.prod(_np.shape(avg))))
        if not returned:
            return avg
        return avg, (_numeric.full(avg.shape, scl, dtype=avg.dtype) if _np.ndim(avg) else scl)
    if x.dtype.kind in 'biu':
        rt = _np.result_type(x.dtype, w.dtype, 'f8')
    else:
        rt = _np.result_type(x.dtype, w.dtype)
    if tuple(x.shape) != tuple(w.shape):
        if axis is None:
            raise TypeError("Axis must be specified when shapes of a and weights differ.")
        axes = tuple(_np.atleast_1d(axis))
        if w.ndim != len(axes):
            raise ValueError("Shape of weights must be consistent with shape of a along "
                             "specified axis.")
        axes = tuple(_np.lib.array_utils.normalize_axis_index(int(k), x.ndim) for k in axes)
        if tuple(x.shape[k] for k in axes) != tuple(w.shape):
            raise ValueError("Shape of weights must be consistent with shape of a along "
                             "specified axis.")
        # move the weights' axes to where they are in a
        order = sorted(range(len(axes)), key=lambda k: axes[k])
        w = _fromnumeric.transpose(w, order) if order != list(range(len(axes))) else w
        shape = [1] * x.ndim
        for k in sorted(axes):
            shape[k] = x.shape[k]
        w = w.reshape(tuple(shape))
        w = _stride_tricks.broadcast_to(w, tuple(x.shape))
    scl = _fromnumeric.sum(w, axis=axis, dtype=rt, keepdims=keepdims)
    if bool(_fromnumeric.any(scl == 0.0)):
        raise ZeroDivisionError("Weights sum to zero, can't be normalized")
    avg = _fromnumeric.sum(_umath.UFUNCS['multiply'](x, w, dtype=rt), axis=axis, keepdims=keepdims) / scl
    if returned:
        if tuple(scl.shape) != tuple(avg.shape):
            scl = _stride_tricks.broadcast_to(scl, avg.shape).copy()
        return avg, scl
    return avg


def _median_by_mean(a, axis):
    """NumPy's _median for a subclass instance whose class has its own
    mean: the middle one or two elements of each sorted line (NaN last),
    as the instance's class, averaged by its mean method (np.mean calls
    it so), then NaN where a line held one."""
    s = _fromnumeric.sort(a._view().ravel() if axis is None else a._view(), axis=-1 if
                          axis is None else axis)
    ax = 0 if axis is None else _np.lib.array_utils.normalize_axis_index(axis, a.ndim)
    n = s.shape[ax]
    mid = slice(n // 2, n // 2 + 1) if n % 2 else slice(n // 2 - 1, n // 2 + 1)
    part = C.subclass_like(s, a)
    r = part[(slice(None),) * ax + (mid,)].mean(axis=ax, dtype=None, out=None)
    if a.dtype.kind in 'fc' and n:
        last = s[(slice(None),) * ax + (-1,)]
        nans = _umath.UFUNCS['isnan'](last)
        if bool(nans.any()):
            if not isinstance(r, Array):
                return last[()] if last.ndim == 0 else last
            _multiarray.copyto(r, last, where=nans)
    return r


def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """NumPy's median from the core's sort: the mean of the middle one or two
    elements of each sorted line; NaN where a line holds a NaN. Several
    axes are moved to the end and merged into one line."""
    if _is_sub(a) and out is None and a.size:
        if type(a).mean is not C.ND.mean and not keepdims and \
                not isinstance(axis, (tuple, list)):
            return _median_by_mean(a, axis)
        # NumPy's median of a subclass instance is of its class (a NaN too)
        return _subclass_result(median(a._view(), axis, None, overwrite_input, keepdims), a)
    x = C.asarray(a)
    if isinstance(x, Array) and x.size == 0 and not isinstance(axis, (tuple, list)):
        # NumPy's median of no elements is their mean (NaN, its warnings)
        return mean(x, axis=axis, out=out, keepdims=keepdims)
    if not isinstance(x, Array) or x.size == 0:
        return F.call("median", _np.median, (a,), dict(axis=axis, out=out,
                      overwrite_input=overwrite_input, keepdims=keepdims))
    nd = x.ndim
    if axis is not None:
        _np.lib.array_utils.normalize_axis_tuple(axis, nd)    # NumPy's errors for axis
    if isinstance(axis, (tuple, list)):
        axes = tuple(sorted(_np.lib.array_utils.normalize_axis_index(int(k), nd)
                            for k in axis))
        if len(set(axes)) != len(axes):
            raise ValueError("duplicate value in 'axis'")
        keep = [k for k in range(nd) if k not in axes]
        y = _fromnumeric.transpose(x, keep + list(axes))
        y = _fromnumeric.reshape(y, tuple(x.shape[k] for k in keep) + (-1,))
        res = median(y, axis=-1)
        if keepdims:
            res = _fromnumeric.reshape(res, tuple(1 if k in axes else x.shape[k] for k in range(nd)))
        return _fromnumeric.to_out(res, out)
    if axis is None:
        s, ax = _fromnumeric.sort(_fromnumeric.ravel(x)), 0
    else:
        ax = operator.index(axis)
        if not -nd <= ax < nd:
            raise _np.exceptions.AxisError(ax, nd)
        ax %= nd
        s = _fromnumeric.sort(x, axis=ax)
    n = s.shape[ax]
    if out is not None and not keepdims:
        # NumPy: mean(middle elements, axis, out=out): mean's out= errors for
        # an operand of 1 or 2 elements along the axis
        shp = list(s.shape)
        shp[ax] = 1 if n % 2 else 2
        check_out('mean', shp, ax, False, out)

    def along(sl):
        key = [slice(None)] * s.ndim
        key[ax] = sl
        return s[tuple(key)]

    mid = along(slice((n - 1) // 2, n // 2 + 1))
    res = mean(mid, axis=ax, keepdims=True)
    if x.dtype.kind in 'fc':
        last = along(slice(n - 1, n))
        res = _multiarray.where(_umath.UFUNCS['isnan'](last), _np.nan, res).astype(res.dtype)
    if axis is None:
        res = _fromnumeric.reshape(res, (1,) * nd) if keepdims else res.reshape(())
    elif not keepdims:
        res = _fromnumeric.squeeze(res, axis=ax)
    if out is not None:
        _multiarray.copyto(out, res, casting='unsafe')     # as mean writes out=
        return out
    # (NumPy's keepdims result is r[..., newaxis...]: a 0-d array for 0-d input)
    return res if res.ndim or keepdims else res[()]


def flip(m, axis=None):
    xs, fb = _nd_or_fallback('flip', _np.flip, (m,), {'axis': axis}, m)
    if fb is not None:
        return fb
    x = xs[0]
    if x.ndim == 0 and axis is None:
        return x[()]    # NumPy's m[()]: a scalar, not a view
    if axis is None:
        key = (slice(None, None, -1),) * x.ndim
    else:
        axes = _np.lib.array_utils.normalize_axis_tuple(axis, x.ndim)
        key = tuple(slice(None, None, -1) if k in axes else slice(None) for k in range(x.ndim))
    return x._view_index(key)


def angle(z, deg=False):
    x = C.asarray(z)
    if not isinstance(x, Array):
        return F.call("angle (dtype)", _np.angle, (z,), {'deg': deg})
    if D.KIND[x._dt] == 'c':
        zi, zr = x._imag(), x._real()
    else:
        zi, zr = 0, x       # (NumPy's: int8 gives float16, int16 float32)
    a = _umath.UFUNCS['arctan2'](zi, zr)
    if deg:
        a = a * (180 / _np.pi)
    return a


def diff(a, n=1, axis=-1, prepend=_NoValue, append=_NoValue):
    if n == 0:
        return a        # NumPy returns its argument itself, a list too
    if n < 0:
        raise ValueError("order must be non-negative but got " + repr(n))
    # a subclass instance stays one: NumPy's diff slices it with its own
    # __getitem__ and subtracts with the ufunc, which wraps the result
    # (quantities' units)
    x = a if _is_sub(a) else C.asarray(a)
    kw = {'n': n, 'axis': axis}
    if prepend is not _NoValue:
        kw['prepend'] = prepend
    if append is not _NoValue:
        kw['append'] = append
    if not isinstance(x, Array):
        return F.call("diff (dtype)", _np.diff, (a,), kw)
    if x.ndim == 0:
        raise ValueError("diff requires input that is at least one dimensional")
    axis = _norm_axis(axis, x.ndim)
    if prepend is not _NoValue or append is not _NoValue:
        # NumPy's: a 0-d prepend/append is broadcast to one step along axis,
        # then the three are concatenated (their dtypes promoted)
        combined = []
        for v in (prepend, None, append):
            if v is None:
                combined.append(x)
            elif v is not _NoValue:
                v = C.asarray(v)
                if _np.ndim(v) == 0:
                    shape = list(x.shape)
                    shape[axis] = 1
                    v = _stride_tricks.broadcast_to(v, tuple(shape))
                combined.append(v)
        x = _multiarray.concatenate(combined, axis)
        if not isinstance(x, Array):
            return F.call("diff (dtype)", _np.diff, (a,), kw)
    # NumPy's indexes: a slice for every axis (what a subclass's __getitem__ sees)
    every = (slice(None),) * x.ndim
    op = _umath.UFUNCS['not_equal'] if x._dt == D.BOOL else _umath.UFUNCS['subtract']
    hi = every[:axis] + (slice(1, None),) + every[axis + 1:]
    lo = every[:axis] + (slice(None, -1),) + every[axis + 1:]
    for _ in range(n):
        x = op(x[hi], x[lo]) if _is_sub(x) else op(x._view_index(hi), x._view_index(lo))
    return x


def meshgrid(*xi, copy=True, sparse=False, indexing='xy'):
    if indexing not in ['xy', 'ij']:
        raise ValueError("Valid values for `indexing` are 'xy' and 'ij'.")
    ndim = len(xi)
    s0 = (1,) * ndim
    output = [C.asnd(x)._reshape(s0[:i] + (-1,) + s0[i + 1:]) for i, x in enumerate(xi)]
    if indexing == 'xy' and ndim > 1:
        output[0] = output[0]._reshape((1, -1) + s0[2:])
        output[1] = output[1]._reshape((-1, 1) + s0[2:])
    if not sparse:
        output = list(broadcast_arrays(*output))
    if copy:
        output = [x._copy() for x in output]
    return tuple(output)


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    if _np.ndim(base) if not isinstance(base, Array) else base.ndim:
        ndmax = len(_np.broadcast_shapes(_np.shape(start), _np.shape(stop), _np.shape(base)))
        start, stop, base = (C.asarray(v) for v in (start, stop, base))
        start, stop, base = (v.reshape((1,) * (ndmax - v.ndim) + tuple(v.shape))
                             for v in (start, stop, base))
        base = expand_dims(base, axis)
    y = linspace(start, stop, num=num, endpoint=endpoint, axis=axis)
    r = _umath.UFUNCS['power'](base, y)
    if dtype is not None:
        r = r.astype(dtype, copy=False)
    return r


def rot90(m, k=1, axes=(0, 1)):
    x = C.asarray(m)
    if not isinstance(x, Array):      # float16, longdouble, ...: NumPy's
        return F.call("rot90 (dtype)", _np.rot90, (m, k, axes), {})
    axes = tuple(axes)
    if len(axes) != 2:
        raise ValueError("len(axes) must be 2.")
    if axes[0] == axes[1] or abs(axes[0] - axes[1]) == x.ndim:
        raise ValueError("Axes must be different.")
    if axes[0] >= x.ndim or axes[0] < -x.ndim or axes[1] >= x.ndim or axes[1] < -x.ndim:
        raise ValueError(f"Axes={axes} out of range for array of ndim={x.ndim}.")
    k %= 4
    if k == 0:
        return x[...]
    if k == 2:
        return flip(flip(x, axes[0]), axes[1])
    perm = list(range(x.ndim))
    perm[axes[0]], perm[axes[1]] = perm[axes[1]], perm[axes[0]]
    if k == 1:
        return transpose(flip(x, axes[1]), perm)
    return flip(transpose(x, perm), axes[1])


# ---- adding and removing elements -------------------------------------------


def append(arr, values, axis=None):
    nt = _nt()
    arr = nt.asanyarray(arr)
    if axis is None:
        if arr.ndim != 1:
            arr = arr.ravel()
        values = nt.ravel(values)
        axis = arr.ndim - 1
    return nt.concatenate((arr, values), axis=axis)


def _keep_positions(obj, n, axis=0):
    """NumPy's delete: the positions along an axis of length n that stay."""
    if isinstance(obj, slice):
        start, stop, step = obj.indices(n)
        keep = _np.ones(n, bool)
        keep[_np.arange(start, stop, step)] = False
        return _np.flatnonzero(keep)
    idx = _np.asarray(C.to_np_tree(obj))
    if idx.dtype == bool:
        if idx.shape != (n,):
            raise ValueError(f"boolean array argument obj to delete must be one dimensional "
                             f"and match the axis length of {n}")
        return _np.flatnonzero(~idx)
    if idx.size == 0 and idx.dtype.kind not in 'iu' and not isinstance(obj, (Array, _np.ndarray)):
        idx = idx.astype(_np.intp)      # NumPy: an empty list, not an empty float array
    if idx.dtype.kind not in 'iu':
        raise IndexError("arrays used as indices must be of integer (or boolean) type")
    shaped = obj if isinstance(obj, (Array, _np.ndarray)) and obj.dtype.kind in 'iu' else idx
    idx = idx.ravel().astype(_np.int64)
    if idx.size and (idx.min() < -n or idx.max() >= n):
        # NumPy's keep[obj,] = False: the first bad index in memory order,
        # on axis 0 of that 1-d mask (one index is NumPy's path for an int,
        # which names the axis)
        bad = _fromnumeric._first_out_of_bounds(shaped, n, 'K')[1]
        raise IndexError(f"index {bad} is out of bounds for axis "
                         f"{axis if idx.size == 1 else 0} with size {n}")
    keep = _np.ones(n, bool)
    keep[idx] = False
    return _np.flatnonzero(keep)


def delete(arr, obj, axis=None):
    nt = _nt()
    if _is_sub(arr):        # NumPy wraps the result in the instance's class
        return _subclass_result(delete(arr._view(), obj, axis), arr)
    a = C.asarray(arr)
    if not isinstance(a, Array):
        return F.call("delete (dtype)", _np.delete, (arr, obj), {'axis': axis})
    if axis is None:
        if a.ndim != 1:
            a = a.ravel()
        axis = 0
    axis = _axis(axis, a.ndim)
    n = a.shape[axis]
    keep = _keep_positions(obj, n, axis)
    if keep.size == n:
        return _O.order_copy(a, 'A')
    if a.ndim > 1 and _O.is_f_only(a):
        # NumPy keeps a Fortran-ordered array's layout: the transpose's
        # (C-ordered) result, transposed back
        t = a._transpose(None)
        return _O._owned_t(nt.asarray(t[_along(t.ndim, t.ndim - 1 - axis, nt.asarray(keep))]))
    return nt.asarray(a[_along(a.ndim, axis, nt.asarray(keep))])


def insert(arr, obj, values, axis=None):
    """NumPy's insert, step by step as NumPy writes it (its checks, in its
    order; its odd corners too: a bool mask obj becomes its positions, one
    position inserts values as a block, the rest is a scatter)."""
    nt = _nt()
    if _is_sub(arr):        # NumPy wraps the result in the instance's class
        return _subclass_result(insert(arr._view(), obj, values, axis), arr)
    a = C.asarray(arr)
    if not isinstance(a, Array):
        return F.call("insert (dtype)", _np.insert, (arr, obj, values), {'axis': axis})
    if axis is None:
        if a.ndim != 1:
            a = a.ravel()
        axis = 0
    else:
        axis = _np.lib.array_utils.normalize_axis_index(axis, a.ndim)
    nd = a.ndim
    n = a.shape[axis]
    # NumPy's result keeps a Fortran-ordered array's layout
    layout = 'F' if nd > 1 and _O.is_f_only(a) else 'C'
    if isinstance(obj, slice):
        pos = _np.arange(*obj.indices(n), dtype=_np.intp)
    else:
        pos = _np.array(C.to_np_tree(obj))
        if pos.dtype == bool:
            if obj.ndim != 1:      # NumPy reads obj.ndim (a list has none)
                raise ValueError("boolean array argument obj to insert must be one "
                                 "dimensional")
            pos = _np.flatnonzero(pos)
        elif pos.ndim > 1:
            raise ValueError("index array argument obj to insert must be one dimensional "
                             "or scalar")
    newshape = list(a.shape)
    if pos.size == 1:
        index = pos.item()
        if index < -n or index > n:
            raise IndexError(f"index {obj} is out of bounds for axis {axis} with size {n}")
        if index < 0:
            index += n
        vals = nt.array(values, copy=None, ndmin=nd, dtype=a.dtype)
        if pos.ndim == 0:
            # a[:, 0, :] = v broadcasts unlike a[:, [0], :] = v: NumPy
            # moves v's first axis to the insert axis
            vals = nt.moveaxis(vals, 0, axis)
        if not isinstance(index, int):
            raise TypeError("slice indices must be integers or None or have an __index__ "
                            "method")
        numnew = vals.shape[axis]
        newshape[axis] += numnew
        new = nt.empty(tuple(newshape), a.dtype, order=layout)
        new[_along(nd, axis, slice(None, index))] = a[_along(nd, axis, slice(None, index))]
        lead = 0       # NumPy's assignment drops the value's leading 1s (its message too)
        while lead < vals.ndim - 1 and vals.shape[lead] == 1:
            lead += 1
        new[_along(nd, axis, slice(index, index + numnew))] = vals.reshape(vals.shape[lead:])
        new[_along(nd, axis, slice(index + numnew, None))] = a[_along(nd, axis, slice(index,
                                                                                    None))]
        return new
    if pos.size == 0 and not isinstance(obj, (_np.ndarray, Array)):
        pos = pos.astype(_np.intp)
    if pos.dtype.kind not in 'iu':
        raise IndexError("arrays used as indices must be of integer (or boolean) type")
    pos = pos.astype(_np.intp)
    pos[pos < 0] += n
    k = pos.size
    order = pos.argsort(kind='stable')
    pos[order] += _np.arange(k)
    newshape[axis] += k
    old_mask = _np.ones(newshape[axis], dtype=bool)
    old_mask[pos] = False          # NumPy's IndexError for a position past the end
    keep = _np.flatnonzero(old_mask)
    if keep.size != n:
        # positions that collide (NumPy's odd wrap of far negative ones):
        # NumPy's two scatters, with their errors
        new = nt.empty(tuple(newshape), a.dtype, order=layout)
        new[_along(nd, axis, nt.asarray(pos))] = values
        new[_along(nd, axis, nt.asarray(old_mask))] = a
        return new
    # NumPy's new[..., pos, ...] = values; new[..., old_mask, ...] = a, as
    # one gather from [a, values] (parallel over output tiles): the values
    # are first written as NumPy's scatter would take them (its broadcasting
    # and errors), into an array of k entries along the axis
    vshape = list(a.shape)
    vshape[axis] = k
    v = nt.empty(tuple(vshape), a.dtype)
    v[_along(nd, axis, nt.asarray(_np.arange(k)))] = values
    src = _np.empty(n + k, _np.int64)
    src[pos] = n + _np.arange(k)
    src[keep] = _np.arange(n)
    both = nt.concatenate((a, v), axis=axis)
    if layout == 'F':
        t = both._transpose(None)
        return _O._owned_t(nt.asarray(t[_along(nd, nd - 1 - axis, nt.asarray(src))]))
    return nt.asarray(both[_along(nd, axis, nt.asarray(src))])


def trim_zeros(filt, trim='fb', axis=None):
    nt = _nt()
    a = nt.asarray(filt)
    t = trim.lower()
    if t not in ('fb', 'bf', 'f', 'b'):
        raise ValueError(f"unexpected character(s) in `trim`: {trim!r}")
    if axis is not None or a.ndim != 1:
        return F.call("trim_zeros (axis)", _np.trim_zeros, (filt,), {'trim': trim, 'axis': axis})
    # the first and last nonzero by two argmax reductions, not by moving
    # every nonzero position to the host
    n = a.shape[0]
    nz = nt.not_equal(a, 0)
    first = int(nt.argmax(nz)) if n else 0
    if n == 0 or not bool(nz[first]):
        start = stop = 0
    else:
        start = first if 'f' in t else 0
        stop = n - int(nt.argmax(nz[::-1])) if 'b' in t else n
    # NumPy slices the input itself: a list stays a list
    return a[start:stop] if isinstance(filt, (Array, _np.ndarray)) else filt[start:stop]


def extract(condition, arr):
    nt = _nt()
    # NumPy: take(ravel(arr), nonzero(ravel(condition))[0]) (a shorter
    # condition is fine, a longer one's extra True an IndexError)
    return nt.take(nt.ravel(arr), nt.flatnonzero(condition))


def select(condlist, choicelist, default=0):
    nt = _nt()
    if len(condlist) != len(choicelist):
        raise ValueError("list of cases must be same length as list of conditions")
    if len(condlist) == 0:
        raise ValueError("select with an empty condition list is not possible")
    # Python int/float/complex stay weak for the common dtype (NEP 50), as
    # in NumPy; anything else (a list default too) is an array
    weak = (int, float, complex)
    choices = [c if type(c) in weak else nt.asarray(c) for c in choicelist]
    if type(default) not in weak:
        default = nt.asarray(default)
    try:
        dtype = nt.result_type(*choices, default)
    except TypeError as e:
        raise TypeError(f"Choicelist and default value do not have a common dtype: {e}")
    conds = [nt.asarray(c) for c in condlist]
    # NumPy broadcasts the conditions, then the choices with the default
    # (its errors number the arguments so): Python scalars become arrays
    # there (np.asarray: 2**63 is uint64, -2 int64)
    _np.broadcast_shapes(*[tuple(x.shape) for x in conds])
    choices = [nt.asarray(c) for c in choices]
    default = nt.asarray(default)
    _np.broadcast_shapes(*[tuple(x.shape) for x in choices], tuple(default.shape))
    for i, c in enumerate(conds):
        if c.dtype != _np.bool_:
            raise TypeError(f"invalid entry {i} in condlist: should be boolean ndarray")
    shape = _np.broadcast_shapes(*[tuple(x.shape) for x in conds + choices],
                                 tuple(default.shape))
    # np.full casts the default unsafely, np.copyto each choice same_kind
    r = nt.empty(shape, dtype=dtype)
    nt.copyto(r, default, casting='unsafe')
    for c, v in zip(reversed(conds), reversed(choices)):
        nt.copyto(r, v, where=c)
    return r


def sort_complex(a):
    nt = _nt()
    b = nt.sort(a)
    if b.dtype.kind != 'c':
        return b.astype(_np.complex64 if b.dtype.char in 'bhBH' else
                        _np.clongdouble if b.dtype.char == 'g' else _np.complex128)
    return b


def sinc(x):
    nt = _nt()
    # NumPy's order: pi * x first, then a zero becomes the dtype's eps (1e-20
    # underflows in float16: 0/0)
    x = nt.pi * nt.asanyarray(x)
    eps = _np.finfo(x.dtype).eps if x.dtype.kind == 'f' else 1e-20
    y = nt.where(x != 0, x, _np.asarray(eps, dtype=x.dtype))
    return nt.sin(y) / y


def trapezoid(y, x=None, dx=1.0, axis=-1):
    nt = _nt()
    y = nt.asanyarray(y)
    nd = y.ndim
    ax = _axis(axis, nd)
    hi = _along(nd, ax, slice(1, None))
    lo = _along(nd, ax, slice(None, -1))
    if x is None:
        d = dx
    else:
        x = nt.asanyarray(x)
        if x.ndim == 1:
            d = nt.diff(x)
            shape = [1] * nd
            shape[ax] = d.shape[0]
            d = d.reshape(shape)
        else:
            d = nt.diff(x, axis=axis)
    return nt.sum(d * (y[hi] + y[lo]) / 2.0, axis=ax)


def vecdot(x1, x2, /, out=None, *, axis=-1, **kwargs):
    """NumPy's vecdot: sum over axis of conj(x1) * x2, broadcasting the rest."""
    nt = _nt()
    if kwargs:
        return F.call("vecdot (keywords)", _np.vecdot, (x1, x2),
                      dict(kwargs, out=out, axis=axis))
    a, b = (nt.asarray(x) for x in _umath.fix_gufunc_ints((x1, x2)))
    check_out_writeable(out)    # (the gufunc's first check of out=)
    if out is not None:
        # NumPy's loop resolution, before the core dimensions are looked at
        _umath._check_cast('vecdot', _np.result_type(a.dtype, b.dtype), out.dtype,
                           'same_kind', 2)
    for i, x in enumerate((a, b)):
        if x.ndim == 0:
            raise ValueError(f"vecdot: Input operand {i} does not have enough dimensions (has 0, "
                             f"gufunc core with signature (n),(n)->() requires 1)")
    aa, ab = _axis(axis, a.ndim), _axis(axis, b.ndim)
    if a.shape[aa] != b.shape[ab]:
        raise ValueError(f"vecdot: Input operand 1 has a mismatch in its core dimension 0, "
                         f"with gufunc signature (n),(n)->() (size {b.shape[ab]} is different "
                         f"from {a.shape[aa]})")
    a, b = nt.moveaxis(a, aa, -1), nt.moveaxis(b, ab, -1)
    if a.dtype.kind == 'c':
        a = nt.conjugate(a)
    if a.dtype == _np.bool_ and b.dtype == _np.bool_:
        r = nt.any(nt.logical_and(a, b), axis=-1)
    else:
        dt = _np.result_type(a.dtype, b.dtype)
        r = nt.sum(nt.multiply(a, b), axis=-1, dtype=dt)
    return to_out(r, out)


def asarray_chkfinite(a, dtype=None, order=None):
    nt = _nt()
    a = nt.asarray(a, dtype=dtype)
    if a.dtype.kind in 'fc' and not bool(nt.isfinite(a).all()):
        raise ValueError("array must not contain infs or NaNs")
    return a


def unwrap(p, discont=None, axis=-1, *, period=2 * _np.pi):
    nt = _nt()
    p = nt.asarray(p)
    nd = p.ndim
    ax = _axis(axis, nd)
    dd = nt.diff(p, axis=ax)
    if discont is None:
        discont = period / 2
    hi = _along(nd, ax, slice(1, None))
    dtype = _np.result_type(dd.dtype, period)
    if dtype.kind in 'iu':
        interval_high, rem = divmod(period, 2)
        boundary_ambiguous = rem == 0
    else:
        interval_high = period / 2
        boundary_ambiguous = True
    interval_low = -interval_high
    ddmod = nt.mod(dd - interval_low, period) + interval_low
    if boundary_ambiguous:
        ddmod = nt.where((ddmod == interval_low) & (dd > 0), interval_high, ddmod)
    ph_correct = ddmod - dd
    ph_correct = nt.where(nt.absolute(dd) < discont, 0, ph_correct)
    # NumPy's: the corrected tail written into a copy of p of that dtype
    # (an integer sum wider than p's type is cast back, as NumPy's
    # assignment does)
    up = nt.array(p, copy=True, dtype=dtype)
    up[hi] = p[hi] + nt.cumsum(ph_correct, axis=ax)
    return up


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    nt = _nt()
    start = nt.asanyarray(start)
    stop = nt.asanyarray(stop)
    if bool(nt.any(start == 0)) or bool(nt.any(stop == 0)):
        raise ValueError('Geometric sequence cannot include zero')
    dt = _np.result_type(start.dtype, stop.dtype, float(num), _np.zeros((), dtype))
    dtype = dt if dtype is None else _np.dtype(dtype)
    start = start.astype(dt)
    stop = stop.astype(dt)
    sign = nt.sign(start)
    start = start / sign
    stop = stop / sign
    r = nt.logspace(nt.log10(start), nt.log10(stop), num=num, endpoint=endpoint, base=10.0,
                    dtype=dt)
    if num > 0:
        r[0] = start
        if num > 1 and endpoint:
            r[-1] = stop
    r = sign * r
    if axis != 0:
        r = nt.moveaxis(r, 0, axis)
    return r.astype(dtype, copy=False)


# ---- interpolation and medians ----------------------------------------------


def interp(x, xp, fp, left=None, right=None, period=None):
    """NumPy's interp: the interval of each x by searchsorted, then the
    straight line through its ends (NumPy's slope * (x - xp[j]) + fp[j])."""
    nt = _nt()
    x = nt.asarray(x)
    xp, fp = nt.asarray(xp), nt.asarray(fp)
    if xp.ndim != 1 or fp.ndim != 1:
        raise ValueError("object too deep for desired array")
    if xp.shape[0] != fp.shape[0]:
        raise ValueError("fp and xp are not of the same length.")
    if xp.shape[0] == 0:
        raise ValueError("array of sample points is empty")
    cplx = fp.dtype.kind == 'c'
    ftype = _np.complex128 if cplx else _np.float64
    if x.dtype.kind == 'c' or xp.dtype.kind == 'c':
        raise TypeError("Cannot cast array data from dtype('complex128') to dtype('float64') "
                        "according to the rule 'safe'")
    # casts only (nothing below writes into x, xp or fp)
    x = x.astype(_np.float64, copy=False)
    xp, fp = xp.astype(_np.float64, copy=False), fp.astype(ftype, copy=False)
    if period is not None:
        if period == 0:
            raise ValueError("period must be a non-zero value")
        period = abs(period)
        left = right = None
        x = nt.mod(x, period)
        xp = nt.mod(xp, period)
        order = nt.argsort(xp)
        xp, fp = xp[order], fp[order]
        xp = nt.concatenate((xp[-1:] - period, xp, xp[0:1] + period))
        fp = nt.concatenate((fp[-1:], fp, fp[0:1]))
    n = xp.shape[0]
    lval = fp[0] if left is None else nt.asarray(left, dtype=ftype)
    rval = fp[-1] if right is None else nt.asarray(right, dtype=ftype)
    if n == 1:
        r = nt.where(x < xp[0], lval, nt.where(x > xp[0], rval, fp[0]))
    else:
        j = nt.clip(nt.searchsorted(xp, x, side='right') - 1, 0, n - 2)
        x0, x1 = xp[j], xp[j + 1]
        y0, y1 = fp[j], fp[j + 1]

        def line(y0, y1):
            # NumPy's loop: a NaN from one end (an infinite x0 or y0) is
            # tried from the other; still NaN between equal samples, the
            # sample. Complex parts each so (never a complex division).
            # (NumPy's complex loop multiplies by 1 / (x1 - x0), its real
            # one divides)
            slope = (y1 - y0) * (1.0 / (x1 - x0)) if cplx else (y1 - y0) / (x1 - x0)
            r = slope * (x - x0) + y0
            r2 = slope * (x - x1) + y1
            r2 = nt.where(nt.isnan(r2) & (y0 == y1), y0, r2)
            return nt.where(nt.isnan(r), r2, r)
        with _np.errstate(all='ignore'):      # NumPy's loop raises nothing
            if cplx:
                r = nt.empty(nt.shape(x), dtype=ftype)
                r.real = line(y0.real, y1.real)
                r.imag = line(y0.imag, y1.imag)
            else:
                r = line(y0, y1)
        # at a sample (x == x0: no arithmetic with infinities), where the
        # slope is undefined (repeated xp) or at the right end, NumPy takes
        # the sample itself
        r = nt.where(x == x0, y0, r)
        r = nt.where(x == x1, y1, r)
        r = nt.where(x < xp[0], lval, r)
        r = nt.where(x > xp[-1], rval, r)
        r = nt.where(x == xp[-1], fp[-1], r)
        r = nt.where(nt.isnan(x), nt.asarray(_np.nan, dtype=ftype), r)
    r = nt.asarray(r).astype(ftype, copy=False)
    return r[()] if r.ndim == 0 else r


def place(arr, mask, vals):
    nt = _nt()
    if not isinstance(arr, Array):
        return F.call("place", _np.place, (arr, mask, vals), {})
    arr._before_write()     # NumPy's warning for a broadcast_arrays result
    if not arr.flags.writeable:
        # NumPy's first step, whatever the mask: a writable C-order copy
        raise ValueError("WRITEBACKIFCOPY base is read-only")
    _multiarray._safe_values(vals, arr.dtype)
    m = nt.ravel(nt.asarray(mask))
    if m.size != arr.size:
        raise ValueError("place: mask and data must be the same size")
    idx = nt.flatnonzero(m)
    v = nt.ravel(nt.asarray(vals, dtype=arr.dtype))
    if idx.size == 0:
        return
    if v.size == 0:
        raise ValueError("Cannot insert from an empty array!")
    nt.put(arr, idx, v)    # put repeats values cyclically, as place


def require(a, dtype=None, requirements=None, *, like=None):
    """NumPy's require, step by step (its flag names, its order of checks;
    a string is read letter by letter, as NumPy iterates it)."""
    if like is not None:
        liked = C.like_call(like, require, locals())
        if liked is not C.NO_LIKE:
            return liked
    nt = _nt()
    if not requirements:
        return nt.asanyarray(a, dtype=dtype)
    names = {'C': 'C', 'C_CONTIGUOUS': 'C', 'CONTIGUOUS': 'C', 'F': 'F',
             'F_CONTIGUOUS': 'F', 'FORTRAN': 'F', 'A': 'A', 'ALIGNED': 'A', 'W': 'W',
             'WRITEABLE': 'W', 'O': 'O', 'OWNDATA': 'O', 'E': 'E', 'ENSUREARRAY': 'E'}
    reqs = {names[r.upper()] for r in requirements}
    subok = 'E' not in reqs           # E: a base-class array
    reqs.discard('E')
    order = 'A'
    if reqs >= {'C', 'F'}:
        raise ValueError('Cannot specify both "C" and "F" order')
    if 'C' in reqs:
        order = 'C'
        reqs.discard('C')
    elif 'F' in reqs:
        order = 'F'
        reqs.discard('F')
    arr = nt.array(a, dtype=dtype, order=order, copy=None, subok=subok)
    for prop in reqs:
        if not arr.flags[prop]:
            if not _is_sub(arr):
                return arr.copy(order)
            # a copy of the instance's class that owns its data (OWNDATA)
            return _ndarray._finalize_as(arr._view().copy(order), arr, None, True)
    return arr


def piecewise(x, condlist, funclist, *args, **kw):
    """NumPy's piecewise: each function sees the elements of x its condition
    selects (boolean indexing) and its values are scattered back."""
    nt = _nt()
    x = nt.asanyarray(x)
    n2 = len(funclist)
    if isinstance(condlist, (bool, _np.bool_)) or (
            not isinstance(condlist, (list, tuple)) and _np.ndim(condlist) == 0) or \
            (not isinstance(condlist[0], (list, tuple, Array, _np.ndarray)) and x.ndim != 0):
        condlist = [condlist]
    conds = [nt.asarray(c, dtype=bool) for c in condlist]
    n = len(conds)
    if n == n2 - 1:
        rest = nt.logical_not(nt.any(nt.stack(conds), axis=0)) if n else nt.ones(x.shape, bool)
        conds.append(rest)
        n += 1
    elif n != n2:
        raise ValueError(f"with {n} condition(s), either {n} or {n + 1} functions are expected")
    y = nt.zeros_like(x)
    for cond, func in zip(conds, funclist):
        cond = nt.broadcast_to(cond, x.shape) if tuple(cond.shape) != tuple(x.shape) else cond
        if not callable(func):
            y[cond] = func
        else:
            vals = x[cond]
            if vals.size > 0:
                y[cond] = func(vals, *args, **kw)
    return y


_normalize_axis_tuple = _np.lib.array_utils.normalize_axis_tuple


# ---- digitize -----------------------------------------------------------------


def _monotonic(b):
    """1 increasing, -1 decreasing, 0 neither (NumPy's _monotonicity)."""
    if b.size < 2:
        return 1
    d0, d1 = b[:-1], b[1:]      # comparisons with NaN are false, as in NumPy's check
    if not bool(_fromnumeric.any(d1 < d0)):
        return 1
    if not bool(_fromnumeric.any(d1 > d0)):
        return -1
    return 0


def digitize(x, bins, right=False):
    """NumPy's digitize, through searchsorted."""
    xa, b = C.asarray(x), C.asarray(bins)
    if not isinstance(xa, Array) or not isinstance(b, Array):
        return F.call("digitize", _np.digitize, (x, bins), dict(right=right))
    if xa.dtype.kind == 'c':
        raise TypeError("x may not be complex")
    if b.ndim == 0:
        raise ValueError("object of too small depth for desired array")
    if b.ndim > 1:
        raise ValueError("object too deep for desired array")
    if b.dtype.kind == 'c':
        raise TypeError(f"Cannot cast array data from dtype('{b.dtype}') to dtype('float64') "
                        "according to the rule 'safe'")
    mono = _monotonic(b)
    if mono == 0:
        raise ValueError("bins must be monotonically increasing or decreasing")
    c = _common(b, xa, x)
    if c is None:
        return F.call("digitize", _np.digitize, (x, bins), dict(right=right))
    b, xa = c
    if mono == -1:
        r = b.size - _core.searchsorted(b[::-1], xa, not right)
    else:
        r = _core.searchsorted(b, xa, not right)
    return r[()] if r.ndim == 0 else r


builtins_range = range


# ---- quantiles ----------------------------------------------------------------
_ALL_METHODS = ('inverted_cdf', 'averaged_inverted_cdf', 'closest_observation',
                'interpolated_inverted_cdf', 'hazen', 'weibull', 'linear', 'median_unbiased',
                'normal_unbiased', 'lower', 'higher', 'midpoint', 'nearest')


# (alpha, beta) of the continuous methods of Hyndman & Fan
_ALPHA_BETA = {'interpolated_inverted_cdf': (0, 1), 'hazen': (0.5, 0.5), 'weibull': (0, 0),
               'median_unbiased': (1 / 3.0, 1 / 3.0), 'normal_unbiased': (3 / 8.0, 3 / 8.0)}


def _boundaries(index, cond):
    prev = _np.floor(index)
    gamma = index - prev
    res = _np.where(cond(gamma, index), prev, prev + 1).astype(_np.intp)
    res[res < 0] = 0
    return res


def _index_table(counts, q, method):
    """NumPy's index arithmetic (numpy/lib/_function_base_impl.py) for lines
    of the given lengths (host int array, shape (K, 1)) and quantiles q (1-d):
    (previous, next, gamma, interpolate). Negative indices count from the
    end of a line, as NumPy's do."""
    n = counts.astype(q.dtype) if q.dtype.kind == 'f' else counts
    with _np.errstate(invalid='ignore'):
        if method == 'lower':
            return _np.floor((n - 1) * q).astype(_np.intp), None, None, False
        if method == 'higher':
            return _np.ceil((n - 1) * q).astype(_np.intp), None, None, False
        if method == 'nearest':
            return _np.around((n - 1) * q).astype(_np.intp), None, None, False
        if method == 'inverted_cdf':
            return _boundaries((n * q) - 1, lambda g, _: g == 0), None, None, False
        if method == 'closest_observation':
            return _boundaries((n * q) - 1 - 0.5,
                               lambda g, i: (g == 0) & (_np.floor(i) % 2 == 1)), None, None, False
        if method == 'linear':
            vi = _np.asanyarray((n - 1) * q)
            if vi.dtype.kind in 'iu':
                return vi.astype(_np.intp), None, None, False
        elif method == 'midpoint':
            vi = _np.asanyarray(0.5 * (_np.floor((n - 1) * q) + _np.ceil((n - 1) * q)))
        elif method == 'averaged_inverted_cdf':
            vi = _np.asanyarray((n * q) - 1)
        else:
            al, be = _ALPHA_BETA[method]
            vi = _np.asanyarray(n * q + (al + q * (1 - al - be)) - 1)
        prev = _np.floor(vi)
        nxt = prev + 1
        above = vi >= counts - 1
        prev[above] = -1
        nxt[above] = -1
        below = vi < 0
        prev[below] = 0
        nxt[below] = 0
        nanv = _np.isnan(vi)
        prev[nanv] = -1
        nxt[nanv] = -1
        gamma = _np.asanyarray(vi - prev)
        if method == 'midpoint':
            g = _np.full(gamma.shape, 0.5)
            _np.copyto(g, 0., where=vi % 1 == 0, casting='unsafe')
            gamma = g
        elif method == 'averaged_inverted_cdf':
            g = _np.full(gamma.shape, 1.)
            _np.copyto(g, 0.5, where=gamma == 0, casting='unsafe')
            gamma = g
        gamma = _np.asanyarray(gamma, dtype=vi.dtype)
        return prev.astype(_np.intp), nxt.astype(_np.intp), gamma, True


def _order_lines(x2, tab, c, extra=()):
    """x2 with the positions of an index table (in lines of c values) and
    `extra` in sorted place: partitioned for a few positions, else sorted."""
    ks = _np.concatenate([t.ravel() for t in tab[:2] if t is not None] +
                         [_np.asarray(extra, dtype=_np.intp)])
    ks = _np.unique(_np.clip(_np.where(ks < 0, ks + c, ks), 0, max(c - 1, 0)))
    return partition(x2, ks, axis=1) if ks.size <= 32 else _fromnumeric.sort(x2, axis=1)


def _quantile(name, npf, a, q, axis, out, overwrite_input, method, keepdims, weights,
              is_pct, nan, median=False):
    x = C.asarray(a)
    kw = dict(axis=axis, out=out, overwrite_input=overwrite_input, method=method,
              keepdims=keepdims, weights=weights)
    if isinstance(x, Array) and x.dtype.kind == 'c':
        raise TypeError("a must be an array of real numbers")
    if method not in _ALL_METHODS:
        raise ValueError(f"{method!r} is not a valid method. Use one of: "
                         f"{dict.fromkeys(_ALL_METHODS).keys()}")
    qn = _host(q)
    if (not isinstance(x, Array) or weights is not None or
            x.size == 0 or qn.dtype.kind not in "iufb" or qn.ndim > 2 or
            (out is not None and not isinstance(out, Array))):
        return F.call(name, npf, (a, q), kw)
    weak_q = type(q) in (int, float)
    qq = _np.true_divide(q if not isinstance(q, Array) else qn, 100) if is_pct \
        else _np.asanyarray(qn)
    qf = _np.asanyarray(qq).ravel()
    ok = (_np.all(0 <= qf) and _np.all(qf <= 1)) if qf.size else True
    if not ok:
        raise ValueError("Percentiles must be in the range [0, 100]" if is_pct
                         else "Quantiles must be in the range [0, 1]")
    nd = x.ndim
    if axis is None:
        red = tuple(builtins_range(nd))
    else:
        # (NumPy's axis errors come before those of the computation: bool's
        # subtract)
        red = _normalize_axis_tuple(axis, nd)
    if not nan:
        # NumPy's ufuncs write out=, before its shape is checked (the nan
        # functions end in out[...] = result: "assignment destination is
        # read-only", after the work)
        check_out_writeable(out)
    # the result dtype, from NumPy on a stand-in of two zeros
    rdt = npf(_np.zeros(2, x.dtype), q if not isinstance(q, Array) else qn,
              method=method).dtype
    keep = [k for k in builtins_range(nd) if k not in red]
    kshape = tuple(x.shape[k] for k in keep)
    L = int(_np.prod(kshape))
    n = int(_np.prod([x.shape[k] for k in red]))
    xt = _fromnumeric.transpose(x, keep + list(red)) if nd else x
    x2 = _fromnumeric.reshape(xt, (L, n))
    nq = qf.size
    floating = x.dtype.kind == 'f'
    if nan and floating:
        # NaNs order last, so a line's valid values are its first `valid`
        valid = n - _numeric.count_nonzero(_u('isnan')(x2), axis=1)        # (L,)
        counts, which = _np.unique(C.to_numpy(valid), return_inverse=True)
        tab = _index_table(counts.reshape(-1, 1), qf, method)
        if counts.size == 1:     # one length for every line: select, do not sort
            s = _order_lines(x2, tab, int(counts[0]))
        else:
            s = _fromnumeric.sort(x2, axis=1)
    else:
        # the indices depend on n and q only: select them (and the last
        # element, the NaN if a line has one) instead of sorting
        tab = _index_table(_np.array([[n]], dtype=_np.int64), qf, method)
        s = _order_lines(x2, tab, n, [n - 1])
    if nan and floating:
        vrow = _stride_tricks.broadcast_to(_i64(which.reshape(L, 1)), (L, nq))
        line_n = _stride_tricks.broadcast_to(_fromnumeric.reshape(valid, (L, 1)), (L, nq))

        def per_line(t):
            # (the table's columns follow the result's: a slice)
            return _core.gather(C.from_numpy(_np.ascontiguousarray(t)), [vrow, (1, 0, 1)],
                                (L, nq))
    else:
        def per_line(t):
            return _stride_tricks.broadcast_to(C.from_numpy(_np.ascontiguousarray(t)), (L, nq))
        line_n = n

    def values(t):
        i = per_line(t)
        i = _multiarray.where(i < 0, i + line_n, i)
        i = _fromnumeric.clip(i, 0, n - 1)
        # line l of s is the result's row l (a slice): each task reads its
        # block's lines, between its least and greatest index
        return _core.gather(s, [(0, 0, 1), i], (L, nq))

    prev, nxt, gamma, interp = tab
    if not interp:
        res = values(prev)
    else:
        lo, hi = values(prev), values(nxt)
        g = per_line(gamma)
    if interp and median:
        # nanmedian (q 0.5, midpoint): NumPy's is a median of the valid
        # values, the middle one or the mean of the two, no lerp (whose
        # inf - inf made nanmedian([1, 2, inf]) NaN)
        res = _multiarray.where(g == 0, lo, (lo + hi) / 2)
    elif interp:
        diff = hi - lo
        if weak_q:
            ldt = rdt
            t, omt = _cast(g, ldt), _cast(1 - g, ldt)
        else:
            t, omt = g, 1 - g
        res = lo + diff * t
        res = _multiarray.where(g >= 0.5, _cast(hi - diff * omt, res.dtype), res)
    res = _cast(res, rdt)
    if floating:
        if nan:
            empty = valid == 0
            # NumPy's per-line loop warns once per all-NaN line (once for a
            # full reduction)
            for _ in builtins_range(int(_numeric.count_nonzero(empty)) if keep else
                                    int(bool(_fromnumeric.any(empty)))):
                F.warn("All-NaN slice encountered", RuntimeWarning)
            bad = _stride_tricks.broadcast_to(_fromnumeric.reshape(empty, (L, 1)), (L, nq))
            if bool(empty[0]):
                # NumPy takes the dtype of its first line's result, and an
                # all-NaN line gives a NaN of the input's dtype
                rdt = x.dtype
        else:
            last = s[:, n - 1:n]
            bad = _stride_tricks.broadcast_to(last != last, (L, nq))
            if not kshape and _np.ndim(qq) == 0 and out is None and bool(bad[0, 0]):
                # a 0-d result of a line with NaN is NumPy's last element itself
                if not keepdims:
                    return x.dtype.type(_np.nan)
                rdt = x.dtype
        res = _multiarray.where(bad, _np.nan, res)
        res = _cast(res, rdt)
    qshape = _np.shape(qq)
    if keepdims:
        kshape = tuple(1 if k in red else x.shape[k] for k in builtins_range(nd))
    if nan and qshape and keep:
        # NumPy's nanquantile along an axis: apply_along_axis fills a C-order
        # (kept dims, q dims) buffer, moveaxis brings q to the front (a view
        # of that layout, and a reshape of it copies as NumPy's)
        res = _fromnumeric.reshape(res.copy(order='C'), kshape + qshape)
        nk = len(kshape)
        res = _fromnumeric.transpose(res, list(builtins_range(nk, nk + len(qshape))) +
                                     list(builtins_range(nk)))
    else:
        # NumPy's result is a new C-contiguous array (a reshape of it a view)
        res = _fromnumeric.transpose(res)                     # (nq, L)
        res = _fromnumeric.reshape(res, qshape + kshape)
        if not res.flags.c_contiguous:
            res = res.copy(order='C')
    if out is not None:
        if not nan and method not in ('inverted_cdf', 'closest_observation', 'lower', 'higher',
                                      'nearest') \
                and not _np.can_cast(res.dtype, out.dtype, 'same_kind'):
            # NumPy's interpolation ends in add(..., out=out): its casting
            # error (the nan functions' end in an unsafe out[...] = result)
            e = _np.empty(0, res.dtype)
            _np.add(e, e, out=_np.empty(0, out.dtype))
        _multiarray.copyto(out, res, casting='unsafe')
        return out
    # (NumPy's keepdims result is r[..., newaxis...]: a 0-d array for 0-d input)
    return res if res.ndim or keepdims else res[()]


def quantile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
             keepdims=False, *, weights=None):
    """NumPy's quantile from the core's sort and gather."""
    return _quantile('quantile', _np.quantile, a, q, axis, out, overwrite_input, method,
                     keepdims, weights, False, False)


def percentile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
               keepdims=False, *, weights=None):
    """NumPy's percentile from the core's sort and gather."""
    return _quantile('percentile', _np.percentile, a, q, axis, out, overwrite_input, method,
                     keepdims, weights, True, False)


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, *,
        dtype=None):
    """NumPy's cov: centred rows and one matrix product."""
    if ddof is not None and ddof != int(ddof):
        raise ValueError("ddof must be integer")
    x = C.asarray(m)
    yy = C.asarray(y) if y is not None else None
    if not isinstance(x, Array) or (y is not None and not isinstance(yy, Array)):
        return F.call("cov (dtype)", _np.cov, (m, y, rowvar, bias, ddof, fweights, aweights),
                      {'dtype': dtype})
    if x.ndim > 2:
        raise ValueError("m has more than 2 dimensions")
    if yy is not None and yy.ndim > 2:
        raise ValueError("y has more than 2 dimensions")
    if dtype is None:
        dtype = _np.result_type(x.dtype, _np.float64) if yy is None else \
            _np.result_type(x.dtype, yy.dtype, _np.float64)
    elif D.code(_np.dtype(dtype)) is None:        # float16, longdouble: NumPy's
        return F.call("cov (dtype)", _np.cov, (m, y, rowvar, bias, ddof, fweights, aweights),
                      {'dtype': dtype})
    X = _shape_base.atleast_2d(x).astype(dtype)
    if not rowvar and x.ndim != 1:      # NumPy's test: m's ndim, not X's rows
        X = X.T
    if X.shape[0] == 0:
        return _core.empty((0, 0), D.code(_np.dtype(_np.float64)))    # NumPy's, any dtype
    if yy is not None:
        Y = _shape_base.atleast_2d(yy).astype(dtype)
        if not rowvar and Y.shape[0] != 1:
            Y = Y.T
        X = _multiarray.concatenate((X, Y), axis=0)
    if ddof is None:
        ddof = 0 if bias else 1
    w = None
    if fweights is not None:
        fw = C.asnd(fweights)
        if D.KIND[fw._dt] not in 'iub' and not bool(_fromnumeric.all(fw == _fromnumeric.around(fw))):
            raise TypeError("fweights must be integer")
        if fw.ndim > 1:
            raise RuntimeError("cannot handle multidimensional fweights")
        if fw.shape[0] != X.shape[1]:
            raise RuntimeError("incompatible numbers of samples and fweights")
        if bool(_fromnumeric.any(fw < 0)):
            raise ValueError("fweights cannot be negative")
        w = fw.astype(_np.float64)
    if aweights is not None:
        aw = C.asnd(aweights).astype(_np.float64)
        if aw.ndim > 1:
            raise RuntimeError("cannot handle multidimensional aweights")
        if aw.shape[0] != X.shape[1]:
            raise RuntimeError("incompatible numbers of samples and aweights")
        if bool(_fromnumeric.any(aw < 0)):
            raise ValueError("aweights cannot be negative")
        w = aw if w is None else w * aw
    if w is None:
        avg = _fromnumeric.mean(X, axis=1)
        w_sum = None
    else:
        w_sum = _fromnumeric.sum(w)
        if float(w_sum) == 0.0:
            raise ZeroDivisionError("Weights sum to zero, can't be normalized")
        avg = _u('divide')(_fromnumeric.sum(_u('multiply')(X, w), axis=1), w_sum)
        avg = avg.astype(_np.result_type(X.dtype, _np.float64), copy=False)
    if w is None:
        fact = X.shape[1] - ddof
    elif ddof == 0:
        fact = w_sum
    elif aweights is None:
        fact = w_sum - ddof
    else:
        fact = w_sum - ddof * _fromnumeric.sum(w * aw) / w_sum
    if fact <= 0:
        F.warn("Degrees of freedom <= 0 for slice", RuntimeWarning)
        fact = 0.0
    if not _np.can_cast(avg.dtype, X.dtype, 'same_kind'):
        # NumPy's X -= avg[:, None] in place: its casting error (cov(dtype=int))
        _np.subtract(_np.empty(0, X.dtype), _np.empty(0, avg.dtype), out=_np.empty(0, X.dtype))
    X = _u('subtract')(X, avg[:, None])
    X_T = X.T if w is None else _u('multiply')(X, w).T
    if D.KIND[X_T._dt] == 'c':
        X_T = _u('conjugate')(X_T)
    c = _core.dot(X, X_T, None)
    # NumPy's c *= np.true_divide(1, fact): 1/0 and 0 * inf warn as there
    c = _u('multiply')(c, float(_u('true_divide')(1, fact)))
    c = c.astype(X.dtype, copy=False) if c.dtype != X.dtype else c
    return c._squeeze(None)


def corrcoef(x, y=None, rowvar=True, *, dtype=None):
    # NumPy 2.4 has no bias= or ddof= any more (a TypeError, as here)
    c = cov(x, y, rowvar, dtype=dtype)
    if not isinstance(c, Array):      # a dtype ndtile does not hold (float16)
        return F.call("corrcoef (dtype)", _np.corrcoef, (x, y, rowvar), {'dtype': dtype})
    # (NumPy's divisions warn of 0 / 0 and x / 0, and so do these)
    if c.ndim != 2:
        return _umath.UFUNCS['divide'](c, c)     # (a 0-d result: NumPy's scalar)
    d = _core.diagonal(c, 0, 0, 1)
    stddev = _u('sqrt')(d._real() if D.KIND[d._dt] == 'c' else d)
    c = _u('divide')(c, stddev[:, None])
    c = _u('divide')(c, stddev[None, :])
    if D.KIND[c._dt] == 'c':
        c._real()._assign(_fromnumeric.clip(c._real(), -1, 1), _core.CASTING_UNSAFE)
        c._imag()._assign(_fromnumeric.clip(c._imag(), -1, 1), _core.CASTING_UNSAFE)
    else:
        c = _fromnumeric.clip(c, -1, 1)
    return c


def gradient(f, *varargs, axis=None, edge_order=1):
    """NumPy's gradient: second-order central differences inside, first or
    second order one-sided differences at the edges; uniform or coordinate
    spacing per axis."""
    x = C.asarray(f)
    if not isinstance(x, Array):
        return F.call("gradient (dtype)", _np.gradient, (f,) + varargs,
                      {'axis': axis, 'edge_order': edge_order})
    N = x.ndim
    if axis is None:
        axes = tuple(range(N))
    else:
        axes = _np.lib.array_utils.normalize_axis_tuple(axis, N)
    len_axes = len(axes)
    n = len(varargs)
    if n == 0:
        dx = [1.0] * len_axes
    elif n == 1 and _np.ndim(C.to_np_tree(varargs[0]) if not isinstance(varargs[0], Array)
                             else varargs[0]) == 0:
        dx = [varargs[0]] * len_axes
    elif n == len_axes:
        dx = list(varargs)
        for i, distances in enumerate(dx):
            dd = C.asnd(distances)
            if dd.ndim == 0:
                continue
            elif dd.ndim != 1:
                raise ValueError("distances must be either scalars or 1d")
            if len(dd) != x.shape[axes[i]]:
                raise ValueError("when 1d, distances must match the length of the "
                                 "corresponding dimension")
            if D.KIND[dd._dt] in 'iub':
                dd = dd.astype(_np.float64)
            diffx = diff(dd)
            if not diffx.size:
                # NumPy's `(diffx == diffx[0]).all()` of one coordinate,
                # before the length check below
                raise IndexError("index 0 is out of bounds for axis 0 with size 0")
            if bool(_fromnumeric.all(diffx == diffx[0])):
                diffx = diffx[0]
            dx[i] = diffx
    else:
        raise TypeError("invalid number of arguments")
    if edge_order > 2:
        raise ValueError("'edge_order' greater than 2 not supported")
    otype = x.dtype
    if otype.kind not in 'fc':
        # NumPy: integers are converted (no modular differences), every
        # other kind (bool) only gets a float64 result
        if otype.kind in 'iu':
            x = x.astype(_np.float64)
        otype = _np.dtype(_np.float64)
    sub = _u('subtract')
    mul, div, add = _u('multiply'), _u('divide'), _u('add')
    outvals = []
    for ax, ax_dx in zip(axes, dx):
        if x.shape[ax] < edge_order + 1:
            raise ValueError("Shape of array too small to calculate a numerical gradient, "
                             "at least (edge_order + 1) elements are required.")
        out = _core.empty(x.shape, D.code(otype))
        pre = (slice(None),) * ax

        def sl(s):
            return x._view_index(pre + (s,))

        def osl(s):
            return out._view_index(pre + (s,))
        uniform = not isinstance(ax_dx, Array) or ax_dx.ndim == 0
        if not uniform:
            shp = (1,) * ax + (-1,) + (1,) * (N - ax - 1)

            def col(arr):
                return arr._reshape(shp)
        # interior
        if uniform:
            osl(slice(1, -1))._assign(div(sub(sl(slice(2, None)), sl(slice(None, -2))),
                                          2. * ax_dx), _core.CASTING_UNSAFE)
        else:
            dx1 = ax_dx[0:-1]
            dx2 = ax_dx[1:]
            a = div(-dx2, mul(dx1, add(dx1, dx2)))
            b = div(sub(dx2, dx1), mul(dx1, dx2))
            c = div(dx1, mul(dx2, add(dx1, dx2)))
            osl(slice(1, -1))._assign(add(add(mul(col(a), sl(slice(None, -2))),
                                              mul(col(b), sl(slice(1, -1)))),
                                          mul(col(c), sl(slice(2, None)))), _core.CASTING_UNSAFE)
        if edge_order == 1:
            d0 = ax_dx if uniform else ax_dx[0]
            osl(slice(0, 1))._assign(div(sub(sl(slice(1, 2)), sl(slice(0, 1))), d0), _core.CASTING_UNSAFE)
            dn = ax_dx if uniform else ax_dx[-1]
            osl(slice(-1, None))._assign(div(sub(sl(slice(-1, None)), sl(slice(-2, -1))),
                                             dn), _core.CASTING_UNSAFE)
        else:
            if uniform:
                a, b, c = -1.5 / ax_dx, 2. / ax_dx, -0.5 / ax_dx
            else:
                dx1 = ax_dx[0]
                dx2 = ax_dx[1]
                a = -(2. * dx1 + dx2) / (dx1 * (dx1 + dx2))
                b = (dx1 + dx2) / (dx1 * dx2)
                c = - dx1 / (dx2 * (dx1 + dx2))
            osl(slice(0, 1))._assign(add(add(mul(a, sl(slice(0, 1))), mul(b, sl(slice(1, 2)))),
                                         mul(c, sl(slice(2, 3)))), _core.CASTING_UNSAFE)
            if uniform:
                a, b, c = 0.5 / ax_dx, -2. / ax_dx, 1.5 / ax_dx
            else:
                dx1 = ax_dx[-2]
                dx2 = ax_dx[-1]
                a = (dx2) / (dx1 * (dx1 + dx2))
                b = - (dx2 + dx1) / (dx1 * dx2)
                c = (2. * dx2 + dx1) / (dx2 * (dx1 + dx2))
            osl(slice(-1, None))._assign(add(add(mul(a, sl(slice(-3, -2))),
                                                 mul(b, sl(slice(-2, -1)))),
                                             mul(c, sl(slice(-1, None)))), _core.CASTING_UNSAFE)
        outvals.append(out)
    if len_axes == 1:
        return outvals[0]
    return tuple(outvals)
