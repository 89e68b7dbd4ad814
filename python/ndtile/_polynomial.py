"""The polynomial functions (NumPy's lib/_polynomial_impl): polyval,
polyadd, polysub, polymul, polydiv, polyder, polyint, polyfit, roots,
poly."""

import functools
import importlib
import importlib.machinery
import sys

import numpy as _np

from . import _convert as C
from . import _fallback as F
from ._twodim_base import vander


def _nt():
    return sys.modules['ndtile']


# ---- polynomials (numpy.polyval and friends on coefficient arrays) -----------


def _keeps_poly1d(nargs):
    """NumPy's rule for these functions: a poly1d among the first nargs
    arguments makes each result a poly1d (of NumPy coefficients)."""
    def deco(f):
        def wrapper(*args, **kwargs):
            r = f(*args, **kwargs)
            if not any(isinstance(a, _np.poly1d) for a in args[:nargs]):
                return r

            def p1(v):
                return _np.poly1d(C.to_numpy(v) if isinstance(v, C.Array) else v)
            return tuple(p1(v) for v in r) if isinstance(r, tuple) else p1(r)
        wrapper.__name__, wrapper.__qualname__ = f.__name__, f.__qualname__
        wrapper.__doc__, wrapper.__wrapped__ = f.__doc__, f
        return wrapper
    return deco


def polyval(p, x):
    nt = _nt()
    p = nt.asarray(p)
    x = nt.asanyarray(x)
    y = nt.zeros_like(x)
    for pv in p:        # (NumPy's loop: a 0-d p is iteration's TypeError)
        y = y * x + pv
    return y


@_keeps_poly1d(2)
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


@_keeps_poly1d(2)
def polysub(a1, a2):
    nt = _nt()
    return polyadd(a1, nt.negative(nt.atleast_1d(a2)))


@_keeps_poly1d(1)
def polyder(p, m=1):
    nt = _nt()
    m = int(m)          # (NumPy's: a float order is truncated)
    if m < 0:
        raise ValueError("Order of derivative must be positive (see polyint)")
    p = nt.asarray(p)
    n = len(p) - 1      # (a 0-d p: len()'s TypeError, as NumPy's)
    y = p[:-1] * nt.arange(n, 0, -1)
    return y if m == 1 else (p if m == 0 else polyder(y, m - 1))


@_keeps_poly1d(1)
def polyint(p, m=1, k=None):
    nt = _nt()
    m = int(m)          # (NumPy's: a float order is truncated)
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
    # NumPy's p / arange(len(p), 0, -1) (len(): a 0-d p is its TypeError)
    # and the constant as an array of its own dtype (a complex k too)
    y = nt.concatenate((nt.true_divide(p, nt.arange(len(p), 0, -1)), nt.asarray([k[0]])))
    return polyint(y, m - 1, k=k[1:])


# ---- polynomials on coefficient arrays --------------------------------------


@_keeps_poly1d(2)
def polymul(a1, a2):
    nt = _nt()

    def coeffs(a):
        # NumPy makes each a poly1d: 1-d, leading zeros trimmed, [0] if none left
        a = nt.atleast_1d(a)
        if a.ndim > 1:
            raise ValueError("Polynomial must be 1d only.")
        a = nt.trim_zeros(a, trim='f')
        return a if a.size else nt.zeros(1, a.dtype)
    return nt.convolve(coeffs(a1), coeffs(a2))


def polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):
    """NumPy's polyfit: least squares on the scaled Vandermonde matrix."""
    nt = _nt()
    order = int(deg) + 1     # (NumPy's)
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
        F.warn("Polyfit may be poorly conditioned", _np.exceptions.RankWarning)
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


@_keeps_poly1d(2)
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


# ---- roots of polynomials (companion-matrix eigenvalues) ---------------------


def _dispatched_whole(x):
    """NumPy's roots and poly dispatch on their argument itself, which
    must be iterable: a scalar or 0-d array is the dispatcher's TypeError."""
    try:
        iter(x)
    except TypeError:
        raise TypeError("dispatcher for __array_function__ did not return an iterable") from None


def roots(p):
    nt = _nt()
    _dispatched_whole(p)
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
    _dispatched_whole(seq_of_zeros)
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
        # NumPy's test: the roots, sorted, equal their sorted conjugates (the
        # positive and negative halves compared in sorted order missed
        # [1j, 2j, -2j, -1j])
        zh = _np.asarray(C.to_numpy(z), complex)
        if _np.all(_np.sort(zh) == _np.sort(zh.conjugate())):
            a = a.real.copy()
    return a


