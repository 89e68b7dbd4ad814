"""Selection, searching, sets, counting, histograms and quantiles.

partition/argpartition and searchsorted run in the core (src/ops/sort.c,
src/ops/select.c); the rest is composed from them and from sort, gather,
cumsum and bincount, so every step runs as tasks over tiles. Only small
metadata (bin edges, quantile index tables that depend on the line length
and q alone) is computed on the host, with NumPy's own formulas so results
match NumPy's bit for bit where NumPy's order of summation allows.
"""
import collections
import operator
import warnings

import numpy as _np

from . import _core
from . import _dtypes as D
from . import _convert as C
from . import _fallback as F
from . import _manip as M
from . import _reduce as R

Array = C.Array
_normalize_axis_tuple = _np.lib.array_utils.normalize_axis_tuple


_u = M._ufn          # a ufunc by name


def _nd(x, dtype=None):
    r = C.asarray(x, dtype)
    return r if isinstance(r, Array) else None


def _host(x):
    return C.to_numpy(x) if isinstance(x, Array) else _np.asarray(x)


def _cast(x, dt):
    return x if x.dtype == dt else x._astype(D.code(dt), 4)


def _take(a1, idx):
    """a1[idx] for a 1-d array and an int64 index array (any shape)."""
    return _core.gather(a1, [idx])


def _i64(values):
    return C.from_numpy(_np.ascontiguousarray(values, dtype=_np.int64))


# ---- partition ----------------------------------------------------------------
def _kth_list(kth):
    k = _host(kth)
    if k.dtype.kind not in 'iu':
        raise TypeError("Partition index must be integer")
    if k.ndim > 1:
        raise ValueError("kth array must have dimension <= 1")
    return [int(v) for v in k.ravel()]


def _check_select_kind(kind):
    if kind != 'introselect':
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
    return _core.partition(x, axis, ks, want)


def partition(a, kth, axis=-1, kind='introselect', order=None):
    """NumPy's partition (introselect per line; NaNs last)."""
    return _partition('partition', a, kth, axis, kind, order, False)


def argpartition(a, kth, axis=-1, kind='introselect', order=None):
    """NumPy's argpartition (introselect per line; NaNs last)."""
    return _partition('argpartition', a, kth, axis, kind, order, True)


# ---- searchsorted -------------------------------------------------------------
def _side(side):
    if isinstance(side, str):
        s = side.lower()
        if s in ('left', 'right') and side in ('left', 'right'):
            return side == 'right'
        if s in ('left', 'right'):
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
        s = M.ravel(s)
        if s.size and (int(R.min(s)) < 0 or int(R.max(s)) >= x.size):
            raise ValueError("Sorter index out of range.")
        x = _take(x, _cast(s, _np.dtype(_np.int64)))
    c = _common(x, y, v)
    if c is None:
        return F.call("searchsorted", _np.searchsorted, (a, v), dict(side=side, sorter=sorter))
    r = _core.searchsorted(c[0], c[1], right)
    return r[()] if r.ndim == 0 else r


# ---- unique -------------------------------------------------------------------
def _unique_flat(x, want_index, want_inverse, want_counts, equal_nan):
    """(values, index, inverse (flat), counts) of the flattened array."""
    flat = M.ravel(x)
    n = flat.size
    if n == 0:
        e = _i64(_np.zeros(0))
        return flat.copy(), e, e, e
    need_perm = want_index or want_inverse
    if need_perm:
        perm = M.argsort(flat, kind='stable')
        s = _take(flat, perm)
    else:
        s = M.sort(flat)
    if n > 1:
        diff = s[1:] != s[:-1]
        if equal_nan and s.dtype.kind in 'fc':
            nan = _u('isnan')(s)
            diff = diff & ~(nan[1:] & nan[:-1])
        mask = M.concatenate([C.from_numpy(_np.ones(1, bool)), diff])
    else:
        mask = C.from_numpy(_np.ones(1, bool))
    first = M.flatnonzero(mask)
    values = _take(s, first)
    index = _take(perm, first) if want_index else None
    inverse = None
    if want_inverse:
        rank = R.cumsum(mask) - 1
        inverse = _take(rank, M.argsort(perm, kind='stable'))
    counts = None
    if want_counts:
        counts = M.diff(M.concatenate([first, _i64([n])]))
    return values, index, inverse, counts


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None,
           *, equal_nan=True, sorted=True):
    """NumPy's unique for axis=None: stable argsort, a mask of first
    occurrences, and its cumulative sum for the inverse."""
    x = C.asarray(ar)
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
        res.append(M.reshape(inverse, x.shape))
    if return_counts:
        res.append(counts)
    return res[0] if len(res) == 1 else tuple(res)


