"""Statistics composed of core operations: nanargmax/nanargmin, nanvar/
nanstd, cov, corrcoef and gradient. Each step is a tiled, parallel core
operation (where, reductions, matmul, slicing), so results have the same
bits for any number of workers or ranks."""
import warnings

import numpy as _np

from . import _core
from . import _dtypes as D
from . import _convert as C
from . import _fallback as F
from . import _reduce as R
from . import _manip as M

Array = _core.Array
_NoValue = _np._NoValue


_u = M._ufn          # a ufunc by name


def _nanarg(name, a, axis, out, keepdims):
    x = C.asarray(a)
    if not isinstance(x, Array):
        return F.call(f"{name} (dtype)", getattr(_np, name), (a,),
                      {'axis': axis, 'out': out, 'keepdims': keepdims})
    base = 'argmax' if name == 'nanargmax' else 'argmin'
    if D.KIND[x._dt] not in 'fc':
        return R._arg(base, x, axis, out, keepdims)
    mask = _u('isnan')(x)
    allnan = R.all(mask, axis=axis)
    if bool(R.any(allnan)):
        raise ValueError("All-NaN slice encountered")
    fill = -_np.inf if base == 'argmax' else _np.inf
    y = _core.apply(_ufunc_where(), [mask, _core.scalar(fill, x._dt, False), x])
    return R._arg(base, y, axis, out, keepdims)


def _ufunc_where():
    from ._ufunc import WHERE
    return WHERE


def nanargmax(a, axis=None, out=None, *, keepdims=False):
    return _nanarg('nanargmax', a, axis, out, keepdims)


def nanargmin(a, axis=None, out=None, *, keepdims=False):
    return _nanarg('nanargmin', a, axis, out, keepdims)


def _nanvar_nd(x, axis, dtype, ddof, keepdims):
    """nanvar as an ndtile array (0-d for a full reduction), in NumPy's
    steps: deviations and squares in the input dtype, sums in `dtype`."""
    k = D.KIND[x._dt]
    sumc = D.DEFAULT if dtype is None else D.code_of(dtype)
    if k not in 'fc':
        return R.reduce_nd('var', x, axis, sumc, keepdims, ddof=ddof)
    mask = _u('isnan')(x)
    W = _ufunc_where()
    zero = _core.scalar(0, x._dt, False)
    x0 = _core.apply(W, [mask, zero, x])
    cnt = R.reduce_nd('sum', _u('logical_not')(mask), axis, D.DEFAULT, True)
    s1 = R.reduce_nd('sum', x0, axis, sumc, True)
    avg = _u('divide')(s1, cnt)
    if avg._dt != s1._dt:
        avg = avg._astype(s1._dt, 4)
    d = _u('subtract')(x, avg)
    if d._dt != x._dt:
        d = d._astype(x._dt, 4)
    d = _core.apply(W, [mask, zero, d])
    if k == 'c':
        sq = _u('add')(_u('multiply')(d._real(), d._real()), _u('multiply')(d._imag(), d._imag()))
    else:
        sq = _u('multiply')(d, d)
    s = R.reduce_nd('sum', sq, axis, sumc, keepdims)
    dof = _u('subtract')(cnt if keepdims else cnt._reshape(s.shape), ddof)
    bad = _u('less_equal')(dof, 0)
    if bool(R.any(bad)):
        warnings.warn("Degrees of freedom <= 0 for slice.", RuntimeWarning,
                      stacklevel=F.user_frame()[0])
    with _np.errstate(invalid='ignore', divide='ignore'):
        v = _u('divide')(s, dof)
    if v._dt != s._dt:
        v = v._astype(s._dt, 4)
    return _core.apply(W, [bad, _core.scalar(_np.nan, v._dt, False), v])


