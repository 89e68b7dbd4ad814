"""ndtile.linalg: numpy.linalg's interface.

The factorisations (solve, inv, cholesky, det, slogdet, qr, svd, svdvals,
eigh, eigvalsh, eig, eigvals, lstsq) run in the core through LAPACK
(src/ops/linalg.c): a stack of matrices runs in parallel, one task per block
of matrices; a single matrix is one task. matrix_power, pinv, matrix_rank,
multi_dot, cond, tensorsolve, tensorinv and the matrix norms (norm over two
axes, matrix_norm) are composed from those and ndtile's matmul, reductions
and ufuncs; vector norms run in ndtile. Anything else runs NumPy's version
on gathered data (with a fallback warning) and returns ndtile arrays.
Matrices with a zero extent have nothing to compute: NumPy's function is
applied to the empty data for its shapes and identities.

Functions that can fail (singular matrix, not positive definite, no
convergence) wait for their result so that numpy.linalg.LinAlgError is raised
by the call itself, as in NumPy.
"""
import functools as _functools
import inspect as _inspect
import operator as _operator

import numpy as _np
from numpy.lib.array_utils import normalize_axis_index as _normalize_axis_index
from numpy.linalg._linalg import (EigResult, EighResult, QRResult, SlogdetResult,
                                  SVDResult)

from .. import _core
from .. import _convert as _C
from .. import _fallback as _F
from .. import _dtypes as _D
from .. import _fromnumeric
from .. import _methods
from .. import _multiarray
from .. import _numeric
from .. import _stride_tricks
from .. import _twodim_base
from .. import _umath

LinAlgError = _np.linalg.LinAlgError
_NATIVE = ('norm', 'vector_norm', 'solve', 'inv', 'cholesky', 'det', 'slogdet', 'qr',
           'svd', 'svdvals', 'eigh', 'eigvalsh', 'eig', 'eigvals', 'lstsq', 'matrix_power',
           'pinv', 'matrix_rank', 'multi_dot', 'cond', 'matrix_norm', 'tensorinv',
           'tensorsolve', 'matmul', 'matrix_transpose', 'outer', 'cross', 'diagonal',
           'tensordot', 'trace', 'vecdot')

# ndt_linalg_op
_SOLVE, _INV, _CHOLESKY, _DET, _SLOGDET, _QR, _SVD, _EIGH, _EIG, _LSTSQ = range(10)


def _arrays(*xs):
    """The operands as ndtile arrays, or None when one cannot be (a dtype
    the core lacks: NumPy decides, through the fallback)."""
    out = []
    for x in xs:
        a = _C.asarray(x)
        if not isinstance(a, _core.Array):
            return None
        out.append(a)
    return out


def _fallback(name, args, kwargs=None):
    return _F.call('linalg.' + name, getattr(_np.linalg, name), args, kwargs or {})


def _empty_core(*arrays):
    return any(a.ndim >= 2 and 0 in a.shape[-2:] for a in arrays)


def _via_numpy(name, arrays, *rest, **kw):
    """Matrices with a zero extent: nothing to compute, so NumPy's own rules
    (shapes, identities, errors) are applied to the (empty) data."""
    args = [_C.to_numpy(a) for a in arrays]
    return _C.from_np_tree(getattr(_np.linalg, name)(*args, *rest, **kw))


def _run(op, a, b=None, flags=0, param=0.0, wait=True):
    r = _core.linalg(op, a, b, flags, float(param))
    if wait:
        _core.sync()   # a LAPACK failure raises here, at the call, as in NumPy
    return r


def _scalar(r):
    return r._scalar() if r.ndim == 0 else r


def _assert_stacked_2d(a):
    if a.ndim < 2:
        raise LinAlgError('%d-dimensional array given. Array must be at least '
                          'two-dimensional' % a.ndim)


def _assert_stacked_square(a):
    if a.shape[-1] != a.shape[-2]:
        raise LinAlgError('Last 2 dimensions of the array must be square')