def _unique_axis(x, axis, return_index, return_inverse, return_counts):
    """unique(axis=k) as NumPy computes it: the slices along k, as rows,
    sorted lexicographically by their values (a stable lexsort, NaNs last,
    -0.0 equal to 0.0), a mask of rows that differ from the one before
    (rows with a NaN never equal, as NumPy's structured comparison), and
    from it the values, first indices, inverse and counts."""
    from numpy.lib.array_utils import normalize_axis_index
    from ._functions import lexsort
    from ._creation import empty
    k = normalize_axis_index(operator.index(axis), x.ndim)
    y = M.moveaxis(x, k, 0)
    n = y.shape[0]
    rest = tuple(y.shape[1:])
    rows = y.reshape((n, -1)) if n else y.reshape((0, int(_np.prod(rest))))
    m = rows.shape[1]
    if n == 0 or m == 0:
        # NumPy: no rows, or rows of nothing (all equal: one row if any)
        nu = min(n, 1)
        vals = M.moveaxis(y[:nu], 0, k)
        res = [vals]
        if return_index:
            res.append(_core.zeros((nu,), D.INT64))
        if return_inverse:
            res.append(_core.zeros((n,), D.INT64))
        if return_counts:
            res.append(_core.full((nu,), D.INT64, n))
        return res[0] if len(res) == 1 else tuple(res)
    # lexsort's last key is the primary one: the first column
    perm = lexsort(tuple(rows[:, j] for j in range(m - 1, -1, -1)))
    srt = M.take(rows, perm, axis=0)
    mask = empty((n,), _np.bool_)
    mask[:1] = True
    if n > 1:
        mask[1:] = R.any(srt[1:] != srt[:-1], axis=1)
    first = M.flatnonzero(mask)
    vals = M.take(srt, first, axis=0)
    vals = M.moveaxis(vals.reshape((vals.shape[0],) + rest), 0, k)
    res = [vals]
    if return_index:
        res.append(M.take(perm, first))
    if return_inverse:
        inv = empty((n,), _np.int64)
        inv[perm] = R.cumsum(mask, dtype=_np.int64) - 1
        res.append(inv)
    if return_counts:
        ends = M.concatenate([first[1:], _core.full((1,), D.INT64, n)])
        res.append(ends - first)
    return res[0] if len(res) == 1 else tuple(res)


try:
    from numpy.lib._arraysetops_impl import (  # the result types NumPy returns
        UniqueAllResult, UniqueCountsResult, UniqueInverseResult)
except ImportError:        # pragma: no cover
    UniqueAllResult = collections.namedtuple(
        'UniqueAllResult', ['values', 'indices', 'inverse_indices', 'counts'])
    UniqueCountsResult = collections.namedtuple('UniqueCountsResult', ['values', 'counts'])
    UniqueInverseResult = collections.namedtuple('UniqueInverseResult',
                                                 ['values', 'inverse_indices'])


def unique_values(x):
    y = _nd(x)
    if y is None:
        return F.call("unique_values", _np.unique_values, (x,), {})
    return _unique_flat(y, False, False, False, False)[0]


def unique_counts(x):
    y = _nd(x)
    if y is None:
        return F.call("unique_counts", _np.unique_counts, (x,), {})
    v, _, _, c = _unique_flat(y, False, False, True, False)
    return UniqueCountsResult(v, c)


def unique_inverse(x):
    y = _nd(x)
    if y is None:
        return F.call("unique_inverse", _np.unique_inverse, (x,), {})
    v, _, inv, _ = _unique_flat(y, False, True, False, False)
    return UniqueInverseResult(v, M.reshape(inv, y.shape))


