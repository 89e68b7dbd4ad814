"""Two-dimensional arrays (NumPy's lib/_twodim_base_impl): eye, identity,
tri, tril, triu, fliplr, flipud, diag, diagflat, vander and the
tril/triu/mask index functions."""

import builtins
import operator
import sys

import numpy as _np

from . import _convert as C
from . import _core
from . import _dtypes as D
from . import _fallback as F
from ._array_api import _check_device as _device
from . import _multiarray
from . import _order as _O
from . import _umath
from ._fromnumeric import diagonal
from ._multiarray import _creation_order, _dim
from ._umath import _nd

Array = _core.Array


def _nt():
    return sys.modules['ndtile']


def eye(N, M=None, k=0, dtype=float, order='C', *, device=None, like=None):
    if like is not None:
        liked = C.like_call(like, eye, locals())
        if liked is not C.NO_LIKE:
            return liked
    if device is not None:
        _device(device)
    dt = D.as_dtype(dtype)
    c = D.code(dt)
    if c is None:
        return _np.eye(N, M, k, dtype=dt, order=order)
    if order != 'C':
        _creation_order(order)
    N = _dim(N)
    M = N if M is None else _dim(M)
    if N < 0 or M < 0:       # M=-1 too: NumPy makes zeros((N, M)) first
        raise ValueError("negative dimensions are not allowed")
    if k >= M:               # NumPy compares before it takes k as an int
        k = M
    k = operator.index(k)
    if k < -N:
        k = -N            # NumPy: a diagonal beyond the array is all zeros
    if order in ('F', 'f'):
        # the transpose of the (M, N) eye of diagonal -k, owning its store
        return _O._owned_t(_core.eye(M, N, -k, c))
    return _core.eye(N, M, k, c)


def identity(n, dtype=None, *, like=None):
    if like is not None:
        liked = C.like_call(like, identity, locals())
        if liked is not C.NO_LIKE:
            return liked
    return eye(n, dtype=dtype)


def fliplr(m):
    x = C.asarray(m)
    if not isinstance(x, Array):      # float16, longdouble, ...: NumPy's
        return F.call("fliplr (dtype)", _np.fliplr, (m,), {})
    if x.ndim < 2:
        raise ValueError("Input must be >= 2-d.")
    return x[:, ::-1]


def flipud(m):
    x = C.asarray(m)
    if not isinstance(x, Array):
        return F.call("flipud (dtype)", _np.flipud, (m,), {})
    if x.ndim < 1:
        raise ValueError("Input must be >= 1-d.")
    return x[::-1, ...]


def tri(N, M=None, k=0, dtype=float, *, like=None):
    if like is not None:
        liked = C.like_call(like, tri, locals())
        if liked is not C.NO_LIKE:
            return liked
    if M is None:
        M = N
    m = _umath.UFUNCS['greater_equal'](_multiarray.arange(N)._reshape((-1, 1)),
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
    return builtins.max(-1 - n, builtins.min(k, m + 1))     # (-n: no bool N)


def _tri_cols(k, n, m):
    """The column row NumPy's tri compares rows with: arange(-k, m - k)."""
    # NumPy integer sizes as Python ints: `m - k` and `-n - 1` of a uint8 n
    # or m wrapped (tri(np.uint8(3), np.uint8(250), 100) was all False)
    n, m = (int(v) if isinstance(v, _np.integer) else v for v in (n, m))
    if isinstance(k, (int, _np.integer)):
        k = _tri_k(k, n, m)
        return _multiarray.arange(-k, m - k)
    # NumPy builds it in an integer dtype: int(-k) first, then steps of
    # int(1 - k) - int(-k) (0 for k = 0.5)
    a0 = int(-k)
    return _multiarray.arange(m) * (int(1 - k) - a0) + a0


def _tri_mask(a, k, lower):
    n, m = a.shape[-2:] if a.ndim > 1 else a.shape * 2   # NumPy: tri(*shape[-2:])
    rows = _multiarray.arange(n)._reshape((-1, 1))
    if lower:
        return _umath.UFUNCS['greater_equal'](rows, _tri_cols(k, n, m)._reshape((1, -1)))
    # NumPy's triu mask: not tri(k - 1) (which matters for a float k)
    return _umath.UFUNCS['less'](rows, _tri_cols(k - 1, n, m)._reshape((1, -1)))


def tril(m, k=0):
    x = C.asarray(m)
    if not isinstance(x, Array) or x.ndim < 1:
        return F.call("tril (dtype or 0-d)", _np.tril, (m,), {'k': k})
    return _core.apply(_umath.WHERE, [_tri_mask(x, k, True), x, _core.scalar(0, x._dt, False)])


def triu(m, k=0):
    x = C.asarray(m)
    if not isinstance(x, Array) or x.ndim < 1:
        return F.call("triu (dtype or 0-d)", _np.triu, (m,), {'k': k})
    # zero where j < i + k, i.e. where tril(k - 1) keeps
    return _core.apply(_umath.WHERE, [_tri_mask(x, k - 1, True), _core.scalar(0, x._dt, False), x])


def diag(v, k=0):
    x, fb = _nd(v, 'diag', _np.diag, (v,), {'k': k})
    if fb is not None:
        return fb
    k = operator.index(k)
    if x.ndim == 1:
        n = x.shape[0] + abs(k)
        res = _multiarray.zeros((n, n), dtype=x.dtype)
        if x.shape[0]:
            _core.diagonal(res, k, 0, 1)._assign(x, _core.CASTING_UNSAFE)
        return res
    if x.ndim == 2:
        return diagonal(x, k, 0, 1)      # read-only, as NumPy's
    raise ValueError("Input must be 1- or 2-d.")


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
        # a new C-ordered array, as NumPy's (not a reversed view of one)
        cols = nt.broadcast_to(x.astype(dtype, copy=False)[:, None], (x.shape[0], N - 1))
        p = nt.cumprod(cols, axis=1)
        return nt.concatenate((v, p) if increasing else (p[:, ::-1], v), axis=1)
    return v


def mask_indices(n, mask_func, k=0):
    nt = _nt()
    a = mask_func(nt.ones((n, n), dtype=int), k)
    return nt.nonzero(a != 0)


# ---- diagonals and masked writes --------------------------------------------


def diagflat(v, k=0):
    nt = _nt()
    return nt.diag(nt.ravel(v), k)
