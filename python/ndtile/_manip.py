"""Shape manipulation, joining, selection and other functions composed of
core operations (views, copies, assignment and ufuncs)."""
import builtins
import operator

import numpy as _np

from . import _core
from . import _dtypes as D
from . import _convert as C
from . import _fallback as F

Array = _core.Array
_NoValue = _np._NoValue


def _nd_or_fallback(name, npfunc, args, kwargs, *arrays):
    """Converts arrays; returns (list, None) or (None, fallback result)."""
    out = []
    for a in arrays:
        x = C.asarray(a)
        if not isinstance(x, Array):
            return None, F.call(f"{name} (dtype)", npfunc, args, kwargs)
        out.append(x)
    return out, None


def _norm_axis(axis, ndim):
    ax = operator.index(axis)
    if ax < -ndim or ax >= ndim:
        raise _np.exceptions.AxisError(ax, ndim)
    return ax + ndim if ax < 0 else ax


# ---- shapes ------------------------------------------------------------------
def reshape(a, /, shape=None, order='C', *, newshape=None, copy=None):
    if shape is None:
        shape = newshape
    if shape is None:
        raise TypeError("reshape() missing 1 required positional argument: 'shape'")
    xs, fb = _nd_or_fallback('reshape', _np.reshape, (a, shape), {'order': order}, a)
    if fb is not None:
        return fb
    x = xs[0]
    if order not in ('C', 'A', 'K', None):
        return F.call("reshape (order='F')", _np.reshape, (a, shape), {'order': order})
    if isinstance(shape, (int, _np.integer)):
        shape = (shape,)
    r = x._reshape(tuple(shape))
    if copy is False and not r._same_store(x):
        raise ValueError("Unable to avoid creating a copy while reshaping.")
    if copy and r._same_store(x):
        r = r._copy()
    return r


def ravel(a, order='C'):
    xs, fb = _nd_or_fallback('ravel', _np.ravel, (a,), {'order': order}, a)
    if fb is not None:
        return fb
    if order not in ('C', 'A', 'K'):
        return F.call("ravel (order='F')", _np.ravel, (a,), {'order': order})
    return xs[0]._reshape((-1,))


def transpose(a, axes=None):
    xs, fb = _nd_or_fallback('transpose', _np.transpose, (a,), {'axes': axes}, a)
    if fb is not None:
        return fb
    x = xs[0]
    if axes is not None:
        axes = tuple(operator.index(ax) for ax in axes)
        if len(axes) != x.ndim:
            raise ValueError("axes don't match array")
        for ax in axes:
            _norm_axis(ax, x.ndim)
    return x._transpose(axes)


def permute_dims(a, axes=None):
    return transpose(a, axes)


def matrix_transpose(x, /):
    x = C.asnd(x)
    if x.ndim < 2:
        raise ValueError("Input array must be at least 2-dimensional")
    return x._swapaxes(-1, -2)


def swapaxes(a, axis1, axis2):
    xs, fb = _nd_or_fallback('swapaxes', _np.swapaxes, (a, axis1, axis2), {}, a)
    if fb is not None:
        return fb
    return xs[0]._swapaxes(operator.index(axis1), operator.index(axis2))


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
    x = C.asnd(a)
    n = x.ndim
    axis = _norm_axis(axis, n)
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


def squeeze(a, axis=None):
    xs, fb = _nd_or_fallback('squeeze', _np.squeeze, (a,), {'axis': axis}, a)
    if fb is not None:
        return fb
    x = xs[0]
    if axis is None:
        return x._squeeze(None)
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    axes = tuple(_norm_axis(ax, x.ndim) for ax in axes)
    return x._squeeze(axes) if axes else x._view()


def expand_dims(a, axis):
    xs, fb = _nd_or_fallback('expand_dims', _np.expand_dims, (a, axis), {}, a)
    if fb is not None:
        return fb
    x = xs[0]
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    out_ndim = len(axes) + x.ndim
    axes = _np.lib.array_utils.normalize_axis_tuple(axes, out_ndim)
    for ax in sorted(axes):
        x = x._expand_dims(ax)
    return x


def broadcast_to(array, shape, subok=False):
    xs, fb = _nd_or_fallback('broadcast_to', _np.broadcast_to, (array, shape), {}, array)
    if fb is not None:
        return fb
    if isinstance(shape, (int, _np.integer)):
        shape = (shape,)
    return xs[0]._broadcast_to(tuple(shape))