def unique_all(x):
    y = _nd(x)
    if y is None:
        return F.call("unique_all", _np.unique_all, (x,), {})
    v, idx, inv, c = _unique_flat(y, True, True, True, False)
    return UniqueAllResult(v, idx, M.reshape(inv, y.shape), c)


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
    e, t = _cast(e, dt), _cast(t, dt)
    if t.size == 0:
        return C.from_numpy(_np.full(e.shape, bool(invert)))
    if dt.kind in 'iub' and dt != _np.uint64 and kind != 'sort':
        # NumPy's table method: a presence table of the test values' range
        i64 = _np.dtype(_np.int64)
        t1 = _cast(M.ravel(t), i64)
        lo, hi = int(R.min(t1)), int(R.max(t1))
        if hi - lo <= 6 * (e.size + t.size) or kind == 'table':
            table = _core.bincount(t1 - lo, None, 0) > 0
            e1 = _cast(e, i64)
            found = _core.gather(table, [M.clip(e1, lo, hi) - lo]) & (e1 >= lo) & (e1 <= hi)
            return ~found if invert else found
    s = M.sort(M.ravel(t))
    pos = _core.searchsorted(s, e, False)
    pos = _u('minimum')(pos, s.size - 1)
    found = _take(s, pos) == e
    return ~found if invert else found


# ---- bincount -----------------------------------------------------------------
def bincount(x, /, weights=None, minlength=0):
    """NumPy's bincount: per-block counts combined in block order, so float
    weights sum to the same bits for any number of workers."""
    xa = C.asarray(x)
    w = None if weights is None else C.asarray(weights)
    if not isinstance(xa, Array) or (w is not None and not isinstance(w, Array)):
        return F.call("bincount", _np.bincount, (x,), dict(weights=weights, minlength=minlength))
    if minlength is None:
        raise TypeError("use 0 instead of None for minlength")
    if xa.ndim == 0:
        raise ValueError("object of too small depth for desired array")
    if xa.dtype.kind == 'f' and not isinstance(x, (Array, _np.ndarray)):
        if xa.size:     # a list of floats: NumPy 2.1+ casts it with a warning
            warnings.warn("Non-integer input passed to bincount. In a future version of NumPy, "
                          "this will be an error. (Deprecated NumPy 2.1)", DeprecationWarning,
                          stacklevel=2)
        xa = xa._astype(D.code(_np.dtype(_np.int64)), 4)
    elif xa.dtype == _np.uint64:     # NumPy casts uint64 (same_kind)
        xa = _cast(xa, _np.dtype(_np.int64))
    return _core.bincount(xa, w, operator.index(minlength))


# ---- digitize -----------------------------------------------------------------
def _monotonic(b):
    """1 increasing, -1 decreasing, 0 neither (NumPy's _monotonicity)."""
    if b.size < 2:
        return 1
    d0, d1 = b[:-1], b[1:]      # comparisons with NaN are false, as in NumPy's check
    if not bool(R.any(d1 < d0)):
        return 1
    if not bool(R.any(d1 > d0)):
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


# ---- histograms ---------------------------------------------------------------
_SIGNED_TO_UNSIGNED = {_np.byte: _np.ubyte, _np.short: _np.ushort, _np.intc: _np.uintc,
                       _np.int_: _np.uint, _np.longlong: _np.ulonglong}


def _unsigned_subtract(a, b):
    """NumPy's helper of the same name (on scalars)."""
    dt = _np.result_type(a, b)
    udt = _SIGNED_TO_UNSIGNED.get(dt.type)
    if udt is None:
        return _np.subtract(a, b, dtype=dt)
    return _np.subtract(_np.asarray(a, dtype=dt), _np.asarray(b, dtype=dt), casting='unsafe',
                        dtype=udt)


def _outer_edges(x, rng):
    if rng is not None:
        first, last = rng
        if first > last:
            raise ValueError('max must be larger than min in range parameter.')
        if not (_np.isfinite(first) and _np.isfinite(last)):
            raise ValueError(f"supplied range of [{first}, {last}] is not finite")
    elif x.size == 0:
        first, last = 0, 1
    else:
        first, last = R.min(x), R.max(x)
        if not (_np.isfinite(first) and _np.isfinite(last)):
            raise ValueError(f"autodetected range of [{first}, {last}] is not finite")
    if first == last:
        first = first - 0.5
        last = last + 0.5
    return first, last


