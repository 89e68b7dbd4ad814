"""Set operations (NumPy's lib/_arraysetops_impl): unique and the array-API
unique_* functions, isin, ediff1d, intersect1d, union1d, setdiff1d,
setxor1d."""

import collections
import operator
import sys

import numpy as _np
from numpy.lib.array_utils import normalize_axis_index

from . import _convert as C
from . import _core
from . import _dtypes as D
from . import _fallback as F
from ._umath import _ufn
from . import _fromnumeric
from . import _function_base
from . import _multiarray
from . import _numeric
from ._umath import _cast, _i64, _nd_array, _take

Array = _core.Array

try:
    from numpy.lib._arraysetops_impl import (  # the result types NumPy returns
        UniqueAllResult, UniqueCountsResult, UniqueInverseResult)
except ImportError:        # pragma: no cover
    UniqueAllResult = collections.namedtuple(
        'UniqueAllResult', ['values', 'indices', 'inverse_indices', 'counts'])
    UniqueCountsResult = collections.namedtuple('UniqueCountsResult', ['values', 'counts'])
    UniqueInverseResult = collections.namedtuple('UniqueInverseResult',
                                                 ['values', 'inverse_indices'])


def _nt():
    return sys.modules['ndtile']


_u = _ufn          # a ufunc by name


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
    # NumPy's ary[1:] - ary[:-1] (a TypeError for booleans, which diff
    # would take as not_equal; a subclass's own __sub__ without to_begin
    # and to_end, as NumPy), np.subtract into the result with them (wrapped
    # as ary's class)
    if parts[0] is None and parts[1] is None:
        return a[1:] - a[:-1]
    d = nt.subtract(a[1:], a[:-1])
    r = nt.concatenate([p for p in (parts[0], d, parts[1]) if p is not None])
    return C.subclass_like(r, a)


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


# ---- unique -------------------------------------------------------------------


def _unique_flat(x, want_index, want_inverse, want_counts, equal_nan):
    """(values, index, inverse (flat), counts) of the flattened array."""
    flat = _fromnumeric.ravel(x)
    n = flat.size
    if n == 0:
        e = _i64(_np.zeros(0))
        return flat.copy(), e, e, e
    need_perm = want_index or want_inverse
    if need_perm:
        perm = _fromnumeric.argsort(flat, kind='stable')
        s = _take(flat, perm)
    else:
        s = _fromnumeric.sort(flat)
    if n > 1:
        diff = s[1:] != s[:-1]
        if equal_nan and s.dtype.kind in 'fc':
            nan = _u('isnan')(s)
            diff = diff & ~(nan[1:] & nan[:-1])
        mask = _multiarray.concatenate([C.from_numpy(_np.ones(1, bool)), diff])
    else:
        mask = C.from_numpy(_np.ones(1, bool))
    first = _numeric.flatnonzero(mask)
    values = _take(s, first)
    if (equal_nan and s.dtype.kind == 'c' and not (need_perm or want_counts)
            and bool(_u('isnan')(values[-1]))):
        # NumPy's unique without indices or counts finds the values with a
        # hash table: of the complex values with a NaN (all one value) it
        # keeps the first in the input's order, not the first in sorted
        # order (nan-1j before nan+1j), which it keeps with counts or indices
        nan_in = _u('isnan')(flat)
        values[-1] = flat[int(_fromnumeric.argmax(nan_in))]
    index = _take(perm, first) if want_index else None
    inverse = None
    if want_inverse:
        rank = _fromnumeric.cumsum(mask) - 1
        inverse = _take(rank, _fromnumeric.argsort(perm, kind='stable'))
    counts = None
    if want_counts:
        counts = _function_base.diff(_multiarray.concatenate([first, _i64([n])]))
    return values, index, inverse, counts


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None,
           *, equal_nan=True, sorted=True):
    """NumPy's unique for axis=None: stable argsort, a mask of first
    occurrences, and its cumulative sum for the inverse."""
    x = C.asarray(ar)
    if type(x) is not C.ND and isinstance(x, Array):
        # a subclass instance: NumPy's values and first indices are of its
        # class (its sort and indexing keep it), the inverse and counts not
        r = unique(x._view(), return_index, return_inverse, return_counts, axis,
                   equal_nan=equal_nan, sorted=sorted)
        if not isinstance(r, tuple):
            return C.subclass_like(r, x)
        n = 1 + bool(return_index)
        return tuple(C.subclass_like(v, x) for v in r[:n]) + r[n:]
    if axis is not None and isinstance(x, Array) and x.ndim == 1:
        # NumPy: a 1-d input with an axis is unique of the values (equal_nan
        # holds), after its check of the axis
        normalize_axis_index(axis, 1)
        axis = None
    if axis is not None and isinstance(x, Array) and D.KIND[x._dt] in 'biufc':
        return _unique_axis(x, axis, return_index, return_inverse, return_counts)
    if axis is not None or not isinstance(x, Array):
        return F.call("unique" if axis is None else "unique (axis)", _np.unique, (ar,),
                      dict(return_index=return_index, return_inverse=return_inverse,
                           return_counts=return_counts, axis=axis, equal_nan=equal_nan,
                           sorted=sorted))
    values, index, inverse, counts = _unique_flat(x, return_index, return_inverse,
                                                  return_counts, equal_nan)
    res = [values]
    if return_index:
        res.append(index)
    if return_inverse:
        res.append(_fromnumeric.reshape(inverse, x.shape))
    if return_counts:
        res.append(counts)
    return res[0] if len(res) == 1 else tuple(res)