def broadcast_shapes(*args):
    return _core.broadcast_shapes([(s,) if isinstance(s, (int, _np.integer)) else tuple(s)
                                   for s in args])


def broadcast_arrays(*args, subok=False):
    xs, fb = _nd_or_fallback('broadcast_arrays', _np.broadcast_arrays, args, {}, *args)
    if fb is not None:
        return fb
    shape = _core.broadcast_shapes([x.shape for x in xs])
    return tuple(x if x.shape == shape else x._broadcast_to(shape) for x in xs)


def atleast_1d(*arys):
    res = []
    for a in arys:
        x = C.asarray(a)
        if x.ndim == 0:
            x = x.reshape(1)
        res.append(x)
    return res[0] if len(res) == 1 else tuple(res)


def atleast_2d(*arys):
    res = []
    for a in arys:
        x = C.asarray(a)
        if x.ndim == 0:
            x = x.reshape(1, 1)
        elif x.ndim == 1:
            x = x[_np.newaxis, :]
        res.append(x)
    return res[0] if len(res) == 1 else tuple(res)


def atleast_3d(*arys):
    res = []
    for a in arys:
        x = C.asarray(a)
        if x.ndim == 0:
            x = x.reshape(1, 1, 1)
        elif x.ndim == 1:
            x = x[_np.newaxis, :, _np.newaxis]
        elif x.ndim == 2:
            x = x[:, :, _np.newaxis]
        res.append(x)
    return res[0] if len(res) == 1 else tuple(res)


def flip(m, axis=None):
    xs, fb = _nd_or_fallback('flip', _np.flip, (m,), {'axis': axis}, m)
    if fb is not None:
        return fb
    x = xs[0]
    if axis is None:
        key = (slice(None, None, -1),) * x.ndim
    else:
        axes = _np.lib.array_utils.normalize_axis_tuple(axis, x.ndim)
        key = tuple(slice(None, None, -1) if k in axes else slice(None) for k in range(x.ndim))
    return x._view_index(key)


def fliplr(m):
    x = C.asnd(m)
    if x.ndim < 2:
        raise ValueError("Input must be >= 2-d.")
    return x[:, ::-1]


def flipud(m):
    x = C.asnd(m)
    if x.ndim < 1:
        raise ValueError("Input must be >= 1-d.")
    return x[::-1, ...]


# ---- joining and splitting --------------------------------------------------------
def concatenate(arrays, /, axis=0, out=None, *, dtype=None, casting="same_kind"):
    arrays = list(arrays)
    xs = []
    for a in arrays:
        x = C.asarray(a)
        if not isinstance(x, Array):
            return F.call("concatenate (dtype)", _np.concatenate, (arrays,),
                          {'axis': axis, 'out': out, 'dtype': dtype, 'casting': casting})
        xs.append(x)
    if not xs:
        raise ValueError("need at least one array to concatenate")
    if axis is None:
        xs = [x._reshape((-1,)) for x in xs]
        axis = 0
    nd = xs[0].ndim
    if nd == 0:
        raise ValueError("zero-dimensional arrays cannot be concatenated")
    axis = _norm_axis(axis, nd)
    shape = list(xs[0].shape)
    for i, x in enumerate(xs[1:], 1):
        if x.ndim != nd:
            raise ValueError(f"all the input arrays must have same number of dimensions, but the "
                             f"array at index 0 has {nd} dimension(s) and the array at index "
                             f"{i} has {x.ndim} dimension(s)")
        for k in range(nd):
            if k != axis and x.shape[k] != shape[k]:
                raise ValueError(f"all the input array dimensions except for the concatenation "
                                 f"axis must match exactly, but along dimension {k}, the array "
                                 f"at index 0 has size {shape[k]} and the array at index {i} "
                                 f"has size {x.shape[k]}")
        shape[axis] += x.shape[axis]
    if out is not None:
        dt = out.dtype
    elif dtype is not None:
        dt = D.as_dtype(dtype)
    else:
        dt = _np.result_type(*[x.dtype for x in xs])
    c = D.code(dt)
    if c is None:
        return F.call("concatenate (dtype)", _np.concatenate, (arrays,),
                      {'axis': axis, 'out': out, 'dtype': dtype, 'casting': casting})
    for x in xs:
        if not _np.can_cast(x.dtype, dt, casting):
            raise TypeError(f"Cannot cast array data from {x.dtype!r} to {dt!r} according to "
                            f"the rule {casting!r}")
    if out is not None and not isinstance(out, Array):
        res = _core.empty(tuple(shape), c)
    elif out is not None:
        if out.shape != tuple(shape):
            raise ValueError("Output array has wrong dimensionality")
        res = out
    else:
        res = _core.empty(tuple(shape), c)
    pos = 0
    pre = (slice(None),) * axis
    for x in xs:
        n = x.shape[axis]
        if n:
            res._view_index(pre + (slice(pos, pos + n),))._assign(x, 4)
        pos += n
    if out is not None and not isinstance(out, Array):
        _np.copyto(out, C.to_numpy(res))
        return out
    return res


