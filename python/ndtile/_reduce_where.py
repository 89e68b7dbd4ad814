"""Float and complex sums (sum, nansum, add.reduce, mean) under where=, in
NumPy's order, natively.

NumPy's masked reduction calls the add loop once per run of True mask
elements of its inner loop, each run one pairwise sum added to the running
value: start + pw(run0) + pw(run1) + ... (filling the masked elements with
0 gives other bits). For an input and a mask of one shape, both
C-contiguous, NumPy's iterator walks the elements in C order and coalesces
the trailing reduced axes (and unit axes) into its inner loop: the line the
runs lie in; the other reduced axes fold those lines one after another, in
C order. The core's ndt_sum_where_lines takes the input as (K, R, L): the
result's elements, the lines of each, the line.

Other layouts (a broadcast mask, a strided or transposed input or mask)
make NumPy's iterator reorder, buffer or cut its inner loop by its own cost
model, and a sum that casts (float16, dtype= of another kind, an out= of
another dtype) adds NumPy's 8192-element buffers: those keep NumPy's own
computation (sum_where returns None)."""

import math

import numpy as _np

from . import _core, _multiarray, _umath
from . import _dtypes as D
from ._convert import Array

_NoValue = _np._NoValue
_TYPES = None


def _types():
    global _TYPES
    if _TYPES is None:
        _TYPES = frozenset(D.code(_np.dtype(t)) for t in ('f4', 'f8', 'c8', 'c16'))
    return _TYPES


def _mask_of(where, x):
    """where= as a bool ndtile array of x's shape laid out as NumPy would
    walk it in C order, else None."""
    if isinstance(where, _np.ndarray) and not where.flags.c_contiguous:
        return None
    if isinstance(where, (bool, _np.bool_)) or (isinstance(where, _np.ndarray) and
                                                 where.ndim == 0 and where.dtype == bool):
        # one value for all: NumPy's mask has stride 0 on every axis, which
        # coalesces as a C-contiguous mask does
        return _core.full(tuple(x.shape), D.BOOL, bool(where))
    try:
        w = _umath.operand(where)
    except Exception:
        return None
    if isinstance(w, Array) and w.size == 0 and isinstance(where, (list, tuple)):
        w = w._astype(D.BOOL, _core.CASTING_UNSAFE)     # ([] is float64 by itself)
    if not isinstance(w, Array) or w._dt != D.BOOL or tuple(w.shape) != tuple(x.shape) or \
            not w._c_contiguous:
        return None
    return w


def lines(x, mask):
    """x (C-contiguous, ndim axes, reduced axes mask: None for all) as the
    (K, R, L) view of NumPy's masked fold: the kept axes, the reduced axes
    before the trailing ones, the trailing reduced axes (unit axes count as
    reduced: NumPy's iterator coalesces them away)."""
    nd = x.ndim
    red = [mask is None or bool(mask >> k & 1) or x.shape[k] == 1 for k in range(nd)]
    t = nd
    while t > 0 and red[t - 1]:
        t -= 1
    kept = [k for k in range(t) if not red[k]]
    outer = [k for k in range(t) if red[k]]
    perm = kept + outer + list(range(t, nd))
    K = math.prod(x.shape[k] for k in kept)
    R = math.prod(x.shape[k] for k in outer)
    L = math.prod(x.shape[k] for k in range(t, nd))
    v = x._transpose(tuple(perm)) if perm != list(range(nd)) else x
    return v._reshape((K, R, L))


def sum_where(name, x, mask, dtc, keepdims, initial, where, through, initial_array):
    """The sum (name 'sum' or 'nansum') of x over the axes of mask (None:
    all) under where=, NumPy's bits, keepdims or not; None where this path
    does not give them (the caller goes on as before). initial_array(v, c)
    is the reductions' conversion of initial= (_methods', passed in: that
    module imports this one)."""
    t = x._dt if dtc == D.DEFAULT else dtc
    if name not in ('sum', 'nansum') or t != x._dt or t not in _types() or \
            through not in (None, t):
        return None
    w = _mask_of(where, x)
    if w is None:
        return None
    nd = x.ndim
    red = [mask is None or bool(mask >> k & 1) for k in range(nd)]
    shape = tuple(1 if red[k] else x.shape[k] for k in range(nd)) if keepdims else \
        tuple(x.shape[k] for k in range(nd) if not red[k])
    if x.size == 0:
        # nothing folds: every element is the start
        v = 0 if initial is _NoValue or initial is None else initial_array(initial, t).item()
        return _core.full(shape, t, v)
    if not x._c_contiguous or not w._c_contiguous:
        return None
    if name == 'nansum':
        # NumPy's nansum sums the array with its NaNs replaced by 0
        x = _multiarray.where(_umath.UFUNCS['isnan']._arrays(x), 0, x)
    start = None
    if initial is not _NoValue and initial is not None:
        start = initial_array(initial, t).tobytes()
    xl = lines(x, mask)
    wl = lines(w, mask)
    r = _core.sum_where_lines(_core.REDUCE_NAMES.index('sum'), xl, wl) if start is None \
        else _core.sum_where_lines(_core.REDUCE_NAMES.index('sum'), xl, wl, start)
    return r._reshape(shape)


def count_where(w, mask, keepdims):
    """NumPy's _count_reduce_items under where=: the True elements of w
    along the axes of mask, as intp."""
    return _core.reduce(_core.REDUCE_NAMES.index('sum'), w._astype(D.code(_np.dtype(_np.intp)),
                        _core.CASTING_UNSAFE), mask, bool(keepdims), D.DEFAULT, 0)