def _one_matrix(name, a, square=True, **kw):
    """(A, None) with A the operand of a one-matrix function as an ndtile
    array, checked as NumPy checks it; or (None, result) where the core has
    nothing to do: a dtype the core lacks (the fallback) or a matrix with a
    zero extent (NumPy on the empty data). kw: the function's keywords."""
    xs = _arrays(a)
    if xs is None:
        return None, _fallback(name, (a,), kw)
    A, = xs
    _assert_stacked_2d(A)
    if square:
        _assert_stacked_square(A)
    if _empty_core(A):
        return None, _via_numpy(name, (A,), **kw)
    return A, None


def _uplo(UPLO):
    UPLO = UPLO.upper()
    if UPLO not in ('L', 'U'):
        raise ValueError("UPLO argument must be 'L' or 'U'")
    return UPLO


# ---- solving and inverting ------------------------------------------------
def solve(a, b):
    xs = _arrays(a, b)
    if xs is None:
        return _fallback('solve', (a, b))
    A, B = xs
    _assert_stacked_2d(A)
    _assert_stacked_square(A)
    n = A.shape[-1]
    if B.ndim == 1:
        if B.shape[0] != n:
            raise ValueError('solve1: Input operand 1 has a mismatch in its core dimension 0, '
                             'with gufunc signature (m,m),(m)->(m) (size %d is different from '
                             '%d)' % (B.shape[0], n))
    elif B.ndim == 0:
        raise ValueError('solve: Input operand 1 does not have enough dimensions (has 0, '
                         'gufunc core with signature (m,m),(m,n)->(m,n) requires 2)')
    elif B.shape[-2] != n:
        raise ValueError('solve: Input operand 1 has a mismatch in its core dimension 0, with '
                         'gufunc signature (m,m),(m,n)->(m,n) (size %d is different from %d)'
                         % (B.shape[-2], n))
    if _empty_core(A) or (B.ndim >= 2 and B.shape[-1] == 0):
        return _via_numpy('solve', (A, B))
    if B.ndim == 1:
        x, = _run(_SOLVE, A, B._reshape((n, 1)))
        return x._reshape(x.shape[:-1])
    x, = _run(_SOLVE, A, B)
    return x


def inv(a):
    A, r = _one_matrix('inv', a)
    if A is None:
        return r
    return _run(_INV, A)[0]


def cholesky(a, /, *, upper=False):
    A, r = _one_matrix('cholesky', a, upper=upper)
    if A is None:
        return r
    return _run(_CHOLESKY, A, flags=1 if upper else 0)[0]


def det(a):
    A, r = _one_matrix('det', a)
    if A is None:
        return r
    return _scalar(_run(_DET, A, wait=False)[0])


def slogdet(a):
    A, r = _one_matrix('slogdet', a)
    if A is None:
        return r
    sign, logdet = _run(_SLOGDET, A, wait=False)
    return SlogdetResult(_scalar(sign), _scalar(logdet))


def matrix_power(a, n):
    xs = _arrays(a)
    if xs is None:
        return _fallback('matrix_power', (a, n))
    A, = xs
    _assert_stacked_2d(A)
    _assert_stacked_square(A)
    try:
        n = _operator.index(n)
    except TypeError as e:
        raise TypeError("exponent must be an integer") from e
    if n == 0:
        eye = _twodim_base.eye(A.shape[-1], dtype=A.dtype)
        return _broadcast_copy(eye, A.shape)
    if n < 0:
        A = inv(A)
        n = -n
    if n == 1:
        return A
    z = result = None
    while n > 0:
        z = A if z is None else _matmul(z, z)
        n, bit = divmod(n, 2)
        if bit:
            result = z if result is None else _matmul(result, z)
    return result


def _broadcast_copy(x, shape):
    return _multiarray.array(_stride_tricks.broadcast_to(x, shape))


def _matmul(x, y):
    return _umath.UFUNCS['matmul'](x, y)


def _mT(x):
    return x.swapaxes(-1, -2)