def _uniform_edges(x, bins, rng):
    """NumPy's edges for an integer `bins`: (n, first, last, their dtype,
    the edges as a host array)."""
    try:
        n = operator.index(bins)
    except TypeError as e:
        raise TypeError('`bins` must be an integer, a string, or an array') from e
    if n < 1:
        raise ValueError('`bins` must be positive, when an integer')
    first, last = _outer_edges(x, rng)
    bin_type = _np.result_type(first, last, _np.empty(0, x.dtype))
    if _np.issubdtype(bin_type, _np.integer):
        bin_type = _np.result_type(bin_type, float)
    return n, first, last, bin_type, _np.linspace(first, last, n + 1, endpoint=True,
                                                  dtype=bin_type)


def _check_edges(e):
    """NumPy's checks of explicit bin edges."""
    if e.ndim != 1:
        raise ValueError('`bins` must be 1d, when an array')
    if e.size > 1 and bool(R.any(e[:-1] > e[1:])):
        raise ValueError('`bins` must increase monotonically, when an array')


def _count_bins(idx, nbins, w, ntype):
    """Counts of the bin indices idx (nbins = left out), as NumPy's histogram."""
    cnt = _core.bincount(M.ravel(idx), None if w is None else M.ravel(w), nbins + 1)[:nbins]
    return cnt if ntype is None else _cast(cnt, ntype)


def histogram(a, bins=10, range=None, density=None, weights=None):
    """NumPy's histogram: a bin index per value (the core's uniform-bins
    kernel, or searchsorted for explicit edges), then bincount."""
    x = C.asarray(a)
    w = None if weights is None else C.asarray(weights)
    fb = (not isinstance(x, Array) or (w is not None and not isinstance(w, Array)) or
          isinstance(bins, str) or x.dtype.kind in 'bc' or
          (w is not None and w.dtype.kind == 'c'))
    if fb:
        return F.call("histogram", _np.histogram, (a,),
                      dict(bins=bins, range=range, density=density, weights=weights))
    if w is not None and w.shape != x.shape:
        raise ValueError('weights should have the same shape as a.')
    ntype = None if w is None else w.dtype
    if _np.ndim(bins) == 0 and not isinstance(bins, Array):
        n, first, last, bin_type, edges_np = _uniform_edges(x, bins, range)
        denom = _unsigned_subtract(last, first)
        # the dtypes NumPy's own expression (x - first) / denom * n runs in
        d_dt = _np.result_type(_np.empty(0, bin_type), first)
        if d_dt.kind in 'iu':
            d_dt = bin_type
        f_dt = _np.result_type(_np.empty(0, d_dt), denom)
        edges = C.from_numpy(edges_np)
        hist = _core.histogram_count(x, edges, float(first), float(last), float(denom),
                                     d_dt == _np.float32, f_dt == _np.float32, w)
        if ntype is not None:
            hist = _cast(hist, ntype)
    else:
        e = C.asarray(bins)
        if not isinstance(e, Array) or e.dtype.kind == 'c':
            return F.call("histogram", _np.histogram, (a,),
                          dict(bins=bins, range=range, density=density, weights=weights))
        _check_edges(e)
        edges = e
        n = e.size - 1
        if n < 1:
            return F.call("histogram", _np.histogram, (a,),
                          dict(bins=bins, range=range, density=density, weights=weights))
        hist = _count_bins(_edge_index(x, e), n, w, ntype)
    if density:
        db = _cast(M.diff(edges), _np.dtype(float))
        hist = hist / db / R.sum(hist)
    return hist, edges


def _edge_index(x, e):
    """Bin of each value for explicit edges: [e_i, e_i+1), the last bin
    closed; len(e) - 1 for values outside or NaN."""
    n = e.size - 1
    c = _common(e, x, x)
    e, xv = c
    k = _core.searchsorted(e, xv, True) - 1
    k = M.where(xv == e[n], n - 1, k)
    return M.where((k < 0) | (k >= n), n, k)


