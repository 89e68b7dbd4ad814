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
    if args and type(args[0]) is not C.ND and isinstance(args[0], Array):   # () for broadcast_arrays()
        if name in _METHOD_FORMS:
            # NumPy's function calls the method of a subclass instance
            return None, C.subclass_method(name, args, kwargs)
        if name in _TEMPLATE_FORMS:
            # NumPy's function makes its result from the subclass instance
            # (a view or a copy of it): this function on a plain view, the
            # result in the instance's class
            r = globals()[name](args[0]._view(), *args[1:], **kwargs)
            return None, C.subclass_like(r, args[0])
    out = []
    for a in arrays:
        x = C.asarray(a)
        if not isinstance(x, Array):
            return None, F.call(f"{name} (dtype)", npfunc, args, kwargs)
        out.append(x)
    return out, None


_METHOD_FORMS = frozenset(('ravel', 'transpose', 'swapaxes', 'squeeze', 'diagonal', 'take',
                           'repeat'))
_TEMPLATE_FORMS = frozenset(('expand_dims', 'moveaxis', 'flip', 'roll', 'tile'))


def _norm_axis(axis, ndim):
    ax = operator.index(axis)
    if ax < -ndim or ax >= ndim:
        raise _np.exceptions.AxisError(ax, ndim)
    return ax + ndim if ax < 0 else ax


def _c_axis(axis, ndim):
    """_norm_axis for the functions NumPy writes in C: a bool axis is a
    TypeError there (Python-level NumPy functions take it as an int)."""
    return _norm_axis(D.int_axis(axis), ndim)


# ---- shapes ------------------------------------------------------------------
def shape_arg(shape):
    """A shape or axes argument as NumPy's C methods parse it: an int or a
    sequence of ints, a 1-d or 0-d integer array included."""
    if type(shape) is int:
        return (shape,)
    from ._creation import _shape
    return _shape(shape)


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
    elif order in ('F', 'f') or (order in ('A', 'a') and x._flags & 3 == 2):
        from . import _order
        r = _order.reshape(x, shape, order)
    elif order not in ('C', 'A', 'K', None):
        return F.call("reshape (order=%r)" % (order,), _np.reshape, (a, shape),
                      {'order': order})
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
    x = C.asnd(x)
    if x.ndim < 2:
        raise ValueError("Input array must be at least 2-dimensional")
    return x._swapaxes(-1, -2)


def swapaxes(a, axis1, axis2):
    xs, fb = _nd_or_fallback('swapaxes', _np.swapaxes, (a, axis1, axis2), {}, a)
    if fb is not None:
        return fb
    x = xs[0]
    # NumPy's errors name the argument (axis2: axis 3 is out of bounds ...)
    norm = _np.lib.array_utils.normalize_axis_index
    return x._swapaxes(norm(operator.index(axis1), x.ndim, 'axis1'),
                       norm(operator.index(axis2), x.ndim, 'axis2'))


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


def squeeze(a, axis=None):
    xs, fb = _nd_or_fallback('squeeze', _np.squeeze, (a,), {'axis': axis}, a)
    if fb is not None:
        return fb
    x = xs[0]
    if axis is None:
        return x._squeeze(None)
    if isinstance(axis, list):
        raise TypeError("'list' object cannot be interpreted as an integer")
    if x.ndim == 0 and not isinstance(axis, tuple) and D.int_axis(axis) in (0, -1):
        return x._view()     # NumPy: axis 0 or -1 of a 0-d array
    axes = axis if isinstance(axis, tuple) else (axis,)
    axes = tuple(_c_axis(ax, x.ndim) for ax in axes)
    if len(set(axes)) != len(axes):
        raise ValueError("duplicate value in 'axis'")
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
    # NumPy: tuple(shape) if np.iterable(shape) else (shape,), then ints
    if isinstance(shape, Array):
        shape = C.to_numpy(shape)
    shape = tuple(shape) if _np.iterable(shape) else (shape,)
    if not shape and xs[0].shape:
        raise ValueError('cannot broadcast a non-scalar to a scalar array')
    if builtins.any(size < 0 for size in shape):
        raise ValueError('all elements of broadcast shape must be non-negative')
    if xs[0].ndim > len(shape):
        raise ValueError("input operand has more dimensions than allowed by the axis remapping")
    r = xs[0]._broadcast_to(shape)
    r._set_writeable(False)      # NumPy's broadcast_to is a read-only view
    return C.subclass_like(r, array) if subok else r


def broadcast_shapes(*args):
    try:
        return _core.broadcast_shapes([(s,) if isinstance(s, (int, _np.integer)) else tuple(s)
                                       for s in args])
    except ValueError:
        return _np.broadcast_shapes(*args)      # NumPy's message (which argument)