# ---- factorisations -------------------------------------------------------
def qr(a, mode='reduced'):
    if mode not in ('reduced', 'complete', 'r', 'raw'):
        if mode in ('f', 'full', 'e', 'economic'):
            return _fallback('qr', (a,), {'mode': mode})
        raise ValueError(f"Unrecognized mode '{mode}'")
    A, r = _one_matrix('qr', a, square=False, mode=mode)
    if A is None:
        return r
    r = _run(_QR, A, flags=('reduced', 'complete', 'r', 'raw').index(mode), wait=False)
    if mode == 'r':
        return r[0]
    if mode == 'raw':
        return r[0], r[1]
    return QRResult(r[0], r[1])


def svd(a, full_matrices=True, compute_uv=True, hermitian=False):
    A, r = _one_matrix('svd', a, square=hermitian, full_matrices=full_matrices,
                       compute_uv=compute_uv, hermitian=hermitian)
    if A is None:
        return r
    flags = (1 if compute_uv else 0) | (2 if full_matrices else 0) | (4 if hermitian else 0)
    r = _run(_SVD, A, flags=flags)
    if compute_uv:
        return SVDResult(*r)
    return r[0]


def svdvals(x, /):
    return svd(x, compute_uv=False, hermitian=False)


def eigh(a, UPLO='L'):
    UPLO = _uplo(UPLO)
    A, r = _one_matrix('eigh', a, UPLO=UPLO)
    if A is None:
        return r
    w, v = _run(_EIGH, A, flags=1 | (2 if UPLO == 'U' else 0))
    return EighResult(w, v)


def eigvalsh(a, UPLO='L'):
    UPLO = _uplo(UPLO)
    A, r = _one_matrix('eigvalsh', a, UPLO=UPLO)
    if A is None:
        return r
    return _run(_EIGH, A, flags=2 if UPLO == 'U' else 0)[0]


def _eig(name, a, vecs):
    A, r = _one_matrix(name, a)
    if A is None:
        return r
    r = _run(_EIG, A, flags=1 if vecs else 0)
    if _D.KIND[A._dt] != 'c' and not bool((r[0].imag != 0).any()):
        # real input with only real eigenvalues: real results, as NumPy
        r = tuple(x.real.copy() for x in r)
    return EigResult(*r) if vecs else r[0]


def eig(a):
    return _eig('eig', a, True)


def eigvals(a):
    return _eig('eigvals', a, False)


def lstsq(a, b, rcond=None):
    xs = _arrays(a, b)
    if xs is None:
        return _fallback('lstsq', (a, b), {'rcond': rcond})
    A, B = xs
    is_1d = B.ndim == 1
    if is_1d:
        B = B._reshape((B.shape[0], 1))
    for x in (A, B):
        if x.ndim != 2:
            raise LinAlgError('%d-dimensional array given. Array must be two-dimensional'
                              % x.ndim)
    m, n = A.shape
    if B.shape[0] != m:
        raise LinAlgError('Incompatible dimensions')
    if m == 0 or n == 0:
        return _via_numpy('lstsq', (A, B[:, 0] if is_1d else B), rcond=rcond)
    if rcond is None:
        rcond = _np.finfo(_np.float64).eps * max(n, m)
    x, resids, rank, s = _run(_LSTSQ, A, B, param=rcond)
    if is_1d:
        x = x._reshape((n,))
    rank = int(rank)
    if rank != n or m <= n:
        resids = _multiarray.empty((0,), dtype=resids.dtype)
    return x, resids, _np.int32(rank), s


# ---- composed -------------------------------------------------------------
def pinv(a, rcond=None, hermitian=False, *, rtol=_np._NoValue):
    xs = _arrays(a)
    if xs is None:
        return _fallback('pinv', (a,), {'rcond': rcond, 'hermitian': hermitian, 'rtol': rtol})
    A, = xs
    if rcond is None:
        if rtol is _np._NoValue:
            rcond = 1e-15
        elif rtol is None:
            rcond = max(A.shape[-2:]) * _np.finfo(A.dtype if _D.KIND[A._dt] in 'fc'
                                                  else _np.float64).eps
        else:
            rcond = rtol
    elif rtol is not _np._NoValue:
        raise ValueError("`rtol` and `rcond` can't be both set.")
    _assert_stacked_2d(A)
    if _empty_core(A):
        return _via_numpy('pinv', (A,), rcond=_C.to_numpy(_C.asarray(rcond)),
                          hermitian=hermitian)
    if _D.KIND[A._dt] == 'c':
        A = A.conj()
    u, s, vt = svd(A, full_matrices=False, hermitian=hermitian)
    rc = _multiarray.asarray(rcond)
    cutoff = rc[..., None] * _fromnumeric.max(s, axis=-1, keepdims=True)
    large = s > cutoff
    sinv = _multiarray.where(large, 1 / _multiarray.where(large, s, 1), 0).astype(s.dtype)
    return _umath.UFUNCS['matmul'](_mT(vt), sinv[..., None] * _mT(u))


