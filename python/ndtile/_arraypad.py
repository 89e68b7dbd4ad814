"""pad (NumPy's lib/_arraypad_impl)."""

import typing

import numpy as _np

from . import _convert as C
from . import _core
from . import _fallback as F
from . import _multiarray
from . import _order as _O
from ._fromnumeric import take

Array = _core.Array


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


def _runs(idx):
    """A padded axis's index map as slices: maximal runs of consecutive
    positions (step 1 or -1), each a slice of the source axis."""
    out, i, n = [], 0, len(idx)
    while i < n:
        j, step = i + 1, 1
        if j < n and abs(int(idx[j]) - int(idx[i])) == 1:
            step = int(idx[j]) - int(idx[i])
            while j < n and int(idx[j]) - int(idx[j - 1]) == step:
                j += 1
        a, b = int(idx[i]), int(idx[j - 1])
        out.append(slice(a, b + 1) if step == 1 else slice(a, b - 1 if b else None, -1))
        i = j
    return out


# NumPy's keywords of each mode
_ALLOWED_KWARGS = {'empty': set(), 'edge': set(), 'wrap': set(),
                   'constant': {'constant_values'}, 'linear_ramp': {'end_values'},
                   'maximum': {'stat_length'}, 'mean': {'stat_length'},
                   'median': {'stat_length'}, 'minimum': {'stat_length'},
                   'reflect': {'reflect_type'}, 'symmetric': {'reflect_type'}}


def pad(array, pad_width, mode='constant', **kwargs):
    """Constant padding is a filled array and one copy into it; edge, wrap,
    reflect and symmetric padding gather each padded axis through an index
    vector (one ndt_gather per axis). Other modes run NumPy's."""
    x = C.asarray(array)
    if isinstance(pad_width, dict):
        # NumPy's: {axis: width or (before, after)}, other axes unpadded
        seq = [(0, 0)] * x.ndim
        for axis, width in pad_width.items():
            match width:
                case int(both):
                    seq[axis] = both, both
                case tuple((int(before), int(after))):
                    seq[axis] = before, after
                case _ as invalid:
                    typing.assert_never(invalid)
        pad_width = seq
    allowed = _ALLOWED_KWARGS.get(mode) if isinstance(mode, str) else None
    if allowed is not None and set(kwargs) - allowed:
        raise ValueError(f"unsupported keyword arguments for mode '{mode}': "
                         f"{set(kwargs) - allowed}")
    cv = kwargs.get('constant_values', 0)
    periodic = ('edge', 'wrap', 'reflect', 'symmetric')
    ok = isinstance(x, Array) and (
        (mode == 'constant' and not set(kwargs) - {'constant_values'}) or
        (mode in periodic and (not kwargs or kwargs == {'reflect_type': 'even'})) or
        (mode == 'empty' and not kwargs))
    # NumPy's result of a Fortran-ordered array is Fortran-ordered
    f_order = isinstance(x, Array) and x.ndim > 1 and _O.is_f_only(x)
    if not ok:
        r = F.call(f"pad (mode={mode!r})", _np.pad, (array, pad_width),
                   dict(kwargs, mode=mode))
        return _O.keep_order(x, r) if f_order and isinstance(r, Array) else r
    pw = _np.asarray(pad_width)
    if pw.dtype.kind != 'i':
        raise TypeError("`pad_width` must be of integral type.")
    if pw.size and (pw < 0).any():
        # NumPy checks the widths as given, before it broadcasts them to
        # (ndim, 2) (to nothing for a 0-d array)
        raise ValueError("index can't contain negative values")
    pw = _np.broadcast_to(pw.astype(_np.int64), (x.ndim, 2))
    shape = tuple(int(n + a + b) for n, (a, b) in zip(x.shape, pw))
    if mode in periodic and f_order:
        # these modes' index maps are separable: the padded transpose
        # (C-ordered), transposed back
        r = pad(x._transpose(None), pw[::-1], mode, **kwargs)
        return _O._owned_t(r)
    order = 'F' if f_order else 'C'
    if mode in periodic:
        out = x
        for ax, (n, (before, after)) in enumerate(zip(x.shape, pw)):
            if not before and not after:
                continue
            if n == 0:
                raise ValueError(f"can't extend empty axis {ax} using modes other than "
                                 f"'constant' or 'empty'")
            imap = _pad_index(mode, n, int(before), int(after))
            runs = _runs(imap)
            if len(runs) <= 32:
                # a few runs: the concatenation of slices (tile copies; a
                # gather of broadcast indices costs a scan per output tile:
                # 63 s for a 2.5M-element pad at 4 KiB tiles)
                pre = (slice(None),) * ax
                out = _multiarray.concatenate([out._view_index(pre + (sl,)) for sl in runs],
                                              axis=ax)
            else:
                out = take(out, C.from_numpy(imap), axis=ax)
        return out if out is not x else x._copy()
    key = tuple(slice(int(a), int(a) + n) for n, (a, _) in zip(x.shape, pw))
    if mode == 'empty':
        out = _multiarray.zeros(shape, dtype=x.dtype, order=order)
        out._view_index(key)._assign(x, _core.CASTING_UNSAFE)
        return out
    values = _value_pairs(cv, x.ndim)
    # the copy, then the constants on the border slabs of each axis: every
    # element is written once (twice in the corners, where the last axis's
    # value stays, as in NumPy's), not filled first and then overwritten by
    # the copy. An empty array's result is its slabs alone.
    out = _multiarray.empty(shape, dtype=x.dtype, order=order)
    if x.size:
        out._view_index(key)._assign(x, _core.CASTING_UNSAFE)
    for ax, (n, (a, b)) in enumerate(zip(x.shape, pw)):
        for side, (lo, hi) in enumerate(((0, int(a)), (int(a) + n, int(a) + n + int(b)))):
            if hi > lo:
                # NumPy's assignment of the value (its casts and errors)
                out[(slice(None),) * ax + (slice(lo, hi),)] = values[ax][side]
    return out


def _value_pairs(values, ndim):
    """NumPy's (before, after) constant of each axis (its _as_pairs): one
    value for all, one pair for all axes, or one pair per axis."""
    v = _np.asarray(C.to_np_tree(values))
    if v.ndim < 3:
        if v.size == 1:
            return ((v.ravel()[0],) * 2,) * ndim
        if v.size == 2 and v.shape != (2, 1):
            return (tuple(v.ravel()),) * ndim
    return _np.broadcast_to(v, (ndim, 2)).tolist()
