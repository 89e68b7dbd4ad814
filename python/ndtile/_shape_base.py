"""Joining, splitting and stacking (NumPy's _core.shape_base and
lib/_shape_base_impl): atleast_*d, stack, hstack, vstack, dstack,
column_stack, block, unstack, expand_dims, split and array_split, tile,
take_along_axis, put_along_axis, kron."""

import builtins
import operator
import sys

import numpy as _np

from . import _convert as C
from . import _core
from . import _fallback as F
from . import _multiarray
from ._fromnumeric import (
    _arange_at, _empty_axis_error, _fix_indices, _gather_along, _index_array, _put_flat, _values_for)
from ._multiarray import concatenate
from ._umath import _nd, _nd_or_fallback, _norm_axis

Array = _core.Array


def _nt():
    return sys.modules['ndtile']


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


def hstack(tup, *, dtype=None, casting="same_kind"):
    _multiarray._stack_sequence(tup)
    arrs = atleast_1d(*tup)
    if not isinstance(arrs, tuple):
        arrs = (arrs,)
    if arrs and arrs[0].ndim == 1:
        return concatenate(arrs, 0, dtype=dtype, casting=casting)
    return concatenate(arrs, 1, dtype=dtype, casting=casting)


def vstack(tup, *, dtype=None, casting="same_kind"):
    _multiarray._stack_sequence(tup)
    arrs = atleast_2d(*tup)
    if not isinstance(arrs, tuple):
        arrs = (arrs,)
    return concatenate(arrs, 0, dtype=dtype, casting=casting)


def row_stack(tup, *, dtype=None, casting="same_kind"):
    # NumPy's deprecated alias, with its warning (NumPy 2.0)
    F.warn("`row_stack` alias is deprecated. Use `np.vstack` directly.",
           DeprecationWarning)
    return vstack(tup, dtype=dtype, casting=casting)


def dstack(tup):
    _multiarray._stack_sequence(tup)
    arrs = atleast_3d(*tup)
    if not isinstance(arrs, tuple):
        arrs = (arrs,)
    return concatenate(arrs, 2)


def column_stack(tup):
    _multiarray._stack_sequence(tup)
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


def _repeat_count(r):
    """A count as NumPy's tile takes it: a 0-d array cast to intp by the
    'safe' rule (repeat's), a bool (a NumPy bool too), else an integer."""
    if isinstance(r, _np.bool_):
        return int(r)
    if isinstance(r, (Array, _np.ndarray)) and r.ndim == 0:
        if not _np.can_cast(r.dtype, _np.intp, 'safe'):
            raise TypeError(f"Cannot cast scalar from {r.dtype!r} to dtype('int64') "
                            f"according to the rule 'safe'")
        return int(r)
    return operator.index(r)


def tile(A, reps):
    x, fb = _nd(A, 'tile', _np.tile, (A, reps), {})
    if fb is not None:
        return fb
    try:
        tup = tuple(reps)
    except TypeError:
        tup = (reps,)
    tup = tuple(_repeat_count(r) for r in tup)
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


def _along_axis(arr, indices, axis):
    x = C.asnd(arr)
    ix, ix0 = _index_array(indices, 'take_along_axis', orig=True)
    if axis is None:
        if ix.ndim != 1:
            raise ValueError("when axis=None, `indices` must have a single dimension.")
        x, ax = x._reshape((-1,)), 0
    else:
        ax = _norm_axis(axis, x.ndim)
    if ix.ndim != x.ndim:
        raise ValueError("`indices` and `arr` must have the same number of dimensions")
    return x, ix, ax, ix0


def _along_shape(x, ix, ax):
    """The shape of NumPy's fancy index (an arange per other axis, shaped
    to broadcast, and the indices at ax); NumPy's IndexError, naming every
    index array's shape, when they do not broadcast."""
    try:
        return _core.broadcast_shapes([x.shape[:ax] + (1,) + x.shape[ax + 1:], ix.shape])
    except ValueError:
        nd = x.ndim
        shapes = [ix.shape if k == ax else (1,) * k + (x.shape[k],) + (1,) * (nd - k - 1)
                  for k in range(nd)]
        text = ''.join(_multiarray._shape_text(sh) + ' ' for sh in shapes)
        raise IndexError("shape mismatch: indexing arrays could not be broadcast together "
                         "with shapes " + text) from None


def take_along_axis(arr, indices, axis=-1):
    x, ix, ax, ix0 = _along_axis(arr, indices, axis)
    shape = _along_shape(x, ix, ax)
    # NumPy's arr[index]: one index array (a 1-d arr) checked in its own
    # order, several (with aranges) each in memory order
    ix, _, ub = _fix_indices(ix, x.shape[ax], 'raise', ax, bound=True,
                             order='C' if x.ndim == 1 else 'K', orig=ix0)
    if 0 in shape:
        return _multiarray.empty(shape, dtype=x.dtype)
    return _gather_along(x, ix._broadcast_to(shape), ax, shape, ub)


def put_along_axis(arr, indices, values, axis):
    if not isinstance(arr, Array):
        return F.call("put_along_axis", _np.put_along_axis, (arr, indices, values, axis), {})
    x, ix, ax, ix0 = _along_axis(arr, indices, axis)
    # NumPy's arr[index] = values: the read-only check, the values'
    # conversion, the indices' broadcast, the values' broadcast, then the
    # indices' bounds
    arr._before_write()     # NumPy's warning for a broadcast_arrays result
    if not arr.flags.writeable:
        raise ValueError("assignment destination is read-only")
    vals = _values_for(values, arr.dtype)
    shape = _along_shape(x, ix, ax)
    vs = vals.shape
    while len(vs) > len(shape) and vs[0] == 1:     # NumPy drops leading 1s
        vs = vs[1:]
    try:
        vals = vals._reshape(vs)._broadcast_to(shape)
    except ValueError:
        raise ValueError(f"shape mismatch: value array of shape {_multiarray._shape_text(vals.shape)} "
                         f"could not be broadcast to indexing result of shape "
                         f"{_multiarray._shape_text(shape)}") from None
    if ix.size and x.shape[ax] == 0:
        _empty_axis_error(ix, ax)
    # NumPy's assignment checks the indices in memory order
    ix = _fix_indices(ix, x.shape[ax], 'raise', ax, order='K',
                      orig=ix0)._broadcast_to(shape)
    if 0 in shape:
        return None
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


def unstack(x, /, *, axis=0):
    nt = _nt()
    x = nt.asarray(x)
    if x.ndim == 0:
        raise ValueError("Input array must be at least 1-d.")
    return tuple(nt.moveaxis(x, axis, 0))


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