def matrix_rank(A, tol=None, hermitian=False, *, rtol=None):
    if rtol is not None and tol is not None:
        raise ValueError("`tol` and `rtol` can't be both set.")
    xs = _arrays(A)
    if xs is None:
        return _fallback('matrix_rank', (A,), {'tol': tol, 'hermitian': hermitian,
                                               'rtol': rtol})
    M, = xs
    if M.ndim < 2:
        return int(not bool((M == 0).all()))
    if _empty_core(M):
        return _via_numpy('matrix_rank', (M,), tol=tol, hermitian=hermitian, rtol=rtol)
    S = svd(M, compute_uv=False, hermitian=hermitian)
    if tol is None:
        if rtol is None:
            rtol = max(M.shape[-2:]) * _np.finfo(S.dtype).eps
        else:
            rtol = _multiarray.asarray(rtol)[..., None]
        tol = _fromnumeric.max(S, axis=-1, keepdims=True) * rtol
    else:
        tol = _multiarray.asarray(tol)[..., None]
    return _numeric.count_nonzero(S > tol, axis=-1)


def cond(x, p=None):
    xs = _arrays(x)
    if xs is None or p not in (None, 2, -2):
        return _fallback('cond', (x,), {'p': p})
    X, = xs
    _assert_stacked_2d(X)
    if _empty_core(X):
        return _via_numpy('cond', (X,), p)
    s = svd(X, compute_uv=False)
    with _np.errstate(all='ignore'):
        if p == -2:
            r = s[..., -1] / s[..., 0]
        else:
            r = s[..., 0] / s[..., -1]
    # NumPy: a singular matrix (0/0 above) has condition number inf; a NaN
    # stays only where the matrix itself holds a NaN
    isnan = _umath.UFUNCS['isnan']
    r = _multiarray.where(isnan(r) & ~_fromnumeric.any(isnan(X), axis=(-2, -1)),
                          _np.inf, r).astype(r.dtype)
    return r._scalar() if isinstance(r, _core.Array) and r.ndim == 0 else r


def multi_dot(arrays, *, out=None):
    arrs = [_C.asarray(x) for x in arrays]
    n = len(arrs)
    if n < 2:
        raise ValueError("Expecting at least two arrays.")
    if out is not None or any(not isinstance(x, _core.Array) for x in arrs):
        return _fallback('multi_dot', (arrays,), {'out': out})
    if n == 2:
        return _multiarray.dot(arrs[0], arrs[1])
    first, last = arrs[0], arrs[-1]
    if first.ndim == 1:
        arrs[0] = first._reshape((1, first.shape[0]))
    if last.ndim == 1:
        arrs[-1] = last._reshape((last.shape[0], 1))
    for x in arrs:
        if x.ndim != 2:
            raise LinAlgError('%d-dimensional array given. Array must be two-dimensional'
                              % x.ndim)
    # NumPy's matrix-chain order (Cormen's dynamic programme)
    dims = [x.shape[0] for x in arrs] + [arrs[-1].shape[1]]
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for ln in range(1, n):
        for i in range(n - ln):
            j = i + ln
            cost[i][j] = None
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]
                if cost[i][j] is None or c < cost[i][j]:
                    cost[i][j] = c
                    split[i][j] = k

    def chain(i, j):
        if i == j:
            return arrs[i]
        k = split[i][j]
        return _multiarray.dot(chain(i, k), chain(k + 1, j))

    r = chain(0, n - 1)
    if first.ndim == 1 and last.ndim == 1:
        return r[0, 0]
    if first.ndim == 1:
        return r._reshape(r.shape[1:])
    if last.ndim == 1:
        return r._reshape(r.shape[:-1])
    return r


