"""Fortran-ordered arrays. A store is always C order; an F-ordered array is
the transpose of a C-ordered store of the transposed shape (element strides
1, n0, n0*n1, ...), so it is a view with NumPy's F strides, f_contiguous
flags and aliasing, and every op reads it as it reads any strided view."""
from . import _core
import numpy as np

_C, _F = 0x1, 0x2


def f_copy(x):
    """A Fortran-ordered copy of x (NumPy's copy(order='F'))."""
    if x.ndim <= 1:
        return x._copy()
    return _owned_t(x._transpose(None)._copy())


def _owned_t(c):
    """The transpose of the fresh array c, owning c's store (OWNDATA, base
    None, as NumPy's Fortran-ordered arrays)."""
    return owned_permuted(c, tuple(range(c.ndim - 1, -1, -1)))


def f_empty(shape, code, fill=None):
    """empty/zeros/ones/full(shape, order='F'): a C store of the reversed
    shape, transposed. fill: None (empty), or the _core maker and its args."""
    rshape = tuple(reversed(shape))
    r = _core.empty(rshape, code) if fill is None else fill[0](rshape, code, *fill[1:])
    return _owned_t(r)


def is_f_only(x):
    """F-contiguous and not C-contiguous (where 'A' and 'K' mean F)."""
    return x._flags & (_C | _F) == _F


def keep_order(x, r):
    """r (a fresh C-ordered result computed from x) in x's layout when x is
    Fortran-ordered: order='K'/'A' copies keep NumPy's F layout."""
    return f_copy(r) if is_f_only(x) and r.ndim > 1 else r


def k_perm(x):
    """NumPy's order='K' layout of a new array like x (PyArray_NewLikeArray):
    None for C order (x C-contiguous or of one axis), the reversed axes for a
    Fortran-ordered x, else x's axes by decreasing absolute stride, equal
    strides in axis order (NumPy's stable stride sort)."""
    if x.ndim <= 1 or x._flags & _C:
        return None
    if x._flags & _F:
        return tuple(range(x.ndim - 1, -1, -1))
    st = x.strides
    perm = tuple(sorted(range(x.ndim), key=lambda i: -abs(st[i])))
    return None if perm == tuple(range(x.ndim)) else perm


def owned_permuted(c, perm):
    """The fresh C-ordered array c (of the axes perm of the result) with
    its axes put back, owning c's store: strides in perm's order."""
    inv = [0] * len(perm)
    for i, p in enumerate(perm):
        inv[p] = i
    r = c._transpose(tuple(inv))
    _core.take_owner(r, c)
    return r


def k_made(x, make):
    """make(x) (a new array of x's shape from x: a copy, a cast) laid out
    as NumPy's order 'K': make of x's axes in their strides' order, axes
    put back (k_perm)."""
    perm = k_perm(x)
    if perm is None:
        return make(x)
    return owned_permuted(make(x._transpose(perm)), perm)


def k_copy(x):
    """NumPy's copy(order='K'): x's strides' order (positive strides)."""
    return k_made(x, lambda v: v._copy())


def order_copy(x, order):
    """x copied in NumPy's order ('C', 'F', 'A', 'K')."""
    o = 'C' if order is None else order.upper() if isinstance(order, str) else order
    if o == 'K':
        return k_copy(x)
    if o == 'F' or (o == 'A' and is_f_only(x)):
        return f_copy(x)
    return x._copy()


def reshape(x, shape, order):
    """x.reshape(shape, order='F'): NumPy's F-order reshape is the C-order
    reshape of the transposed array, transposed back (a view where NumPy's
    is one)."""
    # NumPy's checks and -1 on a stand-in without data
    shape = np.broadcast_to(np.zeros((), np.uint8), x.shape).reshape(shape, order='F').shape
    return x._transpose(None)._reshape(tuple(reversed(shape)))._transpose(None)