def broadcast_arrays(*args, subok=False):
    xs, fb = _nd_or_fallback('broadcast_arrays', _np.broadcast_arrays, args, {}, *args)
    if fb is not None:
        return fb
    try:
        shape = _core.broadcast_shapes([x.shape for x in xs])
    except ValueError:
        _np.broadcast_shapes(*[x.shape for x in xs])     # NumPy's message
        raise
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
    if x.ndim == 0 and axis is None:
        return x[()]    # NumPy's m[()]: a scalar, not a view
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
    if casting != "same_kind":
        D.check_casting(casting)
    arrays = list(arrays)
    if out is not None and dtype is not None:
        raise TypeError("concatenate() only takes `out` or `dtype` as an argument, but both "
                        "were provided.")
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
        D.int_axis(axis)     # NumPy parses the axis first
        raise ValueError("zero-dimensional arrays cannot be concatenated")
    axis = _c_axis(axis, nd)
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
    if out is not None:
        if out.ndim != nd:
            raise ValueError("Output array has wrong dimensionality")
        if out.shape != tuple(shape):
            raise ValueError("Output array is the wrong shape")
    if out is not None and isinstance(out, Array):
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


concat = concatenate     # NumPy 2: the same function


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
    ax = operator.index(axis)
    if not -x.ndim <= ax < x.ndim:
        raise IndexError("tuple index out of range")     # NumPy reads ary.shape[axis]
    axis_n = _norm_axis(axis, x.ndim) if x.ndim else axis
    ntotal = x.shape[axis_n]
    try:
        nsec = len(indices_or_sections) + 1
        pts = list(indices_or_sections)
    except TypeError:
        pts = None
    if pts is not None:
        for i in pts:
            if not hasattr(i, '__index__') or isinstance(i, (Array, _np.ndarray)) and i.ndim:
                # NumPy slices with them
                raise TypeError("slice indices must be integers or None or have an __index__ "
                                "method")
        div_points = [0] + [operator.index(i) for i in pts] + [ntotal]
    else:
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
            # NumPy takes any C (unsigned) long long and wraps it
            if not -2**63 <= o < 2**64:
                raise OverflowError("Python int too large to convert to C long")
            ops[i] = int(_np.array(o % 2**64, dtype=_np.uint64).astype(D.DTYPES[lt]))
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


def clip(a, a_min=_NoValue, a_max=_NoValue, out=None, *, min=_NoValue, max=_NoValue,
         **kwargs):
    from . import _ufunc as U
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
    r = _round(a, decimals, out)
    # NumPy: a 0-d result (of a scalar or a 0-d array) is a scalar
    return r._scalar() if out is None and isinstance(r, Array) and r.ndim == 0 else r


def _round(a, decimals, out):
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
    if type(x) is not C.ND and isinstance(x, Array):
        return x.real            # NumPy: val.real, a subclass instance's
    if isinstance(x, Array):
        return x._real()
    return _np.real(val)


def imag(val):
    x = C.asarray(val)
    if isinstance(x, Array):
        return x.imag
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
    D.check_casting(casting)
    if src is None or isinstance(src, (bool, int, float, complex, str, bytes)):
        # a Python scalar: NumPy's rules for it (weak types; OverflowError
        # out of range; 1.5 into ints refused by same_kind) are applied by
        # NumPy itself on a 0-d scratch array of dst's dtype
        tmp = _np.empty((), dst.dtype)
        _np.copyto(tmp, src, casting=casting)
        src = tmp
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


def to_out(res, out):
    """NumPy's out= of a function that computes a new array: res copied into
    out (same_kind casting) and out returned; res itself when out is None."""
    if out is None:
        return res
    copyto(out, res)
    return out


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    from . import _ufunc as U
    if not (isinstance(a, Array) or isinstance(b, Array)):
        return _np.isclose(C.to_np_tree(a), C.to_np_tree(b), rtol, atol, equal_nan)
    try:
        x = U.operand(a)
        y = U.operand(b)
    except U._Unsupported:
        # an operand the core cannot hold (str, object, float16): NumPy's
        # result or NumPy's exception (DTypePromotionError, TypeError)
        return F.call("isclose (dtype)", _np.isclose, (a, b, rtol, atol, equal_nan), {})
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
    if not sparse and builtins.any(operator.index(d) < 0 for d in dimensions):
        raise ValueError("negative dimensions are not allowed")   # NumPy's empty((N,) + dims)
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
        # NumPy: an axis or a tuple of axes, checked (AxisError)
        axes = _np.lib.array_utils.normalize_axis_tuple(axis, a.ndim, allow_duplicate=False)
        n = 1
        for ax in axes:
            n *= a.shape[ax]
        return n
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