def tensorinv(a, ind=2):
    xs = _arrays(a)
    if xs is None:
        return _fallback('tensorinv', (a,), {'ind': ind})
    A, = xs
    oldshape = A.shape
    if ind <= 0:
        raise ValueError("Invalid ind argument.")
    invshape = oldshape[ind:] + oldshape[:ind]
    prod = 1
    for k in oldshape[ind:]:
        prod *= k
    return inv(A.reshape(prod, -1)).reshape(*invshape)


def tensorsolve(a, b, axes=None):
    xs = _arrays(a, b)
    if xs is None:
        return _fallback('tensorsolve', (a, b), {'axes': axes})
    A, B = xs
    an = A.ndim
    if axes is not None:
        allaxes = list(range(an))
        for k in axes:
            allaxes.remove(k)
            allaxes.insert(an, k)
        A = A.transpose(allaxes)
    oldshape = A.shape[-(an - B.ndim):]
    prod = 1
    for k in oldshape:
        prod *= k
    if A.size != prod ** 2:
        raise LinAlgError("Input arrays must satisfy the requirement "
                          "prod(a.shape[b.ndim:]) == prod(a.shape[:b.ndim])")
    return solve(A.reshape(prod, prod), B.ravel()).reshape(oldshape)


def matmul(x1, x2, /):
    return _umath.UFUNCS['matmul'](x1, x2)


def matrix_transpose(x, /):
    return _fromnumeric.matrix_transpose(x)


def outer(x1, x2, /):
    a, b = _C.asarray(x1), _C.asarray(x2)
    if a.ndim != 1 or b.ndim != 1:
        raise ValueError("Input arrays must be one-dimensional, but they are "
                         f"x1.ndim={a.ndim} and x2.ndim={b.ndim}.")
    return _numeric.outer(a, b)


def cross(x1, x2, /, *, axis=-1):
    a, b = _C.asarray(x1), _C.asarray(x2)
    if a.shape[axis] != 3 or b.shape[axis] != 3:
        raise ValueError("Both input arrays must be (arrays of) 3-dimensional vectors, but "
                         f"they are {a.shape[axis]} and {b.shape[axis]} dimensional instead.")
    return _numeric.cross(a, b, axis=axis)


def diagonal(x, /, *, offset=0):
    return _fromnumeric.diagonal(x, offset=offset, axis1=-2, axis2=-1)


def tensordot(x1, x2, /, *, axes=2):
    return _numeric.tensordot(x1, x2, axes=axes)


def trace(x, /, *, offset=0, dtype=None):
    return _fromnumeric.trace(x, offset=offset, axis1=-2, axis2=-1, dtype=dtype)


def vecdot(x1, x2, /, *, axis=-1):
    return _umath.UFUNCS['vecdot'](x1, x2, axis=axis)


# ---- norms ----------------------------------------------------------------
def _matrix_norm(a, ord, axis, keepdims):
    """NumPy's norm over two axes (row_axis, col_axis)."""
    nd = a.ndim
    row_axis, col_axis = axis
    row_axis = _normalize_axis_index(row_axis, nd)
    col_axis = _normalize_axis_index(col_axis, nd)
    if row_axis == col_axis:
        raise ValueError('Duplicate axes given.')
    if _D.KIND[a._dt] not in 'fc':
        a = a._astype(_D.FLOAT64, _core.CASTING_UNSAFE)
    if ord in (2, -2, 'nuc'):
        sv = svd(_numeric.moveaxis(a, (row_axis, col_axis), (-2, -1)), compute_uv=False)
        op = {2: _fromnumeric.max, -2: _fromnumeric.min, 'nuc': _fromnumeric.sum}[ord]
        r = op(sv, axis=-1)
    elif ord in (1, -1, _np.inf, -_np.inf):
        if ord in (1, -1):
            sum_axis, red_axis = row_axis, col_axis
        else:
            sum_axis, red_axis = col_axis, row_axis
        if red_axis > sum_axis:
            red_axis -= 1
        op = _fromnumeric.max if ord in (1, _np.inf) else _fromnumeric.min
        r = op(_fromnumeric.sum(_umath.UFUNCS['abs'](a), axis=sum_axis), axis=red_axis)
    elif ord in (None, 'fro', 'f'):
        absx = _umath.UFUNCS['abs'](a)
        r = _umath.UFUNCS['sqrt'](_fromnumeric.sum(absx * absx, axis=(row_axis, col_axis)))
    else:
        raise ValueError("Invalid norm order for matrices.")
    r = _C.asarray(r)
    if keepdims:
        shape = list(a.shape)
        shape[row_axis] = 1
        shape[col_axis] = 1
        r = r.reshape(shape)
    return _scalar(r) if isinstance(r, _core.Array) else r


