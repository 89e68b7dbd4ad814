"""NumPy's smaller library functions (numpy/lib), written as NumPy code on
ndtile's native operations: every step is a tiled, parallel ndtile op, so
these run natively on any number of workers or ranks. Index bookkeeping on
small host values (positions along one axis, bin counts) stays in NumPy.

Arguments that ndtile cannot hold (object or float16 arrays, ...) fall back
to NumPy's function as everywhere else.
"""
import math
import operator
import sys

import numpy as _np

from . import _core
from . import _convert as C
from . import _fallback as F
from ._manip import _norm_axis as _axis, to_out

Array = _core.Array
_NoValue = _np._NoValue


def _nt():
    return sys.modules['ndtile']


def _along(ndim, axis, index):
    return (slice(None),) * axis + (index,) + (slice(None),) * (ndim - axis - 1)


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
    idx = idx.ravel().astype(_np.int64)
    if idx.size and (idx.min() < -n or idx.max() >= n):
        bad = idx[(idx < -n) | (idx >= n)][0]
        raise IndexError(f"index {bad} is out of bounds for axis {axis} with size {n}")
    keep = _np.ones(n, bool)
    keep[idx] = False
    return _np.flatnonzero(keep)


def delete(arr, obj, axis=None):
    nt = _nt()
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
        return a.copy()
    return nt.asarray(a[_along(a.ndim, axis, nt.asarray(keep))])


