"""histogram, histogramdd, histogram2d and histogram_bin_edges (NumPy's
lib/_histograms_impl; histogram2d is NumPy's _twodim_base's, here beside
the histogramdd it calls)."""

import operator
import sys

import numpy as _np

from . import _convert as C
from . import _core
from . import _fallback as F
from . import _fromnumeric
from . import _function_base
from . import _multiarray
from . import _shape_base
from ._fromnumeric import _common
from ._function_base import builtins_range
from ._umath import _cast

Array = _core.Array


def _nt():
    return sys.modules['ndtile']


def histogram_bin_edges(a, bins=10, range=None, weights=None):
    nt = _nt()
    x = nt.asarray(a)
    if isinstance(bins, str) or x.dtype.kind in 'bc':
        return F.call("histogram_bin_edges (estimators)", _np.histogram_bin_edges, (a,),
                      dict(bins=bins, range=range, weights=weights))
    if _np.ndim(bins) == 0:
        return C.np_or_nd(_uniform_edges(x, bins, range)[4])
    e = nt.asarray(bins)
    _check_edges(e)
    return e


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
        first, last = _fromnumeric.min(x), _fromnumeric.max(x)
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
    edges = _np.linspace(first, last, n + 1, endpoint=True, dtype=bin_type)
    if _np.any(edges[:-1] >= edges[1:]):
        # a range too small for n distinct edges in bin_type (NumPy's check)
        raise ValueError(f'Too many bins for data range. Cannot create {n} finite-sized bins.')
    return n, first, last, bin_type, edges


def _check_edges(e):
    """NumPy's checks of explicit bin edges."""
    if e.ndim != 1:
        raise ValueError('`bins` must be 1d, when an array')
    if e.size > 1 and bool(_fromnumeric.any(e[:-1] > e[1:])):
        raise ValueError('`bins` must increase monotonically, when an array')


def _count_bins(idx, nbins, w, ntype):
    """Counts of the bin indices idx (nbins = left out), as NumPy's histogram."""
    cnt = _core.bincount(_fromnumeric.ravel(idx), None if w is None else _fromnumeric.ravel(w), nbins + 1)[:nbins]
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
    if isinstance(bins, Array) and bins.ndim == 0:
        bins = bins._scalar()        # NumPy: a 0-d bins is a bin count
    if _np.ndim(bins) == 0 and not isinstance(bins, Array):
        n, first, last, bin_type, edges_np = _uniform_edges(x, bins, range)
        if not C.supported(bin_type):
            # a range of a dtype ndtile does not hold (longdouble): NumPy's
            return F.call("histogram (dtype)", _np.histogram, (a,),
                          dict(bins=bins, range=range, density=density, weights=weights))
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
        db = _cast(_function_base.diff(edges), _np.dtype(float))
        hist = hist / db / _fromnumeric.sum(hist)
    return hist, edges


def _edge_index(x, e):
    """Bin of each value for explicit edges: [e_i, e_i+1), the last bin
    closed; len(e) - 1 for values outside or NaN."""
    n = e.size - 1
    c = _common(e, x, x)
    e, xv = c
    k = _core.searchsorted(e, xv, True) - 1
    k = _multiarray.where(xv == e[n], n - 1, k)
    return _multiarray.where((k < 0) | (k >= n), n, k)


def histogramdd(sample, bins=10, range=None, density=None, weights=None):
    """NumPy's histogramdd: searchsorted per dimension, one flat bin index,
    one bincount."""
    s = C.asarray(sample) if not isinstance(sample, (list, tuple)) else None
    if isinstance(sample, (list, tuple)):
        cols = [C.asarray(v) for v in sample]
        if all(isinstance(c, Array) and c.ndim == 1 for c in cols) and \
                len({c.shape for c in cols}) == 1 and cols:
            s = _multiarray.stack(cols, axis=1)
    w = None if weights is None else C.asarray(weights)
    if (not isinstance(s, Array) or s.dtype.kind in 'bc' or
            (w is not None and (not isinstance(w, Array) or w.dtype.kind == 'c')) or
            any(isinstance(b, str) for b in (bins if isinstance(bins, (list, tuple))
                                             else [bins]))):
        return F.call("histogramdd", _np.histogramdd, (sample,),
                      dict(bins=bins, range=range, density=density, weights=weights))
    if s.ndim != 2:
        s = _fromnumeric.transpose(_shape_base.atleast_2d(s))
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
        if _np.ndim(bins[i]) == 0:     # (a 0-d array too, as NumPy's)
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
            if ed.size > 1 and bool(_fromnumeric.any(ed[:-1] > ed[1:])):
                raise ValueError(f'`bins[{i}]` must be monotonically increasing, when an array')
        else:
            raise ValueError(f'`bins[{i}]` must be a scalar or 1d array')
        edges.append(ed)
        nbin.append(ed.size + 1)
    total = 1
    for n in nbin:
        total *= n
    if total > sys.maxsize:
        # NumPy's error (its ravel_multi_index of the bin numbers); the
        # product of int64s wrapped and asked for a huge count array
        raise ValueError("invalid dims: array size defined by dims is larger than the "
                         "maximum possible size.")
    flat = None
    for i in builtins_range(Dn):
        e, col = _common(edges[i], s[:, i], s[:, i])
        k = _core.searchsorted(e, col, True)
        k = _multiarray.where(col == e[e.size - 1], k - 1, k)
        flat = k if flat is None else flat * nbin[i] + k
    if w is not None:
        w = _fromnumeric.ravel(w)
    hist = _core.bincount(flat, w, total)
    hist = _cast(_fromnumeric.reshape(hist, tuple(nbin)), _np.dtype(float))
    hist = hist[(slice(1, -1),) * Dn]
    if density:
        tot = _fromnumeric.sum(hist)
        for i in builtins_range(Dn):
            shape = [1] * Dn
            shape[i] = nbin[i] - 2
            hist = hist / _fromnumeric.reshape(_function_base.diff(edges[i]), tuple(shape))
        hist = hist / tot
    return hist, edges


def histogram2d(x, y, bins=10, range=None, density=None, weights=None):
    """NumPy's histogram2d, through histogramdd."""
    if len(x) != len(y):
        raise ValueError('x and y must have the same length.')
    try:
        N = len(bins)
    except TypeError:
        N = 1
    if N != 1 and N != 2:
        xedges = yedges = C.asarray(bins)
        bins = [xedges, yedges]
    hist, edges = histogramdd([x, y], bins, range, density, weights)
    return hist, edges[0], edges[1]