def histogramdd(sample, bins=10, range=None, density=None, weights=None):
    """NumPy's histogramdd: searchsorted per dimension, one flat bin index,
    one bincount."""
    s = C.asarray(sample) if not isinstance(sample, (list, tuple)) else None
    if isinstance(sample, (list, tuple)):
        cols = [C.asarray(v) for v in sample]
        if all(isinstance(c, Array) and c.ndim == 1 for c in cols) and \
                len({c.shape for c in cols}) == 1 and cols:
            s = M.stack(cols, axis=1)
    w = None if weights is None else C.asarray(weights)
    if (not isinstance(s, Array) or s.dtype.kind in 'bc' or
            (w is not None and (not isinstance(w, Array) or w.dtype.kind == 'c')) or
            any(isinstance(b, str) for b in (bins if isinstance(bins, (list, tuple))
                                             else [bins]))):
        return F.call("histogramdd", _np.histogramdd, (sample,),
                      dict(bins=bins, range=range, density=density, weights=weights))
    if s.ndim != 2:
        s = M.transpose(M.atleast_2d(s))
    N, Dn = s.shape
    try:
        nb = len(bins)
        if nb != Dn:
            raise ValueError('The dimension of bins must be equal to the dimension of the '
                             'sample x.')
    except TypeError:
        bins = Dn * [bins]
    if range is None:
        range = (None,) * Dn
    elif len(range) != Dn:
        raise ValueError('range argument must have one entry per dimension')
    edges = []
    nbin = []
    for i in builtins_range(Dn):
        col = s[:, i]
        if _np.ndim(bins[i]) == 0 and not isinstance(bins[i], Array):
            if bins[i] < 1:
                raise ValueError(f'`bins[{i}]` must be positive, when an integer')
            smin, smax = _outer_edges(col, range[i])
            try:
                n = operator.index(bins[i])
            except TypeError as e:
                raise TypeError(f"`bins[{i}]` must be an integer, when a scalar") from e
            ed = C.from_numpy(_np.linspace(smin, smax, n + 1))
        elif _np.ndim(bins[i]) == 1:
            ed = C.asarray(bins[i])
            if ed.size > 1 and bool(R.any(ed[:-1] > ed[1:])):
                raise ValueError(f'`bins[{i}]` must be monotonically increasing, when an array')
        else:
            raise ValueError(f'`bins[{i}]` must be a scalar or 1d array')
        edges.append(ed)
        nbin.append(ed.size + 1)
    flat = None
    for i in builtins_range(Dn):
        e, col = _common(edges[i], s[:, i], s[:, i])
        k = _core.searchsorted(e, col, True)
        k = M.where(col == e[e.size - 1], k - 1, k)
        flat = k if flat is None else flat * nbin[i] + k
    total = int(_np.prod(nbin))
    if w is not None:
        w = M.ravel(w)
    hist = _core.bincount(flat, w, total)
    hist = _cast(M.reshape(hist, tuple(nbin)), _np.dtype(float))
    hist = hist[(slice(1, -1),) * Dn]
    if density:
        tot = R.sum(hist)
        for i in builtins_range(Dn):
            shape = [1] * Dn
            shape[i] = nbin[i] - 2
            hist = hist / M.reshape(M.diff(edges[i]), tuple(shape))
        hist = hist / tot
    return hist, edges


builtins_range = range


def histogram2d(x, y, bins=10, range=None, density=None, weights=None):
    """NumPy's histogram2d, through histogramdd."""
    try:
        N = len(bins)
    except TypeError:
        N = 1
    if N != 1 and N != 2:
        xedges = yedges = C.asarray(bins)
        bins = [xedges, yedges]
    hist, edges = histogramdd([x, y], bins, range, density, weights)
    return hist, edges[0], edges[1]


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
    return partition(x2, ks, axis=1) if ks.size <= 32 else M.sort(x2, axis=1)