def _unique_axis(x, axis, return_index, return_inverse, return_counts):
    """unique(axis=k) as NumPy computes it: the slices along k, as rows,
    sorted lexicographically by their values (a stable lexsort, NaNs last,
    -0.0 equal to 0.0), a mask of rows that differ from the one before
    (rows with a NaN never equal, as NumPy's structured comparison), and
    from it the values, first indices, inverse and counts."""
    k = normalize_axis_index(operator.index(axis), x.ndim)
    y = _numeric.moveaxis(x, k, 0)
    n = y.shape[0]
    rest = tuple(y.shape[1:])
    rows = y.reshape((n, -1)) if n else y.reshape((0, int(_np.prod(rest))))
    m = rows.shape[1]
    if n == 0 or m == 0:
        # NumPy: no rows, or rows of nothing (all equal: one row if any)
        nu = min(n, 1)
        vals = _numeric.moveaxis(y[:nu], 0, k)
        res = [vals]
        if return_index:
            res.append(_core.zeros((nu,), D.INT64))
        if return_inverse:
            res.append(_core.zeros((n,), D.INT64))
        if return_counts:
            res.append(_core.full((nu,), D.INT64, n))
        return res[0] if len(res) == 1 else tuple(res)
    # lexsort's last key is the primary one: the first column
    perm = _multiarray.lexsort(tuple(rows[:, j] for j in range(m - 1, -1, -1)))
    srt = _fromnumeric.take(rows, perm, axis=0)
    mask = _multiarray.empty((n,), _np.bool_)
    mask[:1] = True
    if n > 1:
        mask[1:] = _fromnumeric.any(srt[1:] != srt[:-1], axis=1)
    first = _numeric.flatnonzero(mask)
    vals = _fromnumeric.take(srt, first, axis=0)
    vals = _numeric.moveaxis(vals.reshape((vals.shape[0],) + rest), 0, k)
    res = [vals]
    if return_index:
        res.append(_fromnumeric.take(perm, first))
    if return_inverse:
        inv = _multiarray.empty((n,), _np.int64)
        inv[perm] = _fromnumeric.cumsum(mask, dtype=_np.int64) - 1
        res.append(inv)
    if return_counts:
        ends = _multiarray.concatenate([first[1:], _core.full((1,), D.INT64, n)])
        res.append(ends - first)
    return res[0] if len(res) == 1 else tuple(res)