def _memory_stand_in(x, buf):
    """A NumPy view of `buf` (as long as x's store) with x's byte offset
    and strides: NumPy's own overlap solver then answers for x."""
    isz = x._store_itemsize
    start = x._offset * isz + x._part
    esz = x.dtype.itemsize
    strides = tuple(s * isz for s in x._estrides) if x.ndim else ()
    return _np.lib.stride_tricks.as_strided(buf[start:start + esz].view(x.dtype)
                                            if x.size else buf[:0].view(_np.uint8),
                                            shape=x.shape if x.size else (0,),
                                            strides=strides if x.size else (1,))


def _overlap(a, b, max_work, solver):
    if not (isinstance(a, Array) and isinstance(b, Array)):
        return False
    if not a._same_memory(b):     # one store, or two sharing memory (view(dtype))
        return False
    if a.size == 0 or b.size == 0:
        return False
    # untouched pages: the stand-in costs address space, not memory
    buf = _np.empty(a._memory_bytes(), dtype=_np.uint8)
    return solver(_memory_stand_in(a, buf), _memory_stand_in(b, buf), max_work=max_work)


def may_share_memory(a, b, /, max_work=None):
    """As NumPy's: by the bounds of the two views in their store."""
    return _overlap(a, b, 0 if max_work is None else max_work, _np.may_share_memory)


def shares_memory(a, b, /, max_work=None):
    """As NumPy's: exact (NumPy's solver, over the views' byte layout)."""
    return _overlap(a, b, max_work, _np.shares_memory)


def _pad_index(mode, n, before, after):
    """Where each position of a padded axis of length n reads from (host
    NumPy, one small int64 vector): edge clamps, wrap is periodic in n,
    reflect in 2(n-1) and symmetric in 2n (NumPy's repeated reflections)."""
    j = _np.arange(-before, n + after, dtype=_np.int64)
    if mode == 'edge':
        return _np.clip(j, 0, n - 1)
    if mode == 'wrap':
        return j % n
    if mode == 'reflect':
        if n == 1:
            return _np.zeros_like(j)
        p = 2 * (n - 1)
        j = j % p
        return _np.where(j >= n, p - j, j)
    p = 2 * n                              # symmetric
    j = j % p
    return _np.where(j >= n, p - 1 - j, j)