def _quantile(name, npf, a, q, axis, out, overwrite_input, method, keepdims, weights,
              is_pct, nan):
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
    # the result dtype, from NumPy on a stand-in of two zeros
    rdt = npf(_np.zeros(2, x.dtype), q if not isinstance(q, Array) else qn,
              method=method).dtype
    nd = x.ndim
    if axis is None:
        red = tuple(builtins_range(nd))
    else:
        red = _normalize_axis_tuple(axis, nd)
    keep = [k for k in builtins_range(nd) if k not in red]
    kshape = tuple(x.shape[k] for k in keep)
    L = int(_np.prod(kshape))
    n = int(_np.prod([x.shape[k] for k in red]))
    xt = M.transpose(x, keep + list(red)) if nd else x
    x2 = M.reshape(xt, (L, n))
    nq = qf.size
    floating = x.dtype.kind == 'f'
    if nan and floating:
        # NaNs order last, so a line's valid values are its first `valid`
        valid = n - R.count_nonzero(_u('isnan')(x2), axis=1)        # (L,)
        counts, which = _np.unique(C.to_numpy(valid), return_inverse=True)
        tab = _index_table(counts.reshape(-1, 1), qf, method)
        if counts.size == 1:     # one length for every line: select, do not sort
            s = _order_lines(x2, tab, int(counts[0]))
        else:
            s = M.sort(x2, axis=1)
    else:
        # the indices depend on n and q only: select them (and the last
        # element, the NaN if a line has one) instead of sorting
        tab = _index_table(_np.array([[n]], dtype=_np.int64), qf, method)
        s = _order_lines(x2, tab, n, [n - 1])
    lines = C.from_numpy(_np.arange(L, dtype=_np.int64).reshape(L, 1))
    rows = M.broadcast_to(lines, (L, nq))
    if nan and floating:
        cols = M.broadcast_to(C.from_numpy(_np.arange(nq, dtype=_np.int64)).reshape(1, nq),
                              (L, nq))
        vrow = M.broadcast_to(_i64(which.reshape(L, 1)), (L, nq))
        line_n = M.broadcast_to(M.reshape(valid, (L, 1)), (L, nq))

        def per_line(t):
            return _core.gather(C.from_numpy(_np.ascontiguousarray(t)), [vrow, cols])
    else:
        def per_line(t):
            return M.broadcast_to(C.from_numpy(_np.ascontiguousarray(t)), (L, nq))
        line_n = n

    def values(t):
        i = per_line(t)
        i = M.where(i < 0, i + line_n, i)
        i = M.clip(i, 0, n - 1)
        return _core.gather(s, [rows, i])

    prev, nxt, gamma, interp = tab
    if not interp:
        res = values(prev)
    else:
        lo, hi = values(prev), values(nxt)
        g = per_line(gamma)
        diff = hi - lo
        if weak_q:
            ldt = rdt
            t, omt = _cast(g, ldt), _cast(1 - g, ldt)
        else:
            t, omt = g, 1 - g
        res = lo + diff * t
        res = M.where(g >= 0.5, _cast(hi - diff * omt, res.dtype), res)
    res = _cast(res, rdt)
    if floating:
        if nan:
            empty = valid == 0
            if bool(R.any(empty)):
                warnings.warn("All-NaN slice encountered", RuntimeWarning, stacklevel=3)
            bad = M.broadcast_to(M.reshape(empty, (L, 1)), (L, nq))
            if bool(empty[0]):
                # NumPy takes the dtype of its first line's result, and an
                # all-NaN line gives a NaN of the input's dtype
                rdt = x.dtype
        else:
            last = s[:, n - 1:n]
            bad = M.broadcast_to(last != last, (L, nq))
            if not kshape and _np.ndim(qq) == 0 and out is None and bool(bad[0, 0]):
                # a 0-d result of a line with NaN is NumPy's last element itself
                if not keepdims:
                    return x.dtype.type(_np.nan)
                rdt = x.dtype
        res = M.where(bad, _np.nan, res)
        res = _cast(res, rdt)
    qshape = _np.shape(qq)
    res = M.transpose(res)                     # (nq, L)
    if keepdims:
        kshape = tuple(1 if k in red else x.shape[k] for k in builtins_range(nd))
    res = M.reshape(res, qshape + kshape)
    if out is not None:
        M.copyto(out, res, casting='unsafe')
        return out
    return res[()] if res.ndim == 0 else res


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


def nanquantile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
                keepdims=False, *, weights=None):
    """NumPy's nanquantile: NaNs sort last, so each line's valid length picks
    its indices."""
    return _quantile('nanquantile', _np.nanquantile, a, q, axis, out, overwrite_input, method,
                     keepdims, weights, False, True)


def nanpercentile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
                  keepdims=False, *, weights=None):
    """NumPy's nanpercentile (see nanquantile)."""
    return _quantile('nanpercentile', _np.nanpercentile, a, q, axis, out, overwrite_input,
                     method, keepdims, weights, True, True)
