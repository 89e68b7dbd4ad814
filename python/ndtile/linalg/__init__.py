"""ndtile.linalg: numpy.linalg's interface.

norm of vectors (and the Frobenius norm) runs in ndtile; everything else
runs NumPy's version on gathered data (with a fallback warning) and returns
ndtile arrays.
"""
import numpy as _np

from .. import _core
from .. import _convert as _C
from .. import _fallback as _F
from .. import _dtypes as _D

LinAlgError = _np.linalg.LinAlgError
_NATIVE = ('norm', 'vector_norm')


def norm(x, ord=None, axis=None, keepdims=False):
    from .. import _ufunc as U
    from .. import _reduce as R
    a = _C.asarray(x)
    if not isinstance(a, _core.Array) or not (
            (axis is None and (ord is None or (ord == 'fro' and a.ndim == 2) or
                               (a.ndim == 1 and ord in (1, 2, _np.inf, -_np.inf)))) or
            (isinstance(axis, int) and ord in (None, 1, 2, _np.inf, -_np.inf))):
        return _F.call('linalg.norm', _np.linalg.norm, (x,),
                       {'ord': ord, 'axis': axis, 'keepdims': keepdims})
    if _D.KIND[a._dt] not in 'fc':
        a = a._astype(_D.FLOAT64, 4)
    absx = U.UFUNCS['absolute'](a)
    if ord in (None, 2, 'fro'):
        if _D.KIND[a._dt] == 'c':
            sq = absx * absx
        else:
            sq = a * a
        r = U.UFUNCS['sqrt'](R.reduce_nd('sum', sq, axis, _D.DEFAULT, keepdims))
    elif ord == 1:
        r = R.reduce_nd('sum', absx, axis, _D.DEFAULT, keepdims)
    elif ord == _np.inf:
        r = R.reduce_nd('max', absx, axis, _D.DEFAULT, keepdims)
    else:
        r = R.reduce_nd('min', absx, axis, _D.DEFAULT, keepdims)
    if axis is None and keepdims:
        r = r._reshape((1,) * a.ndim)
    return R.finish(r, None)


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    a = _C.asarray(x)
    if axis is None and isinstance(a, _core.Array) and ord in (2, 1, _np.inf, -_np.inf):
        r = norm(a._reshape((-1,)), ord=ord)
        if keepdims:
            from .. import _creation
            return _creation.full((1,) * a.ndim, r)
        return r
    return _F.call('linalg.vector_norm', _np.linalg.vector_norm, (x,),
                   {'axis': axis, 'keepdims': keepdims, 'ord': ord})


def __getattr__(name):
    return _F.module_getattr('ndtile.linalg', _np.linalg, name, globals())


def __dir__():
    return sorted(set(globals()) | set(dir(_np.linalg)))