def _nanvarlike(name, a, axis, dtype, out, ddof, keepdims, where, mean, correction):
    if correction is not _NoValue:
        if ddof != 0:
            raise ValueError("ddof and correction can't be provided simultaneously.")
        ddof = correction
    x = C.asarray(a)
    if not isinstance(x, Array) or where is not True or mean is not _NoValue or \
            (dtype is not None and D.code_of(dtype) is None):
        kw = dict(axis=axis, dtype=dtype, out=out, ddof=ddof, keepdims=keepdims)
        if where is not True:
            kw['where'] = where
        if mean is not _NoValue:
            kw['mean'] = mean
        return F.call(f"{name} (where=/mean=/dtype)", getattr(_np, name), (a,), kw)
    if D.KIND[x._dt] not in 'fc':
        # NumPy: no NaN to skip, np.var/np.std (whose dtype= rules differ)
        return getattr(R, name[3:])(x, axis, dtype, out, ddof, keepdims)
    R._nan_dtype_check(dtype, out)
    R.axes_mask(axis, x.ndim, True)   # axis errors first (x is inexact here)
    R.check_out(name, x.shape, axis, keepdims, out)
    R.check_out_cast(name, x, out)
    v = _nanvar_nd(x, axis, dtype, ddof, bool(keepdims))
    if name == 'nanstd':
        v = _u('sqrt')(v)
    return R.finish(v, out)


def nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True,
           mean=_NoValue, correction=_NoValue):
    return _nanvarlike('nanvar', a, axis, dtype, out, ddof, keepdims, where, mean, correction)


def nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True,
           mean=_NoValue, correction=_NoValue):
    return _nanvarlike('nanstd', a, axis, dtype, out, ddof, keepdims, where, mean, correction)


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, *,
        dtype=None):
    """NumPy's cov: centred rows and one matrix product."""
    if ddof is not None and ddof != int(ddof):
        raise ValueError("ddof must be integer")
    x = C.asarray(m)
    yy = C.asarray(y) if y is not None else None
    if not isinstance(x, Array) or (y is not None and not isinstance(yy, Array)):
        return F.call("cov (dtype)", _np.cov, (m, y, rowvar, bias, ddof, fweights, aweights),
                      {'dtype': dtype})
    if x.ndim > 2:
        raise ValueError("m has more than 2 dimensions")
    if yy is not None and yy.ndim > 2:
        raise ValueError("y has more than 2 dimensions")
    if dtype is None:
        dtype = _np.result_type(x.dtype, _np.float64) if yy is None else \
            _np.result_type(x.dtype, yy.dtype, _np.float64)
    X = M.atleast_2d(x).astype(dtype)
    if not rowvar and X.shape[0] != 1:
        X = X.T
    if X.shape[0] == 0:
        return _core.empty((0, 0), D.code(_np.dtype(dtype)))
    if yy is not None:
        Y = M.atleast_2d(yy).astype(dtype)
        if not rowvar and Y.shape[0] != 1:
            Y = Y.T
        X = M.concatenate((X, Y), axis=0)
    if ddof is None:
        ddof = 0 if bias else 1
    w = None
    if fweights is not None:
        fw = C.asnd(fweights)
        if D.KIND[fw._dt] not in 'iub' and not bool(R.all(fw == M.around(fw))):
            raise TypeError("fweights must be integer")
        if fw.ndim > 1:
            raise RuntimeError("cannot handle multidimensional fweights")
        if fw.shape[0] != X.shape[1]:
            raise RuntimeError("incompatible numbers of samples and fweights")
        if bool(R.any(fw < 0)):
            raise ValueError("fweights cannot be negative")
        w = fw.astype(_np.float64)
    if aweights is not None:
        aw = C.asnd(aweights).astype(_np.float64)
        if aw.ndim > 1:
            raise RuntimeError("cannot handle multidimensional aweights")
        if aw.shape[0] != X.shape[1]:
            raise RuntimeError("incompatible numbers of samples and aweights")
        if bool(R.any(aw < 0)):
            raise ValueError("aweights cannot be negative")
        w = aw if w is None else w * aw
    if w is None:
        avg = R.mean(X, axis=1)
        w_sum = None
    else:
        w_sum = R.sum(w)
        if float(w_sum) == 0.0:
            raise ZeroDivisionError("Weights sum to zero, can't be normalized")
        avg = _u('divide')(R.sum(_u('multiply')(X, w), axis=1), w_sum)
        avg = avg.astype(_np.result_type(X.dtype, _np.float64), copy=False)
    if w is None:
        fact = X.shape[1] - ddof
    elif ddof == 0:
        fact = w_sum
    elif aweights is None:
        fact = w_sum - ddof
    else:
        fact = w_sum - ddof * R.sum(w * aw) / w_sum
    if fact <= 0:
        warnings.warn("Degrees of freedom <= 0 for slice", RuntimeWarning,
                      stacklevel=F.user_frame()[0])
        fact = 0.0
    if not _np.can_cast(avg.dtype, X.dtype, 'same_kind'):
        # NumPy's X -= avg[:, None] in place: its casting error (cov(dtype=int))
        _np.subtract(_np.empty(0, X.dtype), _np.empty(0, avg.dtype), out=_np.empty(0, X.dtype))
    X = _u('subtract')(X, avg[:, None])
    X_T = X.T if w is None else _u('multiply')(X, w).T
    if D.KIND[X_T._dt] == 'c':
        X_T = _u('conjugate')(X_T)
    c = _core.dot(X, X_T, None)
    with _np.errstate(divide='ignore', invalid='ignore'):
        c = _u('multiply')(c, float(_np.true_divide(1, fact)))
    c = c.astype(X.dtype, copy=False) if c.dtype != X.dtype else c
    return c._squeeze(None)