def matrix_norm(x, /, *, keepdims=False, ord='fro'):
    a = _C.asarray(x)
    if not isinstance(a, _core.Array):
        return _fallback('matrix_norm', (x,), {'keepdims': keepdims, 'ord': ord})
    return norm(a, axis=(-2, -1), keepdims=keepdims, ord=ord)


def norm(x, ord=None, axis=None, keepdims=False):
    a = _C.asarray(x)
    if isinstance(a, _core.Array) and a.size == 0:
        # NumPy's answers for empty input depend on ord and shape (0.0, inf,
        # or its errors): NumPy gives them, on no data
        return _F.call('linalg.norm (empty)', _np.linalg.norm, (_np.asarray(a),),
                       {'ord': ord, 'axis': axis, 'keepdims': keepdims})
    if axis is not None and not isinstance(axis, tuple):
        try:
            axis = int(axis)     # as NumPy does: a bool or a 0-d array is an int
        except Exception as e:
            raise TypeError("'axis' must be None, an integer or a tuple of integers") from e
    if isinstance(a, _core.Array):
        if isinstance(axis, tuple) and len(axis) == 2 and \
                all(isinstance(k, (int, _np.integer)) for k in axis):
            return _matrix_norm(a, ord, axis, keepdims)
        if axis is None and a.ndim == 2 and ord is not None and ord != 'fro':
            return _matrix_norm(a, ord, (0, 1), keepdims)
    # a vector's p-norm of any real order p (a Python or NumPy int or float)
    p_ord = isinstance(ord, (int, float, _np.integer, _np.floating)) and (
        (axis is None and isinstance(a, _core.Array) and a.ndim == 1) or isinstance(axis, int))
    if not isinstance(a, _core.Array) or not (
            (axis is None and (ord is None or (ord == 'fro' and a.ndim == 2) or
                               (a.ndim == 1 and ord in (1, 2, _np.inf, -_np.inf)))) or
            (isinstance(axis, int) and ord in (None, 1, 2, _np.inf, -_np.inf)) or p_ord):
        return _F.call('linalg.norm', _np.linalg.norm, (x,),
                       {'ord': ord, 'axis': axis, 'keepdims': keepdims})
    if _D.KIND[a._dt] not in 'fc':
        a = a._astype(_D.FLOAT64, _core.CASTING_UNSAFE)
    # (arrays, 0-d ones too: the ufuncs' out=...)
    absx = _umath.UFUNCS['absolute']._arrays(a)
    if ord in (None, 2, 'fro'):
        mul = _umath.UFUNCS['multiply']._arrays
        sq = mul(absx, absx) if _D.KIND[a._dt] == 'c' else mul(a, a)
        r = _umath.UFUNCS['sqrt']._arrays(_methods.reduce_nd('sum', sq, axis, _D.DEFAULT,
                                                             keepdims))
    elif ord == 1:
        r = _methods.reduce_nd('sum', absx, axis, _D.DEFAULT, keepdims)
    elif ord == _np.inf:
        r = _methods.reduce_nd('max', absx, axis, _D.DEFAULT, keepdims)
    elif ord == -_np.inf:
        r = _methods.reduce_nd('min', absx, axis, _D.DEFAULT, keepdims)
    elif ord == 0:
        # NumPy's: the count of nonzero elements, in the real dtype
        nz = _umath.UFUNCS['not_equal']._arrays(a, 0)._astype(absx._dt, _core.CASTING_UNSAFE)
        r = _methods.reduce_nd('sum', nz, axis, _D.DEFAULT, keepdims)
    else:
        # NumPy's: (sum |x|**p) ** (1/p), the power in |x|'s dtype and the
        # root by 1/p in the sum's; NumPy's `**=` operators (their fast
        # scalar powers: -1 a reciprocal, 0.5 a sqrt, 2 a square, with
        # those functions' warnings)
        p = absx ** ord
        if not isinstance(p, _core.Array):      # (of a 0-d absx: NumPy's scalar)
            p = _C.asnd(p)
        if p._dt != absx._dt:   # NumPy's absx **= ord: an np.int64 order in absx's dtype
            p = p._astype(absx._dt, _core.CASTING_UNSAFE)
        s = _methods.reduce_nd('sum', p, axis, _D.DEFAULT, keepdims)
        if s.ndim == 0:
            s = s._scalar()     # NumPy's root of its scalar sum (its warnings)
        r = s ** _np.reciprocal(ord, dtype=s.dtype)
        if not isinstance(r, _core.Array):
            return r
    if axis is None and keepdims:
        r = r._reshape((1,) * a.ndim)
    return _methods.finish(r, None)


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    a = _C.asarray(x)
    if axis is None and isinstance(a, _core.Array) and ord in (2, 1, _np.inf, -_np.inf):
        r = norm(a._reshape((-1,)), ord=ord)
        if keepdims:
            return _numeric.full((1,) * a.ndim, r)
        return r
    return _F.call('linalg.vector_norm', _np.linalg.vector_norm, (x,),
                   {'axis': axis, 'keepdims': keepdims, 'ord': ord})