def insert(arr, obj, values, axis=None):
    """NumPy's insert, step by step as NumPy writes it (its checks, in its
    order; its odd corners too: a bool mask obj becomes its positions, one
    position inserts values as a block, the rest is a scatter)."""
    nt = _nt()
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
        new = nt.empty(tuple(newshape), a.dtype)
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
        new = nt.empty(tuple(newshape), a.dtype)
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
    return nt.asarray(both[_along(nd, axis, nt.asarray(src))])


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
        return nt.zeros(shape_in, dtype=a.dtype)
    # a new array, as NumPy's (a[:size] alone would be a view of the input);
    # tile is one broadcast copy where concatenate took reps operands
    return nt.tile(a, -(-size // a.size))[:size].reshape(shape_in)


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


def unstack(x, /, *, axis=0):
    nt = _nt()
    x = nt.asarray(x)
    if x.ndim == 0:
        raise ValueError("Input array must be at least 1-d.")
    return tuple(nt.moveaxis(x, axis, 0))


# ---- selecting ---------------------------------------------------------------
def compress(condition, a, axis=None, out=None):
    nt = _nt()
    cond = _np.asarray(C.to_np_tree(condition))
    if cond.ndim != 1:
        raise ValueError("condition must be a 1-d array")
    a = nt.asarray(a)
    if axis is None:
        a = a.ravel()
        axis = 0
    axis = _axis(axis, a.ndim)
    n = a.shape[axis]
    idx = _np.flatnonzero(cond)
    if idx.size and idx[-1] >= n:
        raise IndexError(f"index {idx[-1]} is out of bounds for axis {axis} with size {n}")
    # NumPy's compress is a take (its out= rules too)
    return nt.take(a, nt.asarray(idx.astype(_np.int64)), axis=axis, out=out)


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
    choices = [nt.asarray(c) for c in choicelist]
    try:
        dtype = _np.result_type(*choices, default)
    except TypeError as e:
        raise TypeError(f"Choicelist and default value do not have a common dtype: {e}")
    conds = [nt.asarray(c) for c in condlist]
    for i, c in enumerate(conds):
        if c.dtype != _np.bool_:
            raise TypeError(f"invalid entry {i} in condlist: should be boolean ndarray")
    # NumPy broadcasts the conditions, then the choices with the default
    # (its errors number the arguments so)
    _np.broadcast_shapes(*[tuple(x.shape) for x in conds])
    _np.broadcast_shapes(*[tuple(x.shape) for x in choices], _np.shape(default))
    shape = _np.broadcast_shapes(*[tuple(x.shape) for x in conds + choices],
                                 _np.shape(default))
    r = nt.full(shape, default, dtype=dtype)
    for c, v in zip(reversed(conds), reversed(choices)):
        r = nt.where(c, v.astype(dtype, copy=False), r)
    return r


def choose(a, choices, out=None, mode='raise'):
    nt = _nt()
    idx = nt.asarray(a)
    if idx.dtype.kind not in 'iub':
        raise TypeError(f"Cannot cast array data from {idx.dtype!r} to dtype('int64') "
                        "according to the rule 'safe'")
    choices = [nt.asarray(c) for c in choices]
    n = len(choices)
    if n == 0:
        raise ValueError("0-length sequence.")
    from ._manip import clip_mode
    mode = clip_mode(mode, strict=True)
    if mode == 'raise':
        if idx.size and (bool(nt.any(idx < 0)) or bool(nt.any(idx >= n))):
            raise ValueError("invalid entry in choice array")
    elif mode == 'wrap':
        idx = nt.mod(idx, n)
    elif mode == 'clip':
        idx = nt.clip(idx, 0, n - 1)
    else:
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {mode!r})")
    dtype = _np.result_type(*choices)
    shape = _np.broadcast_shapes(tuple(idx.shape), *[tuple(c.shape) for c in choices])
    r = nt.broadcast_to(choices[0].astype(dtype, copy=False), shape)
    for k in range(1, n):
        r = nt.where(idx == k, choices[k].astype(dtype, copy=False), r)
    r = nt.asarray(r).copy() if n == 1 else r
    return to_out(r, out)


def ix_(*args):
    nt = _nt()
    out = []
    nd = len(args)
    for k, new in enumerate(args):
        x = nt.asarray(new)
        if x.ndim != 1:
            raise ValueError("Cross index must be 1 dimensional")
        if x.size == 0 and not isinstance(new, Array):
            x = x.astype(_np.intp)
        if x.dtype == _np.bool_:
            (x,) = nt.nonzero(x)
        out.append(x.reshape((1,) * k + (x.size,) + (1,) * (nd - k - 1)))
    return tuple(out)


def lexsort(keys, axis=-1):
    nt = _nt()
    if isinstance(keys, tuple) or isinstance(keys, list):
        ks = [nt.asarray(k) for k in keys]
    else:
        k = nt.asarray(keys)
        if k.ndim == 0:
            raise TypeError("need sequence of keys with len > 0 in lexsort")
        ks = [k[i] for i in range(k.shape[0])]
    if not ks:
        raise TypeError("need sequence of keys with len > 0 in lexsort")
    shape = tuple(ks[0].shape)
    if any(tuple(k.shape) != shape for k in ks):
        raise ValueError("all keys need to be the same shape")
    if len(shape) != 1:
        return F.call("lexsort (n-d keys)", _np.lexsort, (keys,), {'axis': axis})
    _axis(axis, 1)
    # The last key is primary: sort by each key in turn, stably, from the first.
    order = nt.argsort(ks[0], kind='stable')
    for k in ks[1:]:
        order = order[nt.argsort(k[order], kind='stable')]
    return order


def sort_complex(a):
    nt = _nt()
    b = nt.sort(a)
    if b.dtype.kind != 'c':
        return b.astype(_np.complex64 if b.dtype.char in 'bhBH' else _np.complex128)
    return b


# ---- index helpers -----------------------------------------------------------
def tril_indices(n, k=0, m=None):
    nt = _nt()
    return nt.nonzero(nt.tri(n, m, k=k, dtype=bool))


def triu_indices(n, k=0, m=None):
    nt = _nt()
    return nt.nonzero(nt.logical_not(nt.tri(n, m, k=k - 1, dtype=bool)))


def _check_square2d(arr):
    if arr.ndim != 2:
        raise ValueError("input array must be 2-d")


def tril_indices_from(arr, k=0):
    a = _nt().asarray(arr)
    _check_square2d(a)
    return tril_indices(a.shape[-2], k=k, m=a.shape[-1])


def triu_indices_from(arr, k=0):
    a = _nt().asarray(arr)
    _check_square2d(a)
    return triu_indices(a.shape[-2], k=k, m=a.shape[-1])


def diag_indices(n, ndim=2):
    idx = _nt().arange(n)
    return (idx,) * ndim


def diag_indices_from(arr):
    a = _nt().asarray(arr)
    if a.ndim < 2:
        raise ValueError("input array must be at least 2-d")
    if len(set(a.shape)) != 1:
        raise ValueError("All dimensions of input must be of equal length")
    return diag_indices(a.shape[0], a.ndim)


def fromfunction(function, shape, *, dtype=float, like=None, **kwargs):
    return function(*_nt().indices(shape, dtype=dtype), **kwargs)


# ---- arithmetic helpers ------------------------------------------------------
def fix(x, out=None):
    return _nt().trunc(x, out=out)       # NumPy's fix is trunc


def sinc(x):
    nt = _nt()
    x = nt.asanyarray(x)
    if x.dtype.kind not in 'fc':
        x = x.astype(_np.float64)
    y = nt.pi * nt.where(x == 0, _np.asarray(1.0e-20, dtype=x.dtype), x)
    return nt.sin(y) / y


def ediff1d(ary, to_end=None, to_begin=None):
    nt = _nt()
    a = nt.asanyarray(ary).ravel()
    dtype = a.dtype
    parts = []
    for extra, name in ((to_begin, 'to_begin'), (to_end, 'to_end')):
        if extra is None:
            parts.append(None)
            continue
        e = _np.asanyarray(C.to_np_tree(extra))
        if not _np.can_cast(e, dtype, casting='same_kind'):
            raise TypeError(f"dtype of `{name}` must be compatible with input `ary` under "
                            f"the `same_kind` rule.")
        parts.append(nt.asarray(e.ravel().astype(dtype)))
    d = nt.diff(a) if a.size else nt.empty((0,), dtype=dtype)
    seq = [p for p in (parts[0], d, parts[1]) if p is not None]
    return nt.concatenate(seq) if len(seq) > 1 else d


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
        import warnings
        warnings.warn("Arrays of 2-dimensional vectors are deprecated. Use arrays of "
                      "3-dimensional vectors instead. (deprecated in NumPy 2.0)",
                      DeprecationWarning, stacklevel=2)
    if a.shape[-1] == 3 or b.shape[-1] == 3:
        axisc = norm(axisc, a.ndim if a.ndim > b.ndim else b.ndim, msg_prefix='axisc')
    a0, a1 = a[..., 0], a[..., 1]
    b0, b1 = b[..., 0], b[..., 1]
    a2 = a[..., 2] if a.shape[-1] == 3 else None
    b2 = b[..., 2] if b.shape[-1] == 3 else None
    if a2 is None and b2 is None:
        return a0 * b1 - a1 * b0
    if a2 is None:
        c = nt.stack([a1 * b2, -(a0 * b2), a0 * b1 - a1 * b0], axis=-1)
    elif b2 is None:
        c = nt.stack([-(a2 * b1), a2 * b0, a0 * b1 - a1 * b0], axis=-1)
    else:
        c = nt.stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], axis=-1)
    return nt.moveaxis(c, -1, axisc)