def corrcoef(x, y=None, rowvar=True, *, dtype=None):
    # NumPy 2.4 has no bias= or ddof= any more (a TypeError, as here)
    c = cov(x, y, rowvar, dtype=dtype)
    if c.ndim != 2:
        with _np.errstate(divide='ignore', invalid='ignore'):
            r = _u('divide')(c, c)
        return r._scalar() if r.ndim == 0 else r
    d = _core.diagonal(c, 0, 0, 1)
    stddev = _u('sqrt')(d._real() if D.KIND[d._dt] == 'c' else d)
    with _np.errstate(divide='ignore', invalid='ignore'):
        c = _u('divide')(c, stddev[:, None])
        c = _u('divide')(c, stddev[None, :])
    if D.KIND[c._dt] == 'c':
        c._real()._assign(M.clip(c._real(), -1, 1), 4)
        c._imag()._assign(M.clip(c._imag(), -1, 1), 4)
    else:
        c = M.clip(c, -1, 1)
    return c


def gradient(f, *varargs, axis=None, edge_order=1):
    """NumPy's gradient: second-order central differences inside, first or
    second order one-sided differences at the edges; uniform or coordinate
    spacing per axis."""
    x = C.asarray(f)
    if not isinstance(x, Array):
        return F.call("gradient (dtype)", _np.gradient, (f,) + varargs,
                      {'axis': axis, 'edge_order': edge_order})
    N = x.ndim
    if axis is None:
        axes = tuple(range(N))
    else:
        axes = _np.lib.array_utils.normalize_axis_tuple(axis, N)
    len_axes = len(axes)
    n = len(varargs)
    if n == 0:
        dx = [1.0] * len_axes
    elif n == 1 and _np.ndim(C.to_np_tree(varargs[0]) if not isinstance(varargs[0], Array)
                             else varargs[0]) == 0:
        dx = [varargs[0]] * len_axes
    elif n == len_axes:
        dx = list(varargs)
        for i, distances in enumerate(dx):
            dd = C.asnd(distances)
            if dd.ndim == 0:
                continue
            elif dd.ndim != 1:
                raise ValueError("distances must be either scalars or 1d")
            if len(dd) != x.shape[axes[i]]:
                raise ValueError("when 1d, distances must match the length of the "
                                 "corresponding dimension")
            if D.KIND[dd._dt] in 'iub':
                dd = dd.astype(_np.float64)
            diffx = M.diff(dd)
            if diffx.size and bool(R.all(diffx == diffx[0])):
                diffx = diffx[0]
            dx[i] = diffx
    else:
        raise TypeError("invalid number of arguments")
    if edge_order > 2:
        raise ValueError("'edge_order' greater than 2 not supported")
    otype = x.dtype
    if otype.kind in 'iu':
        x = x.astype(_np.float64)
        otype = _np.dtype(_np.float64)
    sub = _u('subtract')
    mul, div, add = _u('multiply'), _u('divide'), _u('add')
    outvals = []
    for ax, ax_dx in zip(axes, dx):
        if x.shape[ax] < edge_order + 1:
            raise ValueError("Shape of array too small to calculate a numerical gradient, "
                             "at least (edge_order + 1) elements are required.")
        out = _core.empty(x.shape, D.code(otype))
        pre = (slice(None),) * ax

        def sl(s):
            return x._view_index(pre + (s,))

        def osl(s):
            return out._view_index(pre + (s,))
        uniform = not isinstance(ax_dx, Array)
        if not uniform:
            shp = (1,) * ax + (-1,) + (1,) * (N - ax - 1)

            def col(arr):
                return arr._reshape(shp)
        # interior
        if uniform:
            osl(slice(1, -1))._assign(div(sub(sl(slice(2, None)), sl(slice(None, -2))),
                                          2. * ax_dx), 4)
        else:
            dx1 = ax_dx[0:-1]
            dx2 = ax_dx[1:]
            a = div(-dx2, mul(dx1, add(dx1, dx2)))
            b = div(sub(dx2, dx1), mul(dx1, dx2))
            c = div(dx1, mul(dx2, add(dx1, dx2)))
            osl(slice(1, -1))._assign(add(add(mul(col(a), sl(slice(None, -2))),
                                              mul(col(b), sl(slice(1, -1)))),
                                          mul(col(c), sl(slice(2, None)))), 4)
        if edge_order == 1:
            d0 = ax_dx if uniform else ax_dx[0]
            osl(slice(0, 1))._assign(div(sub(sl(slice(1, 2)), sl(slice(0, 1))), d0), 4)
            dn = ax_dx if uniform else ax_dx[-1]
            osl(slice(-1, None))._assign(div(sub(sl(slice(-1, None)), sl(slice(-2, -1))),
                                             dn), 4)
        else:
            if uniform:
                a, b, c = -1.5 / ax_dx, 2. / ax_dx, -0.5 / ax_dx
            else:
                dx1 = ax_dx[0]
                dx2 = ax_dx[1]
                a = -(2. * dx1 + dx2) / (dx1 * (dx1 + dx2))
                b = (dx1 + dx2) / (dx1 * dx2)
                c = - dx1 / (dx2 * (dx1 + dx2))
            osl(slice(0, 1))._assign(add(add(mul(a, sl(slice(0, 1))), mul(b, sl(slice(1, 2)))),
                                         mul(c, sl(slice(2, 3)))), 4)
            if uniform:
                a, b, c = 0.5 / ax_dx, -2. / ax_dx, 1.5 / ax_dx
            else:
                dx1 = ax_dx[-2]
                dx2 = ax_dx[-1]
                a = (dx2) / (dx1 * (dx1 + dx2))
                b = - (dx2 + dx1) / (dx1 * dx2)
                c = (2. * dx2 + dx1) / (dx2 * (dx1 + dx2))
            osl(slice(-1, None))._assign(add(add(mul(a, sl(slice(-3, -2))),
                                                 mul(b, sl(slice(-2, -1)))),
                                             mul(c, sl(slice(-1, None)))), 4)
        outvals.append(out)
    if len_axes == 1:
        return outvals[0]
    return tuple(outvals)