def unique_values(x):
    y = _nd_array(x)
    if y is None:
        return F.call("unique_values", _np.unique_values, (x,), {})
    return _unique_flat(y, False, False, False, False)[0]


def unique_counts(x):
    y = _nd_array(x)
    if y is None:
        return F.call("unique_counts", _np.unique_counts, (x,), {})
    v, _, _, c = _unique_flat(y, False, False, True, False)
    return UniqueCountsResult(v, c)


def unique_inverse(x):
    y = _nd_array(x)
    if y is None:
        return F.call("unique_inverse", _np.unique_inverse, (x,), {})
    v, _, inv, _ = _unique_flat(y, False, True, False, False)
    return UniqueInverseResult(v, _fromnumeric.reshape(inv, y.shape))


def unique_all(x):
    y = _nd_array(x)
    if y is None:
        return F.call("unique_all", _np.unique_all, (x,), {})
    v, idx, inv, c = _unique_flat(y, True, True, True, False)
    return UniqueAllResult(v, idx, _fromnumeric.reshape(inv, y.shape), c)


# ---- isin ---------------------------------------------------------------------


def isin(element, test_elements, assume_unique=False, invert=False, *, kind=None):
    """NumPy's isin: sort the test elements, binary-search every element."""
    e, t = C.asarray(element), C.asarray(test_elements)
    if kind not in (None, 'sort', 'table'):
        raise ValueError(f"Invalid kind: '{kind}'. Please use None, 'sort' or 'table'.")
    if not isinstance(e, Array) or not isinstance(t, Array):
        return F.call("isin", _np.isin, (element, test_elements),
                      dict(assume_unique=assume_unique, invert=invert, kind=kind))
    if kind == 'table' and not (e.dtype.kind in 'iub' and t.dtype.kind in 'iub'):
        raise ValueError("The 'table' method is only supported for boolean or integer arrays. "
                         "Please select 'sort' or None for kind.")
    dt = _np.result_type(e.dtype, t.dtype)
    if D.code(dt) is None:
        return F.call("isin", _np.isin, (element, test_elements),
                      dict(assume_unique=assume_unique, invert=invert, kind=kind))
    tdt = t.dtype
    # (computed on e's elements in a line, then given e's shape: a 0-d e
    # gives NumPy's 0-d array, where the ufuncs below would give a scalar)
    shape = e.shape
    e, t = _cast(_fromnumeric.ravel(e), dt), _cast(t, dt)
    if t.size == 0:
        return C.from_numpy(_np.full(shape, bool(invert)))
    if dt.kind in 'iub' and dt != _np.uint64 and kind != 'sort':
        # NumPy's table method: a presence table of the test values' range
        i64 = _np.dtype(_np.int64)
        t1 = _cast(_fromnumeric.ravel(t), i64)
        lo, hi = int(_fromnumeric.min(t1)), int(_fromnumeric.max(t1))
        # NumPy's table needs the range in the test values' own dtype
        if hi - lo > _np.iinfo(_np.uint8 if tdt.kind == 'b' else tdt).max:
            if kind == 'table':
                raise RuntimeError("You have specified kind='table', but the range of values "
                                   "in `ar2` or `ar1` exceed the maximum integer of the "
                                   "datatype. Please set `kind` to None or 'sort'.")
        elif hi - lo <= 6 * (e.size + t.size) or kind == 'table':
            table = _core.bincount(t1 - lo, None, 0) > 0
            e1 = _cast(e, i64)
            found = _core.gather(table, [_fromnumeric.clip(e1, lo, hi) - lo]) & (e1 >= lo) & (e1 <= hi)
            return (~found if invert else found)._reshape(shape)
    s = _fromnumeric.sort(_fromnumeric.ravel(t))
    pos = _core.searchsorted(s, e, False)
    pos = _u('minimum')(pos, s.size - 1)
    found = _take(s, pos) == e
    return (~found if invert else found)._reshape(shape)