def concat(arrays, /, *, axis=0):
    return concatenate(arrays, axis=axis)


def stack(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    arrays = list(arrays)
    if not arrays:
        raise ValueError('need at least one array to stack')
    xs = []
    for a in arrays:
        x = C.asarray(a)
        if not isinstance(x, Array):
            return F.call("stack (dtype)", _np.stack, (arrays,),
                          {'axis': axis, 'out': out, 'dtype': dtype, 'casting': casting})
        xs.append(x)
    shapes = {x.shape for x in xs}
    if len(shapes) != 1:
        raise ValueError('all input arrays must have the same shape')
    result_ndim = xs[0].ndim + 1
    axis = _norm_axis(axis, result_ndim)
    xs = [x._expand_dims(axis) for x in xs]
    return concatenate(xs, axis=axis, out=out, dtype=dtype, casting=casting)


def hstack(tup, *, dtype=None, casting="same_kind"):
    arrs = atleast_1d(*tup)
    if not isinstance(arrs, tuple):
        arrs = (arrs,)
    if arrs and arrs[0].ndim == 1:
        return concatenate(arrs, 0, dtype=dtype, casting=casting)
    return concatenate(arrs, 1, dtype=dtype, casting=casting)


def vstack(tup, *, dtype=None, casting="same_kind"):
    arrs = atleast_2d(*tup)
    if not isinstance(arrs, tuple):
        arrs = (arrs,)
    return concatenate(arrs, 0, dtype=dtype, casting=casting)


row_stack = vstack


def dstack(tup):
    arrs = atleast_3d(*tup)
    if not isinstance(arrs, tuple):
        arrs = (arrs,)
    return concatenate(arrs, 2)


def column_stack(tup):
    arrays = []
    for v in tup:
        x = C.asarray(v)
        if x.ndim < 2:
            x = atleast_2d(x).T if isinstance(x, Array) else _np.atleast_2d(x).T
        arrays.append(x)
    return concatenate(arrays, 1)


def array_split(ary, indices_or_sections, axis=0):
    x = C.asarray(ary)
    if not isinstance(x, Array):
        return F.call("array_split (dtype)", _np.array_split, (ary, indices_or_sections),
                      {'axis': axis})
    axis_n = _norm_axis(axis, x.ndim) if x.ndim else axis
    ntotal = x.shape[axis_n]
    try:
        nsec = len(indices_or_sections) + 1
        div_points = [0] + [int(i) for i in indices_or_sections] + [ntotal]
    except TypeError:
        nsec = int(indices_or_sections)
        if nsec <= 0:
            raise ValueError('number sections must be larger than 0.') from None
        each, extras = divmod(ntotal, nsec)
        sizes = [0] + extras * [each + 1] + (nsec - extras) * [each]
        div_points = list(_np.cumsum(sizes))
    pre = (slice(None),) * axis_n
    return [x._view_index(pre + (slice(int(div_points[i]), int(div_points[i + 1])),))
            for i in range(nsec)]


def split(ary, indices_or_sections, axis=0):
    try:
        len(indices_or_sections)
    except TypeError:
        sections = indices_or_sections
        n = C.asarray(ary).shape[axis]
        if n % sections:
            raise ValueError('array split does not result in an equal division') from None
    return array_split(ary, indices_or_sections, axis)


def hsplit(ary, indices_or_sections):
    x = C.asarray(ary)
    if x.ndim == 0:
        raise ValueError('hsplit only works on arrays of 1 or more dimensions')
    return split(x, indices_or_sections, 1 if x.ndim > 1 else 0)


def vsplit(ary, indices_or_sections):
    x = C.asarray(ary)
    if x.ndim < 2:
        raise ValueError('vsplit only works on arrays of 2 or more dimensions')
    return split(x, indices_or_sections, 0)


def dsplit(ary, indices_or_sections):
    x = C.asarray(ary)
    if x.ndim < 3:
        raise ValueError('dsplit only works on arrays of 3 or more dimensions')
    return split(x, indices_or_sections, 2)


# ---- elementwise compositions ------------------------------------------------------
def where(condition, x=_NoValue, y=_NoValue, /):
    from . import _ufunc as U
    if x is _NoValue and y is _NoValue:
        return nonzero(condition)
    if x is _NoValue or y is _NoValue:
        raise ValueError("either both or neither of x and y should be given")
    try:
        c = U.operand(condition)
        ops = [U.operand(x), U.operand(y)]
    except U._Unsupported:
        return F.call("where (dtype)", _np.where, (condition, x, y), {})
    if not isinstance(c, Array):
        c = _core.scalar(bool(c), D.BOOL, False)
    elif c._dt != D.BOOL:
        c = c._astype(D.BOOL, 4)
    if not isinstance(ops[0], Array) and not isinstance(ops[1], Array) and c.ndim == 0 and \
            not isinstance(condition, Array):
        return _np.where(condition, x, y)
    if any(type(o) is int for o in ops):
        # NumPy's where casts Python ints to the result dtype, wrapping
        st = U.strong_type(ops)
        for i, o in enumerate(ops):
            if type(o) is not int:
                continue
            lt = D.INT64 if st is None else _core.promote(D.INT64, 1, st, 0)
            if not D.is_int(lt):
                if not -2**63 <= o < 2**63:
                    ops[i] = float(o)
                continue
            if not -2**63 <= o < 2**63:
                raise OverflowError("Python int too large to convert to C long")
            ops[i] = int(_np.array(o, dtype=_np.int64).astype(D.DTYPES[lt]))
    return _core.apply(U.WHERE, [c] + ops)


def argwhere(a):
    x = C.asarray(a)
    if not isinstance(x, Array) or x.ndim == 0:
        return F.call("argwhere", _np.argwhere, (a,), {})
    return _core.argwhere(x)


def nonzero(a):
    x = C.asarray(a)
    if not isinstance(x, Array) or x.ndim == 0:
        return F.call("nonzero", _np.nonzero, (a,), {})
    w = _core.argwhere(x)
    return tuple(w[:, k].copy() for k in range(x.ndim))


def flatnonzero(a):
    return nonzero(ravel(a))[0]


def bincount(x, /, weights=None, minlength=0):
    xa = C.asarray(x)
    w = None if weights is None else C.asarray(weights)
    if not isinstance(xa, Array) or (w is not None and not isinstance(w, Array)):
        return F.call("bincount", _np.bincount, (x,), dict(weights=weights, minlength=minlength))
    if minlength is None:
        raise TypeError("use 0 instead of None for minlength")
    return _core.bincount(xa, w, operator.index(minlength))


def clip(a, a_min=_NoValue, a_max=_NoValue, out=None, *, min=_NoValue, max=_NoValue,
         **kwargs):
    from . import _ufunc as U
    if min is not _NoValue:
        if a_min is not _NoValue:
            raise ValueError("Passed more than one argument for the minimum: `a_min` and `min`")
        a_min = min
    if max is not _NoValue:
        if a_max is not _NoValue:
            raise ValueError("Passed more than one argument for the maximum: `a_max` and `max`")
        a_max = max
    a_min = None if a_min is _NoValue else a_min
    a_max = None if a_max is _NoValue else a_max
    if kwargs or (out is not None and not isinstance(out, Array)):
        return F.call("clip (kwargs)", _np.clip, (a, a_min, a_max),
                      dict(kwargs, out=out))
    try:
        x = U.operand(a)
        lo = None if a_min is None else U.operand(a_min)
        hi = None if a_max is None else U.operand(a_max)
    except U._Unsupported:
        return F.call("clip (dtype)", _np.clip, (a, a_min, a_max), {'out': out})
    if not isinstance(x, Array):
        x = C.asnd(_np.asarray(x))
    ops = [x] + [o for o in (lo, hi) if o is not None]
    if any(type(o) is int for o in ops[1:]):
        try:
            U.fix_ints(_core.UFUNC_NAMES.index('clip') if len(ops) == 3 else
                       U._CORE_INDEX['minimum'], ops)
        except OverflowError:
            return F.call("clip (Python int bounds)", _np.clip, (a, a_min, a_max), {'out': out})
        it = iter(ops[1:])
        lo = next(it) if lo is not None else None
        hi = next(it) if hi is not None else None
    return _core.clip(x, lo, hi, out)


def round(a, decimals=0, out=None):
    from . import _ufunc as U
    x = C.asarray(a)
    if not isinstance(x, Array) or (out is not None and not isinstance(out, Array)):
        return F.call("round (dtype)", _np.round, (a,), {'decimals': decimals, 'out': out})
    decimals = operator.index(decimals)
    k = D.KIND[x._dt]
    if k == 'b':
        return F.call("round (bool)", _np.round, (a,), {'decimals': decimals, 'out': out})
    if k in 'iu':
        if decimals >= 0:
            if out is None:
                return x._copy()
            out._assign(x, 4)
            return out
        return F.call("round (integer, decimals<0)", _np.round, (a,),
                      {'decimals': decimals, 'out': out})
    rint = U.UFUNCS['rint']
    if decimals == 0:
        return rint(x, out=out)
    if decimals > 0:
        f = 10.0 ** decimals
        y = rint(x * f)
        return U.UFUNCS['true_divide'](y, f, out=out)
    f = 10.0 ** (-decimals)
    y = rint(x / f)
    return U.UFUNCS['multiply'](y, f, out=out)


around = round


def real(val):
    x = C.asarray(val)
    if isinstance(x, Array):
        return x._real()
    return _np.real(val)


def imag(val):
    x = C.asarray(val)
    if isinstance(x, Array):
        return x._imag()
    return _np.imag(val)


def angle(z, deg=False):
    from . import _ufunc as U
    x = C.asarray(z)
    if not isinstance(x, Array):
        return F.call("angle (dtype)", _np.angle, (z,), {'deg': deg})
    if D.KIND[x._dt] == 'c':
        zi, zr = x._imag(), x._real()
    else:
        zi, zr = 0, x
        if D.KIND[x._dt] in 'biu':
            zr = x._astype(D.FLOAT64, 4)
    a = U.UFUNCS['arctan2'](zi, zr)
    if deg:
        a = a * (180 / _np.pi)
    return a


def copyto(dst, src, casting='same_kind', where=True):
    from . import _ufunc as U
    if not isinstance(dst, Array):
        return _np.copyto(dst, C.to_np_tree(src), casting=casting, where=C.to_np_tree(where))
    try:
        s = U.operand(src)
    except U._Unsupported:
        return F.call("copyto (dtype)", _np.copyto, (dst, src),
                      {'casting': casting, 'where': where})
    if isinstance(s, Array) and not _np.can_cast(s.dtype, dst.dtype, casting):
        raise TypeError(f"Cannot cast array data from {s.dtype!r} to {dst.dtype!r} according "
                        f"to the rule {casting!r}")
    if not isinstance(s, Array):
        s = C.asnd(_np.asarray(s, dtype=dst.dtype))
    if where is True:
        dst._assign(s, 4)
        return None
    w = U.operand(where)
    if not isinstance(w, Array):
        w = _core.scalar(bool(w), D.BOOL, False)
    if s._dt != dst._dt:
        s = s._astype(dst._dt, 4)
    _core.apply(U.WHERE, [w, s, dst], dst)
    return None


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    from . import _ufunc as U
    if not (isinstance(a, Array) or isinstance(b, Array)):
        return _np.isclose(C.to_np_tree(a), C.to_np_tree(b), rtol, atol, equal_nan)
    x = U.operand(a)
    y = U.operand(b)
    if isinstance(y, Array):
        if D.KIND[y._dt] not in 'fc':
            y = y._astype(D.FLOAT64, 4)
    else:
        y = float(y) if not isinstance(y, complex) else y
    absolute, isfinite = U.UFUNCS['absolute'], U.UFUNCS['isfinite']
    r = U.UFUNCS['less_equal'](absolute(U.UFUNCS['subtract'](x, y)),
                               atol + rtol * absolute(y))
    r = (r & isfinite(y)) | U.UFUNCS['equal'](x, y)
    if equal_nan:
        isnan = U.UFUNCS['isnan']
        r = r | (isnan(x) & isnan(y))
    return r


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    r = isclose(a, b, rtol, atol, equal_nan)
    if isinstance(r, Array):
        from ._reduce import all as _all
        return builtins.bool(_all(r))
    return builtins.bool(_np.all(r))


def array_equal(a1, a2, equal_nan=False):
    from . import _ufunc as U
    from ._reduce import all as _all
    try:
        x, y = C.asarray(a1), C.asarray(a2)
    except Exception:
        return False
    if x.shape != y.shape:
        return False
    if not isinstance(x, Array) or not isinstance(y, Array):
        return _np.array_equal(C.to_np_tree(x), C.to_np_tree(y), equal_nan=equal_nan)
    eq = U.UFUNCS['equal'](x, y)
    if equal_nan and D.KIND[x._dt] in 'fc' and D.KIND[y._dt] in 'fc':
        eq = eq | (U.UFUNCS['isnan'](x) & U.UFUNCS['isnan'](y))
    return builtins.bool(_all(eq))


def array_equiv(a1, a2):
    from . import _ufunc as U
    from ._reduce import all as _all
    x, y = C.asarray(a1), C.asarray(a2)
    try:
        _core.broadcast_shapes([x.shape, y.shape])
    except ValueError:
        return False
    return builtins.bool(_all(U.UFUNCS['equal'](x, y)))


def diff(a, n=1, axis=-1, prepend=_NoValue, append=_NoValue):
    from . import _ufunc as U
    if n == 0:
        return C.asarray(a)
    if n < 0:
        raise ValueError("order must be non-negative but got " + repr(n))
    x = C.asarray(a)
    if not isinstance(x, Array) or prepend is not _NoValue or append is not _NoValue:
        kw = {'n': n, 'axis': axis}
        if prepend is not _NoValue:
            kw['prepend'] = prepend
        if append is not _NoValue:
            kw['append'] = append
        return F.call("diff (prepend/append)", _np.diff, (a,), kw)
    if x.ndim == 0:
        raise ValueError("diff requires input that is at least one dimensional")
    axis = _norm_axis(axis, x.ndim)
    pre = (slice(None),) * axis
    op = U.UFUNCS['not_equal'] if x._dt == D.BOOL else U.UFUNCS['subtract']
    for _ in range(n):
        x = op(x._view_index(pre + (slice(1, None),)), x._view_index(pre + (slice(None, -1),)))
    return x


def indices(dimensions, dtype=int, sparse=False):
    from ._creation import arange
    dimensions = tuple(dimensions)
    N = len(dimensions)
    res = []
    for i, dim in enumerate(dimensions):
        idx = arange(dim, dtype=dtype)._reshape((1,) * i + (dim,) + (1,) * (N - i - 1))
        if not sparse:
            idx = idx._broadcast_to(dimensions)._copy()
        res.append(idx)
    if sparse:
        return tuple(res)
    if not res:
        from ._creation import empty
        return empty((0,), dtype=dtype)
    return stack(res)


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


def outer(a, b, out=None):
    from . import _ufunc as U
    x, y = C.asarray(a), C.asarray(b)
    if not isinstance(x, Array) or not isinstance(y, Array):
        return F.call("outer (dtype)", _np.outer, (a, b), {'out': out})
    return U.UFUNCS['multiply'](x._reshape((-1, 1)), y._reshape((1, -1)), out=out)


def astype(x, dtype, /, *, copy=True, device=None):
    x = C.asnd(x) if not isinstance(x, _np.ndarray) else x
    return x.astype(dtype, copy=copy)


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
        return a.shape[axis]
    return _np.size(a, axis)


def result_type(*arrays_and_dtypes):
    return _np.result_type(*[a.dtype if isinstance(a, Array) else a
                             for a in arrays_and_dtypes])


def can_cast(from_, to, casting='safe'):
    if isinstance(from_, Array):
        from_ = from_.dtype
    return _np.can_cast(from_, to, casting)


def min_scalar_type(a):
    if isinstance(a, Array):
        a = C.to_numpy(a)
    return _np.min_scalar_type(a)


def iscomplexobj(x):
    if isinstance(x, Array):
        return D.KIND[x._dt] == 'c'
    return _np.iscomplexobj(x)


def isrealobj(x):
    return not iscomplexobj(x)


def isscalar(element):
    return _np.isscalar(element)


def may_share_memory(a, b, /, max_work=None):
    if isinstance(a, Array) and isinstance(b, Array):
        return a._same_store(b)
    return False


def shares_memory(a, b, /, max_work=None):
    return may_share_memory(a, b)


def pad(array, pad_width, mode='constant', **kwargs):
    """Constant padding runs in ndtile (a filled array and one copy into
    it); other modes run NumPy's."""
    x = C.asarray(array)
    cv = kwargs.get('constant_values', 0)
    if not isinstance(x, Array) or mode != 'constant' or set(kwargs) - {'constant_values'} or \
            not isinstance(cv, (int, float, bool, _np.generic)):
        return F.call(f"pad (mode={mode!r})", _np.pad, (array, pad_width),
                      dict(kwargs, mode=mode))
    pw = _np.broadcast_to(_np.asarray(pad_width, dtype=_np.int64), (x.ndim, 2))
    if (pw < 0).any():
        raise ValueError("index can't contain negative values")
    shape = tuple(int(n + a + b) for n, (a, b) in zip(x.shape, pw))
    from ._creation import full
    out = full(shape, _np.asarray(cv).astype(x.dtype).item(), dtype=x.dtype)
    key = tuple(slice(int(a), int(a) + n) for n, (a, _) in zip(x.shape, pw))
    if x.size:
        out._view_index(key)._assign(x, 4)
    return out


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    from ._creation import linspace
    from . import _ufunc as U
    if _np.ndim(base) if not isinstance(base, Array) else base.ndim:
        ndmax = len(_np.broadcast_shapes(_np.shape(start), _np.shape(stop), _np.shape(base)))
        start, stop, base = (C.asarray(v) for v in (start, stop, base))
        start, stop, base = (v.reshape((1,) * (ndmax - v.ndim) + tuple(v.shape))
                             for v in (start, stop, base))
        base = expand_dims(base, axis)
    y = linspace(start, stop, num=num, endpoint=endpoint, axis=axis)
    r = U.UFUNCS['power'](base, y)
    if dtype is not None:
        r = r.astype(dtype, copy=False)
    return r


def _real_kind(x, name, npf):
    a = C.asarray(x)
    if not isinstance(a, Array):
        return None, F.call(f"{name} (dtype)", npf, (x,), {})
    return a, None


def isposinf(x, out=None):
    from . import _ufunc as U
    a, fb = _real_kind(x, 'isposinf', _np.isposinf)
    if fb is not None:
        return fb
    if D.KIND[a._dt] == 'c':
        raise TypeError("This operation is not supported for complex values because it "
                        "would be ambiguous.")
    r = U.UFUNCS['isinf'](a) & U.UFUNCS['logical_not'](U.UFUNCS['signbit'](a))
    if out is not None:
        out[...] = r
        return out
    return r


def isneginf(x, out=None):
    from . import _ufunc as U
    a, fb = _real_kind(x, 'isneginf', _np.isneginf)
    if fb is not None:
        return fb
    if D.KIND[a._dt] == 'c':
        raise TypeError("This operation is not supported for complex values because it "
                        "would be ambiguous.")
    r = U.UFUNCS['isinf'](a) & U.UFUNCS['signbit'](a)
    if out is not None:
        out[...] = r
        return out
    return r


def isreal(x):
    from . import _ufunc as U
    a, fb = _real_kind(x, 'isreal', _np.isreal)
    if fb is not None:
        return fb
    return U.UFUNCS['equal'](a._imag(), 0)


def iscomplex(x):
    from . import _ufunc as U
    a, fb = _real_kind(x, 'iscomplex', _np.iscomplex)
    if fb is not None:
        return fb
    return U.UFUNCS['not_equal'](a._imag(), 0)


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    from . import _ufunc as U
    a = C.asarray(x)
    if not isinstance(a, Array) or a.ndim == 0 and not isinstance(x, Array):
        return F.call("nan_to_num (scalar or dtype)", _np.nan_to_num, (x,),
                      {'copy': copy, 'nan': nan, 'posinf': posinf, 'neginf': neginf})
    k = D.KIND[a._dt]
    if k not in 'fc':
        return a._copy() if copy else a
    parts = [a._real(), a._imag()] if k == 'c' else [a]
    res = a._copy() if copy else a
    rparts = [res._real(), res._imag()] if k == 'c' else [res]
    for p, rp in zip(parts, rparts):
        fi = _np.finfo(p.dtype)
        big = fi.max if posinf is None else posinf
        small = fi.min if neginf is None else neginf
        isnan, isinf, signbit = U.UFUNCS['isnan'], U.UFUNCS['isinf'], U.UFUNCS['signbit']
        w = U.WHERE
        conv = lambda v: _core.scalar(float(v), p._dt, False)   # noqa: E731
        _core.apply(w, [isnan(p), conv(nan), p], rp)
        _core.apply(w, [isinf(p) & U.UFUNCS['logical_not'](signbit(p)), conv(big), rp], rp)
        _core.apply(w, [isinf(p) & signbit(p), conv(small), rp], rp)
    return res


def tri(N, M=None, k=0, dtype=float, *, like=None):
    from ._creation import arange
    from . import _ufunc as U
    if M is None:
        M = N
    m = U.UFUNCS['greater_equal'](arange(N)._reshape((-1, 1)),
                                  arange(-k, M - k)._reshape((1, -1)))
    return m.astype(dtype, copy=False)


def _tri_mask(a, k, lower):
    from ._creation import arange
    from . import _ufunc as U
    n, m = a.shape[-2], a.shape[-1]
    rows = arange(n)._reshape((-1, 1))
    cols = arange(-k, m - k)._reshape((1, -1))
    return U.UFUNCS['greater_equal' if lower else 'less_equal'](rows, cols)


def tril(m, k=0):
    x = C.asarray(m)
    if not isinstance(x, Array) or x.ndim < 2:
        return F.call("tril (dtype or 1-d)", _np.tril, (m,), {'k': k})
    from . import _ufunc as U
    return _core.apply(U.WHERE, [_tri_mask(x, k, True), x, _core.scalar(0, x._dt, False)])


def triu(m, k=0):
    x = C.asarray(m)
    if not isinstance(x, Array) or x.ndim < 2:
        return F.call("triu (dtype or 1-d)", _np.triu, (m,), {'k': k})
    from . import _ufunc as U
    # zero where j < i + k, i.e. where tril(k - 1) keeps
    return _core.apply(U.WHERE, [_tri_mask(x, k - 1, True), _core.scalar(0, x._dt, False), x])


def dot(a, b, out=None):
    """NumPy's dot in the core for ndtile-able operands."""
    x, y = C.asarray(a), C.asarray(b)
    if isinstance(x, Array) and isinstance(y, Array) and (out is None or isinstance(out, Array)):
        r = _core.dot(x, y, out)
        return r[()] if out is None and r.ndim == 0 else r
    return F.call("dot", _np.dot, (a, b), {'out': out} if out is not None else {})


def vdot(a, b, /):
    x, y = C.asarray(a), C.asarray(b)
    if isinstance(x, Array) and isinstance(y, Array):
        x = ravel(x)
        if x.dtype.kind == 'c':
            from ._ufunc import UFUNCS
            x = UFUNCS['conjugate'](x)
        return _core.dot(x, ravel(y), None)[()]
    return F.call("vdot", _np.vdot, (a, b), {})


def inner(a, b, /):
    x, y = C.asarray(a), C.asarray(b)
    if isinstance(x, Array) and isinstance(y, Array) and x.ndim >= 1 and y.ndim >= 1:
        if y.ndim == 1:
            return _core.dot(x, y, None) if x.ndim > 1 else _core.dot(x, y, None)[()]
        return _core.dot(x, swapaxes(y, -1, -2), None) if y.ndim == 2 else \
            F.call("inner", _np.inner, (a, b), {})
    return F.call("inner", _np.inner, (a, b), {})


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


def _sort_axis(axis, ndim):
    if axis is None:
        return None
    ax = operator.index(axis)
    if ax < -ndim or ax >= ndim:
        raise _np.exceptions.AxisError(ax, ndim)
    return ax


def sort(a, axis=-1, kind=None, order=None, *, stable=None):
    """NumPy's sort; every kind is a stable merge sort (NaNs last)."""
    x = C.asarray(a)
    if order is not None or not isinstance(x, Array):
        return F.call("sort", _np.sort, (a,), dict(axis=axis, kind=kind, order=order,
                                                    stable=stable))
    _check_kind(kind, stable)
    return _core.sort(x, _sort_axis(axis, x.ndim), False)


def argsort(a, axis=-1, kind=None, order=None, *, stable=None):
    """NumPy's argsort; stable for every kind (ties keep their order)."""
    x = C.asarray(a)
    if order is not None or not isinstance(x, Array):
        return F.call("argsort", _np.argsort, (a,), dict(axis=axis, kind=kind, order=order,
                                                          stable=stable))
    _check_kind(kind, stable)
    if x.ndim == 0:
        axis = None      # NumPy: argsort of a 0-d array is [0] for any axis
    return _core.sort(x, _sort_axis(axis, x.ndim), True)