# ---- subclass operands ----------------------------------------------------
def _subclass_results(f, operand, wrap_fields):
    """f, with NumPy's treatment of an operand that is an ndarray subclass
    instance: some results go through its __array_wrap__ (its class).
    wrap_fields(r, wrap) rewraps f's result r."""
    sig = _inspect.signature(f)

    @_functools.wraps(f)
    def g(*args, **kwargs):
        r = f(*args, **kwargs)
        src = sig.bind(*args, **kwargs).arguments.get(operand)
        if type(src) is _C.ND or not isinstance(src, _core.Array):
            return r

        def wrap(x):      # NumPy wraps a plain result
            if not isinstance(x, _core.Array):
                return x
            return src.__array_wrap__(x if type(x) is _C.ND else x._view())
        return wrap_fields(r, wrap)
    return g


def _wrap_all(r, wrap):
    return wrap(r)


def _wrap_qr(r, wrap):
    if isinstance(r, QRResult):
        return QRResult(wrap(r.Q), wrap(r.R))
    return (wrap(r[0]), r[1]) if isinstance(r, tuple) else wrap(r)   # raw: h, not tau


solve = _subclass_results(solve, 'b', _wrap_all)
tensorsolve = _subclass_results(tensorsolve, 'a', _wrap_all)
inv = _subclass_results(inv, 'a', _wrap_all)
cholesky = _subclass_results(cholesky, 'a', _wrap_all)
pinv = _subclass_results(pinv, 'a', _wrap_all)
qr = _subclass_results(qr, 'a', _wrap_qr)
eig = _subclass_results(eig, 'a', lambda r, w: EigResult(r[0], w(r[1])))
eigh = _subclass_results(eigh, 'a', lambda r, w: EighResult(r[0], w(r[1])))
svd = _subclass_results(svd, 'a', lambda r, w: SVDResult(w(r[0]), r[1], w(r[2]))
                        if isinstance(r, tuple) else r)
lstsq = _subclass_results(lstsq, 'b', lambda r, w: (w(r[0]), w(r[1]), r[2], r[3]))


def __getattr__(name):
    return _umath.module_getattr('ndtile.linalg', _np.linalg, name, globals())


def __dir__():
    return sorted(set(globals()) | set(dir(_np.linalg)))