# ---- numpy.polynomial (NumPy's own module) on ndtile's arrays ----------------
# `ndtile.polynomial` is NumPy's package itself (the import hook in
# __init__; NumPy's name for it is adapted too, numpy_polynomial_spec). Its
# evaluation functions ask `isinstance(x, np.ndarray)` of the points x to
# reshape the coefficients for tensor=True (and polyvalfromroots to check
# shapes); an ndtile array is no NumPy array, so `polyval(x, c2d)`
# broadcast instead of taking the outer product: a wrong shape and wrong
# values, silently. Those functions get NumPy copies of ndtile arguments
# (NumPy's own computation, NumPy's bits) and give an ndtile array back, as
# does the val2d/val3d family built on them (whose points NumPy makes NumPy
# arrays, with ndtile coefficients). For other arguments the wrapper calls
# NumPy's function unchanged, so NumPy's programs in the same process see
# no difference.
_NUMPY_POINT_FUNCTIONS = (('polynomial', 'polyval'), ('polynomial', 'polyvalfromroots'),
                          ('chebyshev', 'chebval'), ('legendre', 'legval'),
                          ('laguerre', 'lagval'), ('hermite', 'hermval'),
                          ('hermite_e', 'hermeval'))


def _on_numpy_arrays(f, args, kwargs):
    """f(*args, **kwargs) with NumPy copies of the ndtile arrays among the
    arguments (NumPy's computation, NumPy's bits), an array result as an
    ndtile array where there were any (a scalar stays NumPy's, as for 0-d
    NumPy arrays); f itself, unchanged, where there were none."""
    nd = _nt().ndarray
    if not any(isinstance(a, nd) for a in args) and \
            not any(isinstance(v, nd) for v in kwargs.values()):
        return f(*args, **kwargs)
    r = f(*(_np.asarray(a) if isinstance(a, nd) else a for a in args),
          **{k: _np.asarray(v) if isinstance(v, nd) else v for k, v in kwargs.items()})
    return _nt().asarray(r) if isinstance(r, _np.ndarray) else r


def _points_as_numpy(f):
    """An evaluation function (polyval(x, c), ...) of ndtile arguments."""
    @functools.wraps(f)
    def evaluate(*args, **kwargs):
        return _on_numpy_arrays(f, args, kwargs)
    evaluate._ndtile_points = True
    return evaluate


def _call_points_as_numpy(call):
    """ABCPolyBase.__call__ (Polynomial(c)(x), Chebyshev's, ...) of ndtile
    points: NumPy's mapdomain made a NumPy array of them (np.asanyarray), so
    the values came back as a NumPy array."""
    @functools.wraps(call)
    def __call__(self, arg):
        return _on_numpy_arrays(call, (self, arg), {})
    __call__._ndtile_points = True
    return __call__


def adapt_numpy_polynomial():
    """Make numpy.polynomial's evaluation functions, and its classes' calls,
    take ndtile arrays as points (once; called where ndtile hands out
    numpy.polynomial)."""
    for sub, name in _NUMPY_POINT_FUNCTIONS:
        mod = importlib.import_module('numpy.polynomial.' + sub)
        f = getattr(mod, name)
        if not getattr(f, '_ndtile_points', False):
            setattr(mod, name, _points_as_numpy(f))
    base = importlib.import_module('numpy.polynomial._polybase').ABCPolyBase
    if not getattr(base.__call__, '_ndtile_points', False):
        base.__call__ = _call_points_as_numpy(base.__call__)


class _AdaptAfterLoading:
    """The loader of NumPy's numpy.polynomial package imported by NumPy's
    name (`import numpy.polynomial.chebyshev as C`) in a process that has
    imported ndtile: NumPy's own loader, then adapt_numpy_polynomial, so
    that NumPy's name for a function is the adapted one as ndtile's is
    (chebgrid2d(x, y, c) of ndtile points broadcast, silently)."""

    def __init__(self, loader):
        self.loader = loader

    def create_module(self, spec):
        return self.loader.create_module(spec)

    def exec_module(self, module):
        module.__loader__ = module.__spec__.loader = self.loader
        self.loader.exec_module(module)
        adapt_numpy_polynomial()


def numpy_polynomial_spec(fullname, path):
    """ndtile's import hook for NumPy's numpy.polynomial (fullname): its
    spec, loaded by _AdaptAfterLoading; None for any other module."""
    if fullname != 'numpy.polynomial':
        return None
    spec = importlib.machinery.PathFinder.find_spec(fullname, path)
    if spec is not None and spec.loader is not None:
        spec.loader = _AdaptAfterLoading(spec.loader)
    return spec