def vecdot(x1, x2, /, out=None, *, axis=-1, **kwargs):
    """NumPy's vecdot: sum over axis of conj(x1) * x2, broadcasting the rest."""
    nt = _nt()
    if kwargs:
        return F.call("vecdot (keywords)", _np.vecdot, (x1, x2),
                      dict(kwargs, out=out, axis=axis))
    a, b = nt.asarray(x1), nt.asarray(x2)
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError("vecdot: Input operand does not have enough dimensions")
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


def kron(a, b):
    nt = _nt()
    a = nt.asanyarray(a)
    b = nt.asanyarray(b)
    nd = max(a.ndim, b.ndim)
    if a.ndim == 0 or b.ndim == 0:
        return nt.multiply(a, b)
    sa = (1,) * (nd - a.ndim) + tuple(a.shape)
    sb = (1,) * (nd - b.ndim) + tuple(b.shape)
    ea = a.reshape(tuple(x for s in sa for x in (s, 1)))
    eb = b.reshape(tuple(x for s in sb for x in (1, s)))
    return nt.multiply(ea, eb).reshape(tuple(p * q for p, q in zip(sa, sb)))


def vander(x, N=None, increasing=False):
    nt = _nt()
    x = nt.asarray(x)
    if x.ndim != 1:
        raise ValueError("x must be a one-dimensional array or sequence.")
    if N is None:
        N = x.shape[0]
    if N < 0:
        raise ValueError("negative dimensions are not allowed")    # NumPy's empty((len(x), N))
    dtype = _np.promote_types(x.dtype, _np.int64)        # NumPy's: float32 gives float64
    if N == 0:
        return nt.empty((x.shape[0], 0), dtype=dtype)
    v = nt.ones((x.shape[0], 1), dtype=dtype)
    if N > 1:
        cols = nt.broadcast_to(x.astype(dtype, copy=False)[:, None], (x.shape[0], N - 1))
        v = nt.concatenate((v, nt.cumprod(cols, axis=1)), axis=1)
    return v if increasing else v[:, ::-1]


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
    lo = _along(nd, ax, slice(0, 1))
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
    up = p.astype(dtype, copy=False)
    rest = up[hi] + nt.cumsum(ph_correct, axis=ax)
    return nt.concatenate((up[lo], rest), axis=ax)