def pad(array, pad_width, mode='constant', **kwargs):
    """Constant padding is a filled array and one copy into it; edge, wrap,
    reflect and symmetric padding gather each padded axis through an index
    vector (one ndt_gather per axis). Other modes run NumPy's."""
    x = C.asarray(array)
    cv = kwargs.get('constant_values', 0)
    periodic = ('edge', 'wrap', 'reflect', 'symmetric')
    ok = isinstance(x, Array) and (
        (mode == 'constant' and not set(kwargs) - {'constant_values'} and
         isinstance(cv, (int, float, bool, _np.generic))) or
        (mode in periodic and (not kwargs or kwargs == {'reflect_type': 'even'})) or
        (mode == 'empty' and not kwargs))
    if not ok:
        return F.call(f"pad (mode={mode!r})", _np.pad, (array, pad_width),
                      dict(kwargs, mode=mode))
    pw = _np.asarray(pad_width)
    if pw.dtype.kind not in 'iu':
        raise TypeError("`pad_width` must be of integral type.")
    pw = _np.broadcast_to(pw.astype(_np.int64), (x.ndim, 2))
    if (pw < 0).any():
        raise ValueError("index can't contain negative values")
    shape = tuple(int(n + a + b) for n, (a, b) in zip(x.shape, pw))
    if mode in periodic:
        out = x
        for ax, (n, (before, after)) in enumerate(zip(x.shape, pw)):
            if not before and not after:
                continue
            if n == 0:
                raise ValueError(f"can't extend empty axis {ax} using modes other than "
                                 f"'constant' or 'empty'")
            idx = C.from_numpy(_pad_index(mode, n, int(before), int(after)))
            out = take(out, idx, axis=ax)
        return out if out is not x else x._copy()
    from ._creation import empty, full, zeros
    key = tuple(slice(int(a), int(a) + n) for n, (a, _) in zip(x.shape, pw))
    if mode == 'empty' or not x.size:
        out = zeros(shape, dtype=x.dtype) if mode == 'empty' else \
            full(shape, _np.asarray(cv).astype(x.dtype).item(), dtype=x.dtype)
        if x.size:
            out._view_index(key)._assign(x, 4)
        return out
    # the copy, then the constant on the border slabs of each axis: every
    # element is written once (twice in the corners), as NumPy's pad does,
    # not filled first and then overwritten by the copy
    out = empty(shape, dtype=x.dtype)
    out._view_index(key)._assign(x, 4)
    value = full((), _np.asarray(cv).astype(x.dtype).item(), dtype=x.dtype)
    for ax, (n, (a, b)) in enumerate(zip(x.shape, pw)):
        for lo, hi in ((0, int(a)), (int(a) + n, int(a) + n + int(b))):
            if hi > lo:
                out._view_index((slice(None),) * ax + (slice(lo, hi),))._assign(value, 4)
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
        raise TypeError(f"This operation is not supported for {a.dtype} values because it "
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
        raise TypeError(f"This operation is not supported for {a.dtype} values because it "
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
                                  _tri_cols(k, N, M)._reshape((1, -1)))
    return m.astype(dtype, copy=False)


def _tri_k(k, n, m):
    """k for a triangle of an n x m array: NumPy's OverflowError beyond
    int64; a diagonal outside the array clamped (the same mask, and the
    arange bounds stay small)."""
    k = operator.index(k)
    # NumPy builds arange(-k, m - k) in int64
    if not (-2**63 <= -k < 2**63 and -2**63 <= m - k < 2**63):
        raise OverflowError("Python int too large to convert to C long")
    return builtins.max(-n - 1, builtins.min(k, m + 1))


def _tri_cols(k, n, m):
    """The column row NumPy's tri compares rows with: arange(-k, m - k)."""
    from ._creation import arange
    if isinstance(k, (int, _np.integer)):
        k = _tri_k(k, n, m)
        return arange(-k, m - k)
    # NumPy builds it in an integer dtype: int(-k) first, then steps of
    # int(1 - k) - int(-k) (0 for k = 0.5)
    a0 = int(-k)
    return arange(m) * (int(1 - k) - a0) + a0


def _tri_mask(a, k, lower):
    from ._creation import arange
    from . import _ufunc as U
    n, m = a.shape[-2:] if a.ndim > 1 else a.shape * 2   # NumPy: tri(*shape[-2:])
    rows = arange(n)._reshape((-1, 1))
    if lower:
        return U.UFUNCS['greater_equal'](rows, _tri_cols(k, n, m)._reshape((1, -1)))
    # NumPy's triu mask: not tri(k - 1) (which matters for a float k)
    return U.UFUNCS['less'](rows, _tri_cols(k - 1, n, m)._reshape((1, -1)))


def tril(m, k=0):
    x = C.asarray(m)
    if not isinstance(x, Array) or x.ndim < 1:
        return F.call("tril (dtype or 0-d)", _np.tril, (m,), {'k': k})
    from . import _ufunc as U
    return _core.apply(U.WHERE, [_tri_mask(x, k, True), x, _core.scalar(0, x._dt, False)])


def triu(m, k=0):
    x = C.asarray(m)
    if not isinstance(x, Array) or x.ndim < 1:
        return F.call("triu (dtype or 0-d)", _np.triu, (m,), {'k': k})
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


# ---- rearranging, gathering, scattering and contractions ---------------------------
# Compositions of views, copies, the core's gather (ndt_gather), scatter
# (ndt_put), diagonal view (ndt_diagonal), matmul and correlation.
def _nd(a, name, npfunc, args, kwargs):
    """_nd_or_fallback for one array: (array, None) or (None, fallback result)."""
    xs, fb = _nd_or_fallback(name, npfunc, args, kwargs, a)
    return (xs[0] if xs else None), fb


def _ufn(name):
    from ._ufunc import UFUNCS
    return UFUNCS[name]


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


def rot90(m, k=1, axes=(0, 1)):
    x = C.asnd(m)
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


def tile(A, reps):
    x, fb = _nd(A, 'tile', _np.tile, (A, reps), {})
    if fb is not None:
        return fb
    try:
        tup = tuple(operator.index(r) for r in reps)
    except TypeError:
        tup = (operator.index(reps),)
    if builtins.any(r < 0 for r in tup):
        raise ValueError("negative dimensions are not allowed")
    d = len(tup)
    if x.ndim < d:
        x = x._reshape((1,) * (d - x.ndim) + x.shape)
    tup = (1,) * (x.ndim - d) + tup
    if builtins.all(r == 1 for r in tup):
        return x._copy()
    inter, big, out = [], [], []
    for r, n in zip(tup, x.shape):
        inter += [1, n]
        big += [r, n]
        out.append(r * n)
    if x.size == 0:     # NumPy reshapes an empty input: a view (read-only stays so)
        return x._reshape(tuple(out))
    return x._reshape(tuple(inter))._broadcast_to(tuple(big))._copy()._reshape(tuple(out))


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
    from . import _reduce as R
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
        return v._copy()._reshape(shp[:ax] + (n * k,) + shp[ax + 1:])
    r = r._astype(D.INT64, 4)
    if n and int(R.min(r)) < 0:
        raise ValueError("repeats may not contain negative values.")
    cs = R.cumsum(r)
    total = int(cs[-1]) if n else 0
    marks = _core.bincount(cs[:-1], None, total + 1)._view_index((slice(0, total),))
    idx = R.cumsum(marks)
    return take(x, idx, axis=ax)


def _index_array(indices, name='take'):
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
    if k in 'fc':
        if name == 'take_along_axis':
            raise IndexError("`indices` must be an integer array")
        raise TypeError(f"Cannot cast array data from {ix.dtype!r} to dtype('int64') "
                        f"according to the rule 'same_kind'")
    if ix._dt != D.INT64:
        ix = ix._astype(D.INT64, 4)
    return ix


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
    if isinstance(mode, (int, _np.integer)) and not isinstance(mode, (bool, _np.bool_)):
        if strict and int(mode) not in (0, 1, 2):
            raise ValueError("integer clipmode must be RAISE, WRAP, or CLIP from "
                             "'numpy._core.multiarray'")
        return {0: 'clip', 1: 'wrap'}.get(int(mode), 'raise')
    raise TypeError("clipmode not understood")


def _fix_indices(ix, n, mode, ax):
    """Indices normalized into [0, n): 'raise' checks bounds (IndexError),
    'wrap' takes them modulo n, 'clip' clips them."""
    from . import _reduce as R
    mode = clip_mode(mode)
    if ix.size == 0:
        return ix
    if n == 0:
        raise IndexError("cannot do a non-empty take from an empty axes.")
    if mode == 'wrap':
        return _ufn('remainder')(ix, n)
    if mode == 'clip':
        return clip(ix, 0, n - 1)
    lo, hi = int(R.min(ix)), int(R.max(ix))
    bad = hi if hi >= n else lo if lo < -n else None
    if bad is not None:
        raise IndexError(f"index {bad} is out of bounds for axis {ax} with size {n}")
    return where(ix < 0, ix + n, ix) if lo < 0 else ix


def _arange_at(n, pos, nd):
    from ._creation import arange
    return arange(n, dtype=_np.int64)._reshape((1,) * pos + (n,) + (1,) * (nd - pos - 1))


def _gather_along(x, ix, ax, shape):
    """x[..., ix, ...] with ix broadcast into shape at axis ax's positions."""
    nd = len(shape)
    parts = []
    for k in range(x.ndim):
        parts.append(ix if k == ax else _arange_at(x.shape[k], k, nd))
    return _core.gather(x, [p._broadcast_to(shape) for p in parts])


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
    ix = _fix_indices(_index_array(indices), x.shape[ax], mode, ax)
    shape = x.shape[:ax] + ix.shape + x.shape[ax + 1:]
    # positions of x's axes in the result
    nd = len(shape)
    parts = []
    for k in range(x.ndim):
        if k < ax:
            parts.append(_arange_at(x.shape[k], k, nd))
        elif k == ax:
            parts.append(ix._reshape((1,) * ax + ix.shape + (1,) * (x.ndim - ax - 1)))
        else:
            parts.append(_arange_at(x.shape[k], k - 1 + ix.ndim, nd))
    if 0 in shape:
        from ._creation import empty
        res = empty(shape, dtype=x.dtype)
    else:
        res = _core.gather(x, [p._broadcast_to(shape) for p in parts])
    if out is not None:
        # NumPy: out of the result's shape, whose dtype casts safely to a's
        if tuple(out.shape) != tuple(shape):
            raise ValueError("output array does not match result of ndarray.take")
        if not _np.can_cast(out.dtype, x.dtype, 'safe'):
            raise TypeError(f"Cannot cast array data from {out.dtype!r} to {x.dtype!r} "
                            f"according to the rule 'safe'")
        out[...] = res
        return out
    return res._scalar() if res.ndim == 0 else res


def _along_axis(arr, indices, axis):
    x = C.asnd(arr)
    ix = _index_array(indices, 'take_along_axis')
    if axis is None:
        if ix.ndim != 1:
            raise ValueError("when axis=None, `indices` must have a single dimension.")
        x, ax = x._reshape((-1,)), 0
    else:
        ax = _norm_axis(axis, x.ndim)
    if ix.ndim != x.ndim:
        raise ValueError("`indices` and `arr` must have the same number of dimensions")
    shape = _core.broadcast_shapes([x.shape[:ax] + (1,) + x.shape[ax + 1:], ix.shape])
    ix = _fix_indices(ix, x.shape[ax], 'raise', ax)
    return x, ix._broadcast_to(shape), ax, shape


def take_along_axis(arr, indices, axis=-1):
    x, ix, ax, shape = _along_axis(arr, indices, axis)
    if 0 in shape:
        from ._creation import empty
        return empty(shape, dtype=x.dtype)
    return _gather_along(x, ix, ax, shape)


def _put_flat(x, flat, vals):
    """x.flat[flat] = vals (both 1-d ndtile arrays), last write wins."""
    if flat.size == 0:
        return
    if vals._dt != x._dt:
        vals = vals._astype(x._dt, 4)
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
    arr = _np.asarray(C.to_np_tree(v) if C.has_nd(v) else v, dtype=dtype)
    vals = C.asarray(arr)
    return vals if isinstance(vals, Array) else C.from_numpy(arr.astype(dtype))


def put(a, ind, v, mode='raise'):
    if isinstance(a, _np.ndarray):
        return F.call("put (dtype)", _np.put, (a, ind, v), {'mode': mode})
    if not isinstance(a, Array):
        raise TypeError(f"argument 1 must be numpy.ndarray, not {type(a)}")
    ix = _index_array(ind)._reshape((-1,))
    vals = _values_for(v, a.dtype)._reshape((-1,))
    if ix.size == 0 or vals.size == 0:
        return None
    if a.size == 0:
        raise IndexError("cannot replace elements of an empty array")
    ix = _fix_indices(ix, a.size, mode, 0)
    if vals.size != ix.size:
        from ._creation import arange
        vals = take(vals, arange(ix.size) % vals.size) if vals.size < ix.size else \
            vals._view_index((slice(0, ix.size),))
    _put_flat(a, ix, vals)
    return None


def put_along_axis(arr, indices, values, axis):
    if not isinstance(arr, Array):
        return F.call("put_along_axis", _np.put_along_axis, (arr, indices, values, axis), {})
    x, ix, ax, shape = _along_axis(arr, indices, axis)
    if 0 in shape:
        return None
    vals = _values_for(values, arr.dtype)._broadcast_to(shape)
    # flat C-order index into x of each position
    flat = None
    stride = 1
    nd = len(shape)
    for k in range(x.ndim - 1, -1, -1):
        p = ix if k == ax else _arange_at(x.shape[k], k, nd)
        term = p * stride if stride != 1 else p
        flat = term if flat is None else flat + term
        stride *= x.shape[k]
    flat = flat._broadcast_to(shape)._copy()._reshape((-1,))
    target = x if axis is not None else arr
    _put_flat(target, flat, vals._copy()._reshape((-1,)))
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


def diag(v, k=0):
    x, fb = _nd(v, 'diag', _np.diag, (v,), {'k': k})
    if fb is not None:
        return fb
    k = operator.index(k)
    if x.ndim == 1:
        n = x.shape[0] + abs(k)
        from ._creation import zeros
        res = zeros((n, n), dtype=x.dtype)
        if x.shape[0]:
            _core.diagonal(res, k, 0, 1)._assign(x, 4)
        return res
    if x.ndim == 2:
        return diagonal(x, k, 0, 1)      # read-only, as NumPy's
    raise ValueError("Input must be 1- or 2-d.")


def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    from . import _reduce as R
    if type(a) is not C.ND and isinstance(a, Array):     # NumPy calls a subclass's method
        return a.trace(offset, axis1, axis2, dtype, out)
    return R.sum(diagonal(a, offset, axis1, axis2), axis=-1, dtype=dtype, out=out)


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


# -- einsum --
def _einsum_parse(subscripts, shapes):
    """(per-operand label lists, output label list) with ellipses replaced
    by private labels (right-aligned, broadcasting)."""
    if not isinstance(subscripts, str):
        raise TypeError("einsum subscripts must be a string")
    sub = subscripts.replace(' ', '')
    if '->' in sub:
        ins, outs = sub.split('->', 1)
        if '->' in outs or '-' in outs or '>' in outs:
            raise ValueError("einsum(): invalid subscript '>' in the output")
    else:
        ins, outs = sub, None
    terms = ins.split(',')
    if len(terms) != len(shapes):
        # NumPy's wording: "fewer" when the string names fewer operands
        raise ValueError("fewer operands provided to einstein sum function than specified in "
                         "the subscripts string" if len(terms) < len(shapes) else
                         "more operands provided to einstein sum function than specified "
                         "in the subscripts string")
    nell = 0
    parsed = []
    for t, shp in zip(terms, shapes):
        if t.count('...') > 1 or t.replace('...', '').count('.'):
            raise ValueError("einsum(): invalid subscript '.' in the operand")
        for ch in t.replace('...', ''):
            if not ch.isalpha() or not ch.isascii():
                raise ValueError(f"invalid subscript '{ch}' in einstein sum subscripts string, "
                                 f"subscripts must be letters")
        nlab = len(t.replace('...', ''))
        if '...' in t:
            k = len(shp) - nlab
            if k < 0:
                raise ValueError(f"einstein sum subscripts string contains too many subscripts "
                                 f"for operand {len(parsed)}")
            nell = builtins.max(nell, k)
        elif nlab != len(shp):
            raise ValueError(f"einstein sum subscripts string contains too many subscripts "
                             f"for operand {len(parsed)}" if nlab > len(shp) else
                             f"einsum(): operand has more dimensions than subscripts given "
                             f"in einstein sum, but no '...' ellipsis provided to broadcast "
                             f"the extra dimensions.")
        parsed.append(t)
    ell = [chr(0x100 + i) for i in range(nell)]   # private labels, above ASCII
    labels = []
    for t, shp in zip(parsed, shapes):
        if '...' in t:
            pre, post = t.split('...')
            k = len(shp) - len(pre) - len(post)
            labels.append(list(pre) + ell[nell - k:] + list(post))
        else:
            labels.append(list(t))
    if outs is None:
        counts = {}
        for ls in labels:
            for ch in ls:
                counts[ch] = counts.get(ch, 0) + 1
        out = ell + sorted(ch for ch, c in counts.items() if c == 1 and ch not in ell)
    else:
        if outs.count('...') > 1 or outs.replace('...', '').count('.'):
            raise ValueError("einsum(): invalid subscript '.' in the output")
        if '...' in outs:
            pre, post = outs.split('...')
            out = list(pre) + ell + list(post)
        else:
            out = list(outs)      # broadcast dimensions not named are summed away
        seen = set()
        alll = set(ch for ls in labels for ch in ls)
        for ch in out:
            if ch in seen:
                raise ValueError(f"einstein sum subscripts string includes output subscript "
                                 f"'{ch}' multiple times")
            if ch not in alll and ch not in ell:
                raise ValueError(f"einstein sum subscripts string included output subscript "
                                 f"'{ch}' which never appeared in an input")
            if not (ch.isalpha() or ch in ell):
                raise ValueError(f"invalid subscript '{ch}' in einstein sum subscripts string, "
                                 f"subscripts must be letters")
            seen.add(ch)
    return labels, out


def _einsum_sum(x, labs, drop, rdt):
    from . import _reduce as R
    axes = tuple(k for k, ch in enumerate(labs) if ch in drop)
    if not axes:
        return x, labs
    r = R.reduce_nd('sum', x, axes, D.code(rdt) if D.KIND[D.code(rdt)] in 'fc' else D.DEFAULT,
                    False)
    if r._dt != D.code(rdt):
        r = r._astype(D.code(rdt), 4)
    return r, [ch for ch in labs if ch not in drop]


def _einsum_diag(x, labs):
    """Repeated labels within one operand: the diagonal (a view)."""
    while True:
        for i, ch in enumerate(labs):
            j = labs.index(ch, i + 1) if ch in labs[i + 1:] else -1
            if j >= 0:
                if x.shape[i] != x.shape[j]:
                    raise ValueError(f"dimensions in operand for collapsing index '{ch}' don't "
                                     f"match ({x.shape[i]} != {x.shape[j]})")
                x = _core.diagonal(x, 0, i, j)
                labs = [c for k, c in enumerate(labs) if k not in (i, j)] + [ch]
                break
        else:
            return x, labs


def einsum(*operands, out=None, optimize=False, dtype=None, order='K', casting='safe'):
    if not operands or not isinstance(operands[0], str) or order not in ('K', 'C', 'A'):
        return F.call("einsum (sublist form or order)", _np.einsum, operands,
                      {'out': out, 'optimize': optimize, 'dtype': dtype, 'order': order,
                       'casting': casting})
    subscripts, ops = operands[0], list(operands[1:])
    xs = []
    for o in ops:
        x = C.asarray(o)
        if not isinstance(x, Array):
            return F.call("einsum (dtype)", _np.einsum, operands,
                          {'out': out, 'optimize': optimize, 'dtype': dtype, 'order': order,
                           'casting': casting})
        xs.append(x)
    labels, outl = _einsum_parse(subscripts, [x.shape for x in xs])
    rdt = _np.result_type(*[x.dtype for x in xs]) if dtype is None else _np.dtype(dtype)
    for i, (x, ls) in enumerate(zip(xs, labels)):
        seen = {}
        for n, ch in zip(x.shape, ls):
            if ch in seen and seen[ch] != n:
                raise ValueError(f"dimensions in operand {i} for collapsing index '{ch}' don't "
                                 f"match ({seen[ch]} != {n})")
            seen[ch] = n
    for i, x in enumerate(xs):
        if not _np.can_cast(x.dtype, rdt, casting):
            raise TypeError(f"Iterator operand {i} dtype could not be cast from {x.dtype!r} to "
                            f"{rdt!r} according to the rule {casting!r}")
    if D.code(rdt) is None:
        return F.call("einsum (dtype)", _np.einsum, operands,
                      {'out': out, 'optimize': optimize, 'dtype': dtype, 'casting': casting})
    xs = [x if x.dtype == rdt else x._astype(D.code(rdt), 4) for x in xs]
    # label sizes (size-1 dimensions broadcast)
    sizes = {}
    for x, ls in zip(xs, labels):
        for n, ch in zip(x.shape, ls):
            old = sizes.get(ch, 1)
            if old != n and old != 1 and n != 1:
                raise ValueError(f"operands could not be broadcast together with remapped "
                                 f"shapes [original->remapped]: size {old} and {n} for "
                                 f"label '{ch}'" if ord(ch) < 0x100 else
                                 "operands could not be broadcast together")
            sizes[ch] = builtins.max(old, n) if old != 1 else n
    items = []
    for x, ls in zip(xs, labels):
        x, ls = _einsum_diag(x, list(ls))
        items.append((x, ls))
    outset = set(outl)
    # pairwise contraction, left to right
    while True:
        # sum labels only this operand has (and the output lacks)
        new = []
        for i, (x, ls) in enumerate(items):
            others = set(ch for j, (_, l2) in enumerate(items) if j != i for ch in l2)
            drop = set(ch for ch in ls if ch not in outset and ch not in others)
            new.append(_einsum_sum(x, ls, drop, rdt))
        items = new
        if len(items) == 1:
            break
        (x, lx), (y, ly) = items[0], items[1]
        rest = set(ch for _, l2 in items[2:] for ch in l2)
        shared = [ch for ch in lx if ch in ly]
        contr = [ch for ch in shared if ch not in outset and ch not in rest]
        batch = [ch for ch in shared if ch not in contr]
        # a contracted label of size 1 on one side broadcasts: sum it on the other
        for ch in list(contr):
            nx, ny = x.shape[lx.index(ch)], y.shape[ly.index(ch)]
            if nx != ny:
                if nx == 1:
                    x, lx = x._squeeze((lx.index(ch),)), [c for c in lx if c != ch]
                    y, ly = _einsum_sum(y, ly, {ch}, rdt)
                else:
                    y, ly = y._squeeze((ly.index(ch),)), [c for c in ly if c != ch]
                    x, lx = _einsum_sum(x, lx, {ch}, rdt)
                contr.remove(ch)
        xo = [ch for ch in lx if ch not in shared]
        yo = [ch for ch in ly if ch not in shared]
        xt = x._transpose(tuple(lx.index(ch) for ch in batch + xo + contr))
        yt = y._transpose(tuple(ly.index(ch) for ch in batch + contr + yo))
        bs = xt.shape[:len(batch)]
        bsy = yt.shape[:len(batch)]
        xs_o, ys_o = xt.shape[len(batch):len(batch) + len(xo)], yt.shape[len(batch) + len(contr):]
        kk = 1
        for ch in contr:
            kk *= x.shape[lx.index(ch)]
        mm = 1
        for n in xs_o:
            mm *= n
        nn = 1
        for n in ys_o:
            nn *= n
        r = _core.matmul(xt._reshape(bs + (mm, kk)), yt._reshape(bsy + (kk, nn)))
        r = r._reshape(r.shape[:-2] + xs_o + ys_o)
        items = [(r, batch + xo + yo)] + items[2:]
    x, ls = items[0]
    # output labels the operands lack (size-1 broadcast labels dropped earlier) and order
    for ch in outl:
        if ch not in ls:
            x = x._expand_dims(x.ndim)
            ls = ls + [ch]
    x = x._transpose(tuple(ls.index(ch) for ch in outl))
    shape = tuple(sizes.get(ch, 1) for ch in outl)
    if x.shape != shape:
        x = x._broadcast_to(shape)
    if out is not None:
        if not _np.can_cast(x.dtype, out.dtype, casting):
            raise TypeError(f"Cannot cast array data from {x.dtype!r} to {out.dtype!r} "
                            f"according to the rule {casting!r}")
        out[...] = x
        return out
    return x._scalar() if x.ndim == 0 else x


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
    if isinstance(mode, (int, _np.integer)) and not isinstance(mode, (bool, _np.bool_)):
        if int(mode) not in (0, 1, 2):
            raise ValueError("integer convolve/correlate mode must be 0, 1, or 2")
        return int(mode)
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