def cumulative_sum(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    return _cumulative('cumsum', 0, x, axis, dtype, out, include_initial)


def cumulative_prod(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    return _cumulative('cumprod', 1, x, axis, dtype, out, include_initial)


def _cumulative(name, initial, x, axis, dtype, out, include_initial):
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
    r = getattr(nt, name)(x, axis=ax, dtype=dtype)
    if include_initial:
        shape = list(x.shape)
        shape[ax] = 1
        r = nt.concatenate((nt.full(tuple(shape), initial, dtype=r.dtype), r), axis=ax)
    return to_out(r, out)


# ---- polynomials (numpy.polyval and friends on coefficient arrays) -----------
def polyval(p, x):
    nt = _nt()
    p = nt.asarray(p)
    x = nt.asanyarray(x)
    y = nt.zeros_like(x)
    for k in range(p.shape[0]):
        y = y * x + p[k]
    return y


def polyadd(a1, a2):
    nt = _nt()
    a1 = nt.atleast_1d(a1)
    a2 = nt.atleast_1d(a2)
    d = a1.shape[0] - a2.shape[0]
    if d > 0:
        a2 = nt.concatenate((nt.zeros((d,), dtype=a2.dtype), a2))
    elif d < 0:
        a1 = nt.concatenate((nt.zeros((-d,), dtype=a1.dtype), a1))
    return a1 + a2


def polysub(a1, a2):
    nt = _nt()
    return polyadd(a1, nt.negative(nt.atleast_1d(a2)))


def polyder(p, m=1):
    nt = _nt()
    m = operator.index(m)
    if m < 0:
        raise ValueError("Order of derivative must be positive (see polyint)")
    p = nt.asarray(p)
    n = p.shape[0] - 1
    y = p[:-1] * nt.arange(n, 0, -1)
    return y if m == 1 else (p if m == 0 else polyder(y, m - 1))


def polyint(p, m=1, k=None):
    nt = _nt()
    m = operator.index(m)
    if m < 0:
        raise ValueError("Order of integral must be positive (see polyder)")
    if k is None:
        k = _np.zeros(m, float)
    k = _np.atleast_1d(k)
    if len(k) == 1 and m > 1:
        k = k[0] * _np.ones(m, float)
    if len(k) < m:
        raise ValueError("k must be a scalar or a rank-1 array of length 1 or >m.")
    p = nt.asarray(p)
    if m == 0:
        return p
    y = nt.concatenate((p.astype(_np.result_type(p.dtype, float)) /
                        nt.arange(p.shape[0], 0, -1), nt.asarray([float(k[0])])))
    return polyint(y, m - 1, k=k[1:])


# ---- window functions --------------------------------------------------------
def _window_n(M):
    # NumPy computes with M as a float64 (np.array([0.0, M])[1]): a
    # fractional M gives its own window, not int(M)'s
    return float(M) if isinstance(M, (float, _np.floating)) else operator.index(M)


def bartlett(M):
    nt = _nt()
    M = _window_n(M)
    if M < 1:
        return nt.asarray(_np.array([], dtype=_np.result_type(M, 0.0)))
    if M == 1:
        return nt.ones(1, float)
    n = nt.arange(1 - M, M, 2)
    return nt.where(nt.less_equal(n, 0), 1 + n / (M - 1), 1 - n / (M - 1))


def _cosine_window(M, coefs):
    nt = _nt()
    M = _window_n(M)
    if M < 1:
        return nt.asarray(_np.array([], dtype=_np.result_type(M, 0.0)))
    if M == 1:
        return nt.ones(1, dtype=_np.result_type(M, 0.0))
    n = nt.arange(1 - M, M, 2)
    w = coefs[0]
    for j, c in enumerate(coefs[1:], start=1):
        w = w + c * nt.cos(j * nt.pi * n / (M - 1))
    return w


def blackman(M):
    return _cosine_window(M, (0.42, 0.5, 0.08))


def hamming(M):
    return _cosine_window(M, (0.54, 0.46))


def hanning(M):
    return _cosine_window(M, (0.5, 0.5))


# ---- assembling and spacing --------------------------------------------------
def _block_index(index):
    return 'arrays' + ''.join(f'[{i}]' for i in index if i is not None)


def _block_check(x, index):
    """(index of the first leaf, deepest leaf ndim), with NumPy's errors."""
    if type(x) is tuple:
        raise TypeError(
            f'{_block_index(index)} is a tuple. Only lists can be used to arrange blocks, '
            f'and np.block does not allow implicit conversion from tuple to ndarray.')
    if type(x) is list:
        if not x:
            return index + [None], 0
        first, nd = None, 0
        for i, e in enumerate(x):
            ix, end = _block_check(e, index + [i])
            nd = max(nd, end)
            if first is None:
                first = ix
            elif len(ix) != len(first):
                raise ValueError(
                    f"List depths are mismatched. First element was at depth {len(first)}, "
                    f"but there is an element at depth {len(ix)} ({_block_index(ix)})")
            if ix[-1] is None:
                raise ValueError(f"List at {_block_index(ix)} cannot be empty")
        return first, nd
    return index, _np.ndim(x)


def block(arrays):
    nt = _nt()
    first, leaf_nd = _block_check(arrays, [])
    if first and first[-1] is None:
        raise ValueError(f"List at {_block_index(first)} cannot be empty")
    depth = len(first)
    nd = max(depth, leaf_nd)

    def build(x, level):
        if level == depth:
            a = nt.asanyarray(x)
            return a.reshape((1,) * (nd - a.ndim) + tuple(a.shape)) if a.ndim < nd else a
        return nt.concatenate([build(e, level + 1) for e in x], axis=-(depth - level))
    r = build(arrays, 0)
    return r.copy() if depth == 0 else r


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


# ---- bits ----------------------------------------------------------------------
def _bit_weights(bitorder):
    if bitorder not in ('big', 'little'):
        raise ValueError("'order' must be either 'little' or 'big'")
    w = _np.array([128, 64, 32, 16, 8, 4, 2, 1], _np.uint8)
    return w if bitorder == 'big' else w[::-1].copy()


def packbits(a, /, axis=None, bitorder='big'):
    nt = _nt()
    a = nt.asarray(a)
    if a.dtype.kind not in 'biu':
        raise TypeError("Expected an input array of integer or boolean data type")
    w = _bit_weights(bitorder)
    if axis is None:
        a = a.ravel()
        axis = 0
    ax = _axis(axis, a.ndim)
    b = nt.moveaxis(nt.not_equal(a, 0), ax, -1).astype(_np.uint8)
    n = b.shape[-1]
    m = -(-n // 8)
    if m * 8 != n:
        b = nt.concatenate((b, nt.zeros(tuple(b.shape[:-1]) + (m * 8 - n,), _np.uint8)),
                           axis=-1)
    r = nt.sum(b.reshape(tuple(b.shape[:-1]) + (m, 8)) * nt.asarray(w), axis=-1,
               dtype=_np.uint8)
    return nt.moveaxis(r, -1, ax)


def unpackbits(a, /, axis=None, count=None, bitorder='big'):
    nt = _nt()
    a = nt.asarray(a)
    if a.dtype != _np.uint8:
        raise TypeError("Expected an input array of unsigned byte data type")
    shifts = _np.array([7, 6, 5, 4, 3, 2, 1, 0], _np.uint8)
    if bitorder not in ('big', 'little'):
        raise ValueError("'order' must be either 'little' or 'big'")
    if bitorder == 'little':
        shifts = shifts[::-1].copy()
    if axis is None:
        a = a.ravel()
        axis = 0
    ax = _axis(axis, a.ndim)
    x = nt.moveaxis(a, ax, -1)
    bits = nt.bitwise_and(nt.right_shift(x[..., None], nt.asarray(shifts)), 1)
    bits = bits.reshape(tuple(x.shape[:-1]) + (x.shape[-1] * 8,))
    if count is not None:
        count = operator.index(count)
        n = bits.shape[-1]
        keep = count if count >= 0 else n + count
        if keep < 0:
            raise ValueError(f"-count larger than number of elements")
        if keep <= n:
            bits = bits[..., :keep]
        else:
            bits = nt.concatenate(
                (bits, nt.zeros(tuple(bits.shape[:-1]) + (keep - n,), _np.uint8)), axis=-1)
    return nt.moveaxis(bits, -1, ax)


def mask_indices(n, mask_func, k=0):
    nt = _nt()
    a = mask_func(nt.ones((n, n), dtype=int), k)
    return nt.nonzero(a != 0)


# ---- sets (sorted, from unique, isin and concatenate) ------------------------
def union1d(ar1, ar2):
    nt = _nt()
    return nt.unique(nt.concatenate((nt.ravel(ar1), nt.ravel(ar2))))


def setdiff1d(ar1, ar2, assume_unique=False):
    nt = _nt()
    a = nt.ravel(ar1) if assume_unique else nt.unique(ar1)
    return a[nt.isin(a, ar2, assume_unique=True, invert=True)]


def setxor1d(ar1, ar2, assume_unique=False):
    nt = _nt()
    if not assume_unique:
        ar1, ar2 = nt.unique(ar1), nt.unique(ar2)
    aux = nt.concatenate((nt.ravel(ar1), nt.ravel(ar2)))
    if aux.size == 0:
        return aux
    aux = nt.sort(aux)
    flag = nt.concatenate((nt.asarray([True]), aux[1:] != aux[:-1], nt.asarray([True])))
    return aux[flag[1:] & flag[:-1]]


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    nt = _nt()
    a1, a2 = nt.ravel(ar1), nt.ravel(ar2)
    if not assume_unique:
        if return_indices:
            a1, ind1 = nt.unique(a1, return_index=True)
            a2, ind2 = nt.unique(a2, return_index=True)
        else:
            a1, a2 = nt.unique(a1), nt.unique(a2)
    aux = nt.concatenate((a1, a2))
    if return_indices:
        order = nt.argsort(aux, kind='stable')
        aux = aux[order]
    else:
        aux = nt.sort(aux)
    mask = aux[1:] == aux[:-1]
    common = aux[:-1][mask]
    if not return_indices:
        return common
    n1 = a1.shape[0]
    i1 = order[:-1][mask]
    i2 = order[1:][mask] - n1
    if not assume_unique:
        i1, i2 = ind1[i1], ind2[i2]
    return common, i1, i2


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
        slope = (y1 - y0) / (x1 - x0)
        r = slope * (x - x0) + y0
        # where the slope is undefined (repeated xp) or at the right end, NumPy
        # takes the sample itself
        r = nt.where(x == x1, y1, r)
        r = nt.where(x < xp[0], lval, r)
        r = nt.where(x > xp[-1], rval, r)
        r = nt.where(x == xp[-1], fp[-1], r)
        r = nt.where(nt.isnan(x), nt.asarray(_np.nan, dtype=ftype), r)
    r = nt.asarray(r).astype(ftype, copy=False)
    return r[()] if r.ndim == 0 else r


def nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    nt = _nt()
    x = nt.asarray(a)
    if x.dtype.kind not in 'fc':
        return nt.median(x, axis=axis, out=out, keepdims=keepdims)
    return nt.nanquantile(x, 0.5, axis=axis, out=out, keepdims=keepdims,
                          method='midpoint') if x.dtype.kind == 'f' else \
        F.call("nanmedian (complex)", _np.nanmedian, (a,),
               dict(axis=axis, out=out, keepdims=keepdims))


# ---- diagonals and masked writes --------------------------------------------
def diagflat(v, k=0):
    nt = _nt()
    return nt.diag(nt.ravel(v), k)


def fill_diagonal(a, val, wrap=False):
    nt = _nt()
    if a.ndim < 2:
        raise ValueError("array must be at least 2-d")
    if a.ndim == 2:
        step = a.shape[1] + 1
        end = None if wrap else a.shape[1] * a.shape[1]
    else:
        if len(set(a.shape)) != 1:
            raise ValueError("All dimensions of input must be of equal length")
        step = 1 + int(_np.cumprod(a.shape[:-1]).sum())
        end = None
    size = a.size
    end = size if end is None else min(end, size)
    idx = _np.arange(0, end, step, dtype=_np.int64)
    if idx.size:
        nt.put(a, nt.asarray(idx), val)


def place(arr, mask, vals):
    nt = _nt()
    if not isinstance(arr, Array):
        return F.call("place", _np.place, (arr, mask, vals), {})
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


def putmask(a, mask, values):
    nt = _nt()
    if not isinstance(a, Array):
        return F.call("putmask", _np.putmask, (a, mask, values), {})
    m = nt.ravel(nt.asarray(mask))      # NumPy: any shape of a's size, no broadcasting
    if m.size != a.size:
        raise ValueError("putmask: mask and data must be the same size")
    idx = nt.flatnonzero(m)
    v = nt.ravel(nt.asarray(values, dtype=a.dtype))
    if idx.size == 0:
        return
    if v.size == 0:
        return
    # the value at the same flat position, values repeated to a's size
    nt.put(a, idx, v[idx % v.size] if v.size != a.size else v[idx])


# ---- polynomials on coefficient arrays --------------------------------------
def polymul(a1, a2):
    nt = _nt()
    return nt.convolve(nt.atleast_1d(a1), nt.atleast_1d(a2))


def polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):
    """NumPy's polyfit: least squares on the scaled Vandermonde matrix."""
    nt = _nt()
    order = operator.index(deg) + 1
    x, y = nt.asarray(x), nt.asarray(y)
    x = x.astype(_np.result_type(x.dtype, 0.0), copy=False)
    y = y.astype(_np.result_type(y.dtype, 0.0), copy=False)
    if deg < 0:
        raise ValueError("expected deg >= 0")
    if x.ndim != 1:
        raise TypeError("expected 1D vector for x")
    if x.size == 0:
        raise TypeError("expected non-empty vector for x")
    if y.ndim < 1 or y.ndim > 2:
        raise TypeError("expected 1D or 2D array for y")
    if x.shape[0] != y.shape[0]:
        raise TypeError("expected x and y to have same length")
    if rcond is None:
        rcond = len(x) * _np.finfo(x.dtype).eps
    lhs = vander(x, order)
    rhs = y
    if w is not None:
        w = nt.asarray(w).astype(_np.float64)
        if w.ndim != 1:
            raise TypeError("expected a 1-d array for weights")
        if w.shape[0] != y.shape[0]:
            raise TypeError("expected w and y to have the same length")
        lhs = lhs * w[:, None]
        rhs = rhs * (w if rhs.ndim == 1 else w[:, None])
    scale = nt.sqrt(nt.sum(lhs * lhs, axis=0))
    lhs = lhs / scale
    c, resids, rank, s = nt.linalg.lstsq(lhs, rhs, rcond)
    c = (c.T / scale).T
    if rank != order and not full:
        import warnings
        warnings.warn("Polyfit may be poorly conditioned", _np.exceptions.RankWarning,
                      stacklevel=2)
    if full:
        return c, resids, rank, s, rcond
    if cov:
        Vbase = nt.linalg.inv(lhs.T @ lhs)
        Vbase = Vbase / nt.outer(scale, scale)
        if cov == "unscaled":
            fac = 1
        else:
            if len(x) <= order:
                raise ValueError("the number of data points must exceed order to scale "
                                 "the covariance matrix")
            fac = resids / (len(x) - order)
        if y.ndim == 1:
            return c, Vbase * fac
        return c, Vbase[:, :, None] * fac
    return c


def polydiv(u, v):
    nt = _nt()
    u = nt.atleast_1d(u) + 0.0
    v = nt.atleast_1d(v) + 0.0
    dt = _np.result_type(u.dtype, v.dtype)
    m = u.shape[0] - 1
    n = v.shape[0] - 1
    scale = 1. / v[0]
    q = nt.zeros((max(m - n + 1, 1),), dt)
    r = u.astype(dt, copy=False)      # u is already a new array (u + 0.0)
    for k in range(0, m - n + 1):
        d = scale * r[k]
        q[k] = d
        r[k:k + n + 1] = r[k:k + n + 1] - d * v
    while nt.allclose(r[0], 0, rtol=1e-14) and (r.shape[-1] > 1):
        r = r[1:]
    return q, r


def histogram_bin_edges(a, bins=10, range=None, weights=None):
    nt = _nt()
    from ._counting import _uniform_edges, _check_edges
    x = nt.asarray(a)
    if isinstance(bins, str) or x.dtype.kind in 'bc':
        return F.call("histogram_bin_edges (estimators)", _np.histogram_bin_edges, (a,),
                      dict(bins=bins, range=range, weights=weights))
    if _np.ndim(bins) == 0:
        return C.np_or_nd(_uniform_edges(x, bins, range)[4])
    e = nt.asarray(bins)
    _check_edges(e)
    return e


def isfortran(a):
    return bool(a.flags.f_contiguous and not a.flags.c_contiguous)


def require(a, dtype=None, requirements=None, *, like=None):
    nt = _nt()
    reqs = set()
    if requirements:
        names = {'C': 'C', 'C_CONTIGUOUS': 'C', 'CONTIGUOUS': 'C', 'F': 'F',
                 'F_CONTIGUOUS': 'F', 'FORTRAN': 'F', 'A': 'A', 'ALIGNED': 'A', 'W': 'W',
                 'WRITEABLE': 'W', 'O': 'O', 'OWNDATA': 'O', 'E': 'E', 'ENSUREARRAY': 'E'}
        for r in ([requirements] if isinstance(requirements, str) else requirements):
            reqs.add(names[r.upper()])
    if 'C' in reqs and 'F' in reqs:
        raise ValueError("Cannot specify both C and Fortran contiguous.")
    arr = nt.asanyarray(a, dtype=dtype)
    if 'F' in reqs:
        return nt.asfortranarray(arr)
    if 'C' in reqs or 'O' in reqs:
        return nt.ascontiguousarray(arr) if 'O' not in reqs else nt.array(arr, copy=True)
    return arr


# ---- roots of polynomials (companion-matrix eigenvalues) ---------------------
def roots(p):
    nt = _nt()
    p = _np.atleast_1d(_np.asarray(C.to_np_tree(p)))
    if p.ndim != 1:
        raise ValueError("Input must be a rank-1 array.")
    nz = _np.nonzero(_np.ravel(p))[0]
    if len(nz) == 0:
        return nt.asarray(_np.array([]))
    trailing = len(p) - nz[-1] - 1
    p = p[int(nz[0]):int(nz[-1]) + 1]
    if not issubclass(p.dtype.type, (_np.floating, _np.complexfloating)):
        p = p.astype(float)
    N = len(p)
    if N > 1:
        A = _np.diag(_np.ones((N - 2,), p.dtype), -1)
        A[0, :] = -p[1:] / p[0]
        r = nt.linalg.eigvals(nt.asarray(A))
    else:
        r = nt.asarray(_np.array([]))
    if trailing:
        r = nt.concatenate((r, nt.zeros(trailing, r.dtype)))
    return r


def poly(seq_of_zeros):
    nt = _nt()
    z = nt.atleast_1d(nt.asarray(seq_of_zeros))
    sh = z.shape
    if len(sh) == 2 and sh[0] == sh[1] and sh[0] != 0:
        z = nt.linalg.eigvals(z)
    elif len(sh) == 1:
        dt = z.dtype
        if dt != object:
            z = z.astype(_np.result_type(dt, _np.float64)) if dt.kind in 'biu' else z
    else:
        raise ValueError("input must be 1d or non-empty square 2d array.")
    if z.shape[0] == 0:
        return 1.0
    dt = z.dtype
    a = nt.ones((1,), dtype=dt)
    for k in range(z.shape[0]):
        a = nt.convolve(a, nt.concatenate((nt.ones((1,), dtype=dt), -z[k:k + 1])),
                        mode='full')
    if a.dtype.kind == 'c':
        zh = _np.asarray(z)
        pos_roots = _np.sort_complex(zh[zh.imag > 0])
        neg_roots = _np.conjugate(_np.sort_complex(zh[zh.imag < 0]))
        if len(pos_roots) == len(neg_roots) and _np.all(neg_roots == pos_roots):
            a = a.real.copy()
    return a


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


# ---- text and files: host work by nature -------------------------------------
def _text(npfunc, native, a, max_line_width, precision, suppress_small):
    """ndtile's own repr/str (which gathers only the printed items) when no
    option is given; NumPy's function on the gathered array otherwise."""
    x = C.asarray(a)
    if isinstance(x, Array) and max_line_width is None and precision is None and \
            suppress_small is None:
        return native(x)
    return npfunc(C.to_numpy(x) if isinstance(x, Array) else x, max_line_width, precision,
                  suppress_small)


def array_repr(arr, max_line_width=None, precision=None, suppress_small=None):
    return _text(_np.array_repr, repr, arr, max_line_width, precision, suppress_small)


def array_str(a, max_line_width=None, precision=None, suppress_small=None):
    return _text(_np.array_str, str, a, max_line_width, precision, suppress_small)


def array2string(a, *args, **kwargs):
    x = C.asarray(a)
    return _np.array2string(C.to_numpy(x) if isinstance(x, Array) else x, *args, **kwargs)


def _host_reader(npfunc):
    """A NumPy file or text reader whose result becomes ndtile arrays: the
    data comes from the host in any case (every rank reads the file)."""
    import functools

    @functools.wraps(npfunc)
    def reader(*args, **kwargs):
        kwargs.pop('like', None)
        return C.from_np_tree(npfunc(*args, **kwargs))
    reader.__module__ = __name__
    return reader


loadtxt = _host_reader(_np.loadtxt)
genfromtxt = _host_reader(_np.genfromtxt)
fromfile = _host_reader(_np.fromfile)
fromstring = _host_reader(_np.fromstring)
fromregex = _host_reader(_np.fromregex)


def load(file, *args, **kwargs):
    r = _np.load(file, *args, **kwargs)
    if isinstance(r, _np.ndarray):
        return C.from_np_tree(r)
    return r      # an NpzFile: its arrays convert when read (np.asarray works on them)


def _host_writer(name, npfunc):
    """A NumPy writer: the data is gathered and the file written once (by
    rank 0 on many ranks; an error there is raised on every rank)."""
    import functools

    @functools.wraps(npfunc)
    def writer(*args, **kwargs):
        return F.run_numpy(npfunc, args, kwargs, name)
    writer.__module__ = __name__
    return writer


save = _host_writer('save', _np.save)
savetxt = _host_writer('savetxt', _np.savetxt)
savez = _host_writer('savez', _np.savez)
savez_compressed = _host_writer('savez_compressed', _np.savez_compressed)


def einsum_path(subscripts, *operands, optimize='greedy', einsum_call=False):
    """NumPy's einsum_path: the contraction order depends on the operands'
    shapes and dtypes only, so NumPy plans it on data-free stand-ins."""
    if einsum_call:
        return F.call("einsum_path (einsum_call)", _np.einsum_path, (subscripts,) + operands,
                      {'optimize': optimize, 'einsum_call': einsum_call})
    stand_ins = []
    for o in operands:
        x = C.asarray(o)
        if isinstance(x, Array):
            stand_ins.append(_np.broadcast_to(_np.empty((), x.dtype), tuple(x.shape)))
        else:
            stand_ins.append(o)
    return _np.einsum_path(subscripts, *stand_ins, optimize=optimize)


def from_dlpack(x, /, *, device=None, copy=None):
    """An array from another library's DLPack capsule: NumPy imports it
    (host memory) and ndtile copies it into tiles (copy=False: BufferError;
    an ndtile array is itself)."""
    return C.from_dlpack(x, device, copy)
