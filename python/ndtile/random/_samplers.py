"""The distributions: _Sampler, the methods Generator and RandomState share,
each drawing from the core (_core.rng_*) with NumPy's argument checks and
shapes, or running NumPy's sampler on gathered data seeded from one draw
of ours where the core has none."""

from builtins import bytes as _bytes
import math
import operator
import types
from collections.abc import Sequence as _Sequence

import numpy as _np

from .. import _convert as _C
from .. import _core
from .. import _dtypes as _D
from .. import _fallback as _F
from .._fromnumeric import searchsorted
from .._methods import reduce_nd
from .._multiarray import empty, stack, where
from .._umath import UFUNCS

_WARN_ON_WRITE = 0x80000000     # NumPy's private flag (np.broadcast_arrays results)
from ._bit_generator import _NAME

_Array = _core.Array

_F32, _F64, _I64, _U32 = _D.FLOAT32, _D.FLOAT64, _D.INT64, _D.UINT32
_normalize_axis = _np.lib.array_utils.normalize_axis_index


_UA = {}


def _U():
    """The ufuncs by name, for this module's work: arrays, 0-d ones too
    (out=...), where NumPy's ufuncs give a scalar."""
    if not _UA:
        _UA.update((n, u._arrays) for n, u in UFUNCS.items())
    return _UA


def _shape(size):
    """size as a shape tuple (None stays None); NumPy's errors."""
    if size is None:
        return None
    if isinstance(size, (bool, _np.bool_)):
        raise TypeError(f"expected a sequence of integers or a single integer, got '{size!r}'")
    try:
        shape = (operator.index(size),)
    except TypeError:
        # (a 0-d array is no sequence: NumPy names it by its repr)
        if not hasattr(size, '__iter__') or getattr(size, 'ndim', 1) == 0:
            raise TypeError(f"expected a sequence of integers or a single integer, "
                            f"got '{size!r}'") from None
        if any(isinstance(s, (bool, _np.bool_)) for s in size):
            raise TypeError("an integer is required")
        shape = tuple(operator.index(s) for s in size)
    if any(s < 0 for s in shape):
        raise ValueError("negative dimensions are not allowed")
    return shape


def _float_code(dtype, fn):
    dt = _np.dtype(dtype)
    if dt == _np.float64:
        return _F64
    if dt == _np.float32:
        return _F32
    raise TypeError(f"Unsupported dtype {dt!r} for {fn}")


_ARRAY = object()


def _param(x):
    """(scalar, None) for a scalar or 0-d parameter, (_ARRAY, array) for an
    array one."""
    if isinstance(x, _Array):
        return (x._item(), None) if x.ndim == 0 else (_ARRAY, x)
    if isinstance(x, _np.ndarray):
        return (x.item(), None) if x.ndim == 0 else (_ARRAY, x)
    if isinstance(x, (list, tuple)):
        a = _np.asarray(_C.to_np_tree(x))
        return (a.item(), None) if a.ndim == 0 else (_ARRAY, a)
    return x, None


def _farray(a):
    """An array parameter as a float64 ndtile array (complex is a TypeError
    as in NumPy)."""
    if isinstance(a, _Array):
        if a.dtype.kind == 'c':
            raise TypeError("float() argument must be a string or a real number, not 'complex'")
        return a if a._dt == _F64 else a._astype(_F64, _core.CASTING_UNSAFE)
    a = _np.asarray(a)
    if a.dtype.kind == 'c':
        raise TypeError("float() argument must be a string or a real number, not 'complex'")
    return _C.from_numpy(_np.ascontiguousarray(a, dtype=_np.float64))


def _fparams(*pairs):
    """float64 values: Python floats for scalars, ndtile arrays for arrays;
    and the shapes of the arrays."""
    vals, shapes = [], []
    for v, a in pairs:
        if a is None:
            vals.append(float(v))
        else:
            fa = _farray(a)
            vals.append(fa)
            shapes.append(tuple(fa.shape))
    return vals, shapes


def _check_out(out, want, shape, c_only):
    """NumPy's checks of a Generator's out= (its check_output), in its
    order: a C-contiguous array (F-contiguous too where not c_only),
    writable, aligned, native; of the dtype `want`; of the shape of size."""
    f = getattr(out, 'flags', None) if isinstance(out, (_Array, _np.ndarray)) else None
    if f is None or not ((f.c_contiguous or (f.f_contiguous and not c_only)) and f.writeable and
            f.aligned and out.dtype.isnative):
        raise ValueError(f"Supplied output array must be {'C-' if c_only else ''}contiguous, "
                         "writable, aligned, and in machine byte-order.")
    if out.dtype != want:
        raise TypeError(f"Supplied output array has the wrong type. Expected {want}, "
                        f"got {out.dtype}")
    if shape is not None and shape != tuple(out.shape):
        raise ValueError("size must match out.shape when used together")


def _bshape(shape, shapes):
    """The result shape for size `shape` (or None) and array parameters of
    `shapes`; NumPy's errors."""
    if shape is None:
        return _np.broadcast_shapes(*shapes)
    full = _np.broadcast_shapes(shape, *shapes)
    if full != shape:
        raise ValueError(f"Output size {shape} is not compatible with broadcast dimensions "
                         f"of inputs {_np.broadcast_shapes(*shapes)}.")
    return shape


def _check_nonneg(v, name):
    """NumPy's check of a non-negative parameter: NaN passes, -0.0 fails."""
    if isinstance(v, _Array):
        U = _U()
        bad = U['logical_and'](U['signbit'](v), U['logical_not'](U['isnan'](v)))
        if bad.any():
            raise ValueError(f"{name} < 0")
    elif not math.isnan(v) and math.copysign(1.0, v) < 0:
        raise ValueError(f"{name} < 0")


def _finish(r, shape):
    """A drawn array, or its only element as a Python scalar for size=None
    (r: an array, or NumPy's scalar where ufuncs or operators made it of 0-d
    draws: a 0-d array again for size=(), as NumPy's)."""
    if shape is None:
        return r.item()
    return r if isinstance(r, _Array) else _C.asnd(r)


def _take(arr, idx, axis):
    """arr indexed by idx (an int or an int64 ndtile array) along axis."""
    if isinstance(idx, _Array) and idx.ndim == 0:
        # a 0-d index array gives a 0-d array (NumPy's take), not a scalar;
        # of a NumPy array, its take (an object element, itself an array or
        # a string, stays the element of a 0-d object array)
        if not isinstance(arr, _Array):
            i = int(idx._item())
            if arr.ndim != 1:
                return _C.np_or_nd(arr.take(i, axis=axis))
            res = _np.empty((), dtype=arr.dtype)      # (NumPy's choice does so)
            res[()] = arr[i]
            return _C.np_or_nd(res)
        r = _take(arr, int(idx._item()), axis)
        return _C.np_or_nd(_np.asarray(r)) if not isinstance(r, _Array) else r
    key = (slice(None),) * axis + (idx,)
    if isinstance(arr, _Array):
        r = arr[key]
        if isinstance(r, _Array) and not isinstance(idx, _Array):
            r = r.copy()
        return r
    if isinstance(idx, _Array):
        key = (slice(None),) * axis + (_C.to_numpy(idx),)
    r = arr[key]
    if isinstance(r, _np.ndarray):
        return _C.np_or_nd(r.copy() if not isinstance(idx, _Array) else r)
    return r


_CHOICE_MSG = {
    False: {
        'notint': "a must be a sequence or an integer, not {}",
        'nonpos': "a must be a positive integer unless no samples are taken",
        'empty': "a cannot be empty unless no samples are taken",
        'large': "Cannot take a larger sample than population when replace is False",
    },
    True: {
        'notint': "a must be 1-dimensional or an integer",
        'nonpos': "a must be greater than 0 unless no samples are taken",
        'empty': "'a' cannot be empty unless no samples are taken",
        'large': "Cannot take a larger sample than population when 'replace=False'",
    },
}


# NumPy's parameter constraints (numpy/random/_common.pyx) and messages.
_POS, _NONNEG, _GT0_LE1, _POS_NOT_NAN = 'pos', 'nonneg', 'gt0le1', 'posnotnan'


def _require_int(n):
    """NumPy's check of an argument it reads as a C integer (a string of
    digits too is refused)."""
    if not (hasattr(n, '__index__') or hasattr(n, '__int__')):
        raise TypeError("an integer is required")


def _where(c, x, y):
    return where(c, x, y)


def _constraint(v, cons, name):
    if cons is None:
        return
    if cons == _NONNEG:
        return _check_nonneg(v, name)
    if cons == _POS_NOT_NAN:
        nan = _U()['isnan'](v).any() if isinstance(v, _Array) else v != v
        if nan:
            raise ValueError(f"{name} must not be NaN")
        cons = _POS
    if isinstance(v, _Array):
        U = _U()
        if cons == _POS:
            bad = U['less_equal'](v, 0.0).any()
        else:
            bad = not (U['greater'](v, 0.0).all() and U['less_equal'](v, 1.0).all())
    elif cons == _POS:
        bad = v <= 0
    else:
        bad = not (v > 0 and v <= 1)
    if bad:
        raise ValueError(f"{name} <= 0" if cons == _POS else
                         f"{name} <= 0, {name} > 1 or {name} contains NaNs")


def _full_params(vals, shape):
    """floats or float64 arrays as float64 ndtile arrays of shape (views)."""
    out = []
    for v in vals:
        a = v if isinstance(v, _Array) else _core.scalar(float(v), _F64, False)
        out.append(a if tuple(a.shape) == tuple(shape) else a._broadcast_to(tuple(shape)))
    return out


def _iarray(v):
    """An integer parameter (n of binomial) as an int64 ndtile array."""
    if isinstance(v, _Array):
        if v.dtype.kind not in 'biu':
            v = v._astype(_F64, _core.CASTING_UNSAFE)
            return v._astype(_I64, _core.CASTING_UNSAFE)
        return v if v._dt == _I64 else v._astype(_I64, _core.CASTING_UNSAFE)
    a = _np.asarray(v)
    return _C.from_numpy(_np.ascontiguousarray(a.astype(_np.int64)))


def _check_poisson(L):
    U = _U()
    if isinstance(L, _Array):
        if not U['less_equal'](L, 9.2233720064847708e18).all():
            raise ValueError("lam value too large")
        if not U['greater_equal'](L, 0.0).all():
            raise ValueError("lam < 0 or lam contains NaNs")
    elif not L >= 0:
        raise ValueError("lam < 0 or lam is NaN")


_FALLBACK_METHODS = {}


class _Sampler:
    _kind = 'Generator'
    _legacy = False
    _np_class = _np.random.Generator

    @property
    def _rng(self):
        return self._bit_generator._rng

    # -- fallback to NumPy's sampler, seeded from one draw of ours
    def _numpy_twin(self):
        words = self._bit_generator._seed_words()
        if self._legacy:
            return _np.random.RandomState(words)
        return _np.random.Generator(_np.random.PCG64(words))

    def _fallback(self, name, args, kwargs, qual=None):
        qual = qual or f"random.{self._kind}.{name}"
        _F.notify(qual)
        return _F.run_numpy(getattr(self._numpy_twin(), name), args, kwargs, qual)

    def __getattr__(self, name):
        if name.startswith('_') or not callable(getattr(self._np_class, name, None)):
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

        # one function per class and name, bound as a method: g.zipf == g.zipf
        # as for NumPy's methods (a program's `func in (g.zipf, ...)`)
        key = (type(self), name)
        f = _FALLBACK_METHODS.get(key)
        if f is None:
            def f(self, *args, **kwargs):
                return self._fallback(name, args, kwargs)
            f.__name__ = f.__qualname__ = name
            f.__doc__ = getattr(self._np_class, name).__doc__
            f.__ndtile_fallback__ = True
            f = _FALLBACK_METHODS.setdefault(key, f)
        return types.MethodType(f, self)

    def __repr__(self):
        return f"{self._kind}({_NAME}) at 0x{id(self):X}"

    # -- float samplers
    def _float_draw(self, fn, draw, size, dtype, out, c_only=False):
        code = _float_code(dtype, fn)
        shape = _shape(size)
        if out is None:
            return _finish(draw(() if shape is None else shape, code), shape)
        _check_out(out, _D.DTYPES[code], shape, c_only)
        oshape = tuple(out.shape)
        r = draw(oshape, code)
        if isinstance(out, _Array):
            out._assign(r, _core.CASTING_UNSAFE)
        elif out.size:
            r._to_buffer(out)
        return out

    def normal(self, loc=0.0, scale=1.0, size=None):
        shape = _shape(size)
        (l, la), (s, sa) = _param(loc), _param(scale)
        if la is None and sa is None:
            return _finish(self._rng.normal(() if shape is None else shape, _F64,
                                            float(l), float(s)), shape)
        (L, S), shapes = _fparams((l, la), (s, sa))
        _check_nonneg(S, 'scale')
        z = self._rng.standard_normal(_bshape(shape, shapes), _F64)
        return L + S * z

    def _uniform(self, low, high, size, legacy):
        shape = _shape(size)
        (l, la), (h, ha) = _param(low), _param(high)
        if la is None and ha is None:
            lo, hi = float(l), float(h)
            if not math.isfinite(hi - lo):
                raise OverflowError('Range exceeds valid bounds' if legacy else
                                    'high - low range exceeds valid bounds')
            if not legacy and hi - lo < 0:
                raise ValueError('high - low < 0')
            return _finish(self._rng.uniform(() if shape is None else shape, _F64, lo, hi),
                           shape)
        (L, H), shapes = _fparams((l, la), (h, ha))
        R = H - L
        U = _U()
        if not U['isfinite'](R).all():
            raise OverflowError('Range exceeds valid bounds')
        if not legacy and U['less'](R, 0.0).any():
            raise ValueError('high - low < 0')
        u = self._rng.random(_bshape(shape, shapes), _F64)
        return L + R * u

    def exponential(self, scale=1.0, size=None):
        shape = _shape(size)
        s, sa = _param(scale)
        if sa is None:
            return _finish(self._rng.exponential(() if shape is None else shape, _F64,
                                                 float(s)), shape)
        (S,), shapes = _fparams((s, sa))
        _check_nonneg(S, 'scale')
        return S * self._rng.exponential(_bshape(shape, shapes), _F64, 1.0)

    def gamma(self, shape, scale=1.0, size=None):
        k, ka = _param(shape)
        s, sa = _param(scale)
        shp = _shape(size)
        if ka is None and sa is None:
            return _finish(self._rng.gamma(() if shp is None else shp, _F64, float(k),
                                           float(s)), shp)
        (K, S), shapes = _fparams((k, ka), (s, sa))
        _check_nonneg(K, 'shape')
        _check_nonneg(S, 'scale')
        return self._gamma_array(K, S, _bshape(shp, shapes), _F64)

    def _gamma_array(self, K, S, shape, code):
        """gamma draws with a shape (and scale) per element: K and S are
        floats or float64 arrays, broadcast to shape; K already checked."""
        K, S = _full_params((K, S), shape)
        return self._rng.gamma_array(K, S, code)

    def poisson(self, lam=1.0, size=None):
        v, a = _param(lam)
        shape = _shape(size)
        if a is None:
            return _finish(self._rng.poisson(() if shape is None else shape, _I64, float(v)),
                           shape)
        (L,), shapes = _fparams((v, a))
        _check_poisson(L)
        return self._poisson_array(L, _bshape(shape, shapes))

    def _poisson_array(self, L, shape):
        (L,) = _full_params((L,), shape)
        return self._rng.poisson_array(L)

    def binomial(self, n, p, size=None):
        (nv, na), (pv, pa) = _param(n), _param(p)
        shape = _shape(size)
        if na is None and pa is None:
            return _finish(self._rng.binomial(() if shape is None else shape, _I64, int(nv),
                                              float(pv)), shape)
        N = _iarray(nv if na is None else na)
        (P,), shapes = _fparams((pv, pa))
        U = _U()
        if U['less'](N, 0).any():
            raise ValueError("n < 0")
        P = P if isinstance(P, _Array) else _core.scalar(P, _F64, False)
        if not (U['greater_equal'](P, 0.0).all() and U['less_equal'](P, 1.0).all()):
            raise ValueError("p < 0, p > 1 or p contains NaNs" if pa is not None else
                             "p < 0, p > 1 or p is NaN")
        full = _bshape(shape, [tuple(N.shape), tuple(P.shape)])
        N, P = (x if tuple(x.shape) == full else x._broadcast_to(full) for x in (N, P))
        return self._rng.binomial_array(N, P)

    # -- distributions made from the core's draws by exact transformations
    # (ratios, logs and powers of normal, exponential, uniform and gamma
    # variates); each is a few elementwise ops over tiles.
    def _dist(self, name, params, size, make, scalar_only=False):
        """params: [(value, constraint, pname)]; make(shape, *values) builds
        the sample from float values or float64 ndtile arrays."""
        shape = _shape(size)
        pv = [_param(v) for v, _, _ in params]
        if scalar_only and any(a is not None for _, a in pv):
            return self._fallback(name, tuple(v for v, _, _ in params), {'size': size})
        vals, shapes = _fparams(*pv)
        for val, (_, cons, pname) in zip(vals, params):
            _constraint(val, cons, pname)
        if shapes:
            return make(_bshape(shape, shapes), *vals)
        return _finish(make(() if shape is None else shape, *vals), shape)

    def _std_normal(self, shape):
        return self._rng.standard_normal(shape, _F64)

    def _std_exp(self, shape):
        return self._rng.exponential(shape, _F64, 1.0)

    def _sgamma(self, shape, k):
        """standard_gamma(k) draws of shape; k a float or a float64 array."""
        if isinstance(k, _Array):
            return self._gamma_array(k, 1.0, shape, _F64)
        return self._rng.gamma(shape, _F64, k, 1.0)

    def _log_gamma(self, shape, k):
        """log of standard_gamma(k) draws, exact also where the draw itself
        underflows (k < 1: G(k) = G(k + 1) * U**(1/k))."""
        U = _U()
        if not isinstance(k, _Array) and k >= 1.0:
            return U['log'](self._rng.gamma(shape, _F64, k, 1.0))
        g = U['log'](self._sgamma(shape, k + 1.0))
        u = 1.0 - self._rng.random(shape, _F64)         # (0, 1]
        small = g + U['log'](u) / k
        if not isinstance(k, _Array):
            return small
        return _where(U['greater_equal'](k, 1.0), U['log'](self._sgamma(shape, k)), small)

    def _chisq(self, shape, df):
        return 2.0 * self._sgamma(shape, df / 2.0)

    def standard_cauchy(self, size=None):
        return self._dist('standard_cauchy', [], size,
                          lambda shp: self._std_normal(shp) / self._std_normal(shp))

    def standard_t(self, df, size=None):
        def make(shp, d):
            n = self._std_normal(shp)
            g = self._sgamma(shp, d / 2.0)
            return _U()['sqrt'](d / 2.0) * n / _U()['sqrt'](g)
        return self._dist('standard_t', [(df, _POS, 'df')], size, make)

    def chisquare(self, df, size=None):
        return self._dist('chisquare', [(df, _POS, 'df')], size, self._chisq)

    def f(self, dfnum, dfden, size=None):
        def make(shp, a, b):
            return (self._chisq(shp, a) * b) / (self._chisq(shp, b) * a)
        return self._dist('f', [(dfnum, _POS, 'dfnum'), (dfden, _POS, 'dfden')], size, make)

    def _noncentral_chisq(self, shp, d, c):
        """A Poisson(nonc / 2) mixture of central chi-squares with df + 2i;
        NaN where nonc is NaN (NumPy's; the Poisson draw refuses NaN)."""
        U = _U()
        if not isinstance(c, _Array):
            if math.isnan(c):
                return U['add'](self._chisq(shp, d), _np.nan)
            return self._chisq(shp, d + 2.0 * self._poisson_array(c / 2.0, shp))
        nan = U['isnan'](c)
        i = self._poisson_array(_where(nan, 0.0, c) / 2.0, shp)
        return _where(nan, _np.nan, self._chisq(shp, d + 2.0 * i))

    def noncentral_chisquare(self, df, nonc, size=None):
        return self._dist('noncentral_chisquare', [(df, _POS, 'df'), (nonc, _NONNEG, 'nonc')],
                          size, self._noncentral_chisq)

    def noncentral_f(self, dfnum, dfden, nonc, size=None):
        def make(shp, a, b, c):
            return (self._noncentral_chisq(shp, a, c) * b) / (self._chisq(shp, b) * a)
        return self._dist('noncentral_f', [(dfnum, _POS, 'dfnum'), (dfden, _POS, 'dfden'),
                                           (nonc, _NONNEG, 'nonc')], size, make)

    def negative_binomial(self, n, p, size=None):
        # a Poisson whose rate is gamma(n, (1 - p) / p)
        def make(shp, n, p):
            lam = self._sgamma(shp, n) * ((1.0 - p) / p)
            return self._poisson_array(lam, shp)
        if not self._legacy:
            # Generator's reads both as float64 arrays (None is NaN) and
            # refuses a NaN n by name
            n, p = (_np.nan if v is None else v for v in (n, p))
        return self._dist('negative_binomial', [(n, _POS if self._legacy else _POS_NOT_NAN, 'n'),
                                                (p, _GT0_LE1, 'p')], size, make)

    def beta(self, a, b, size=None):
        def make(shp, a, b):
            lx, ly = self._log_gamma(shp, a), self._log_gamma(shp, b)
            return 1.0 / (1.0 + _U()['exp'](ly - lx))
        return self._dist('beta', [(a, _POS, 'a'), (b, _POS, 'b')], size, make)

    def dirichlet(self, alpha, size=None):
        len(alpha)      # NumPy's first step (its TypeError for a scalar)
        if isinstance(alpha, (str, _bytes)):
            raise ValueError("object of too small depth for desired array")
        al = _np.asarray(alpha.__array__() if isinstance(alpha, _Array) else
                         _C.to_np_tree(alpha), dtype=_np.float64)
        if al.ndim != 1:
            raise ValueError("setting an array element with a sequence. The requested array "
                             "would exceed the maximum number of dimension of 1."
                             if al.ndim > 1 else "object of too small depth for desired array")
        if _np.any(_np.less(al, 0)):
            raise ValueError('alpha < 0')
        shape = _shape(size)
        out_shape = (() if shape is None else shape) + (al.size,)
        if al.size == 0 or 0 in out_shape:
            return empty(out_shape)
        if _np.all(al == 0):
            # NumPy's zeros (the normalisation below would give 0/0)
            return _core.zeros(out_shape, _F64)
        U = _U()
        # (a zero alpha's log draw is -inf through a division by zero, which
        # NumPy's sampler does not report)
        with _np.errstate(divide='ignore', invalid='ignore', over='ignore', under='ignore'):
            lg = self._log_gamma(out_shape, _C.from_numpy(al))
            # normalize in log space: tiny alphas underflow gamma draws to 0
            top = reduce_nd('max', lg, -1, _D.DEFAULT, True)
            top = _where(U['isfinite'](top), top, 0.0)
            w = U['exp'](lg - top)
            return w / reduce_nd('sum', w, -1, _D.DEFAULT, True)

    def multinomial(self, n, pvals, size=None):
        # one binomial per category on what the earlier ones left (NumPy's
        # conditional method), each an array draw over all the samples
        pv = _np.asarray(pvals.__array__() if isinstance(pvals, _Array) else
                         _C.to_np_tree(pvals), dtype=_np.float64)
        if pv.ndim == 0 or pv.shape[-1] == 0:
            raise ValueError("pvals must have at least 1 dimension and the last dimension of "
                             "pvals must be greater than 0.")
        # NumPy converts n to int64 (its errors), and one n once more as an
        # integer (a string of digits is a TypeError there)
        nv = _np.asarray(n.__array__() if isinstance(n, _Array) else _C.to_np_tree(n),
                         dtype=_np.int64)
        if nv.ndim == 0:
            _require_int(n)
        if _np.any(nv < 0):
            raise ValueError("n < 0")
        if not (_np.all(pv >= 0) and _np.all(pv <= 1)):
            raise ValueError("pvals < 0, pvals > 1 or pvals contains NaNs")
        if _np.any(pv[..., :-1].sum(axis=-1) > 1.0 + 1e-12):
            # NumPy's message, with its note for a float32 (float16) array of
            # pvals whose own sum is below 1.0001
            part = "[:-1]" if pv.ndim == 1 else "[...,:-1]"
            dt = getattr(pvals, 'dtype', None) if isinstance(pvals, (_Array, _np.ndarray)) else None
            if dt is not None and dt.kind == 'f' and dt != _np.float64 and \
                    float(_np.asarray(pvals, dtype=dt).sum()) < 1.0001:
                raise ValueError(f"sum(pvals{part}.astype(np.float64)) > 1.0. The pvals array "
                                 "is cast to 64-bit floating point prior to checking the sum. "
                                 "Precision changes when casting may cause problems even if "
                                 "the sum of the original pvals is valid.")
            raise ValueError(f"sum(pvals{part}) > 1.0")
        k = pv.shape[-1]
        shape = _shape(size)
        if shape is None or (nv.ndim == 0 and pv.ndim == 1):
            S = _np.broadcast_shapes(nv.shape, pv.shape[:-1]) if shape is None else shape
        else:
            # NumPy broadcasts n, the rows of pvals and size, in that order
            S = _np.broadcast_shapes(nv.shape, pv.shape[:-1], shape)
            if S != shape:
                raise ValueError(f"Output size {shape} is not compatible with broadcast "
                                 f"dimensions of inputs {S}.")
        U = _U()
        # (np.array, not np.ascontiguousarray: that makes a 0-d n one-element
        # 1-d, and the draws of a scalar n shape (1, k), not NumPy's (k,))
        left = _C.from_numpy(_np.array(_np.broadcast_to(nv.astype(_np.int64), S), order='C'))
        P = _C.from_numpy(_np.ascontiguousarray(pv))
        rest = 1.0
        parts = []
        for j in range(k - 1):
            pj = P[..., j]
            prob = U['minimum'](U['true_divide'](pj, rest), 1.0) \
                if not isinstance(rest, float) or rest != 1.0 else pj
            if isinstance(rest, _Array):
                prob = _where(U['greater'](rest, 0.0), prob, 0.0)
            prob = U['maximum'](prob, 0.0)
            (prob,) = _full_params((prob._astype(_F64, _core.CASTING_UNSAFE) if isinstance(prob, _Array)
                                    else prob,), S)
            x = self._rng.binomial_array(left, prob)
            parts.append(x)
            left = U['subtract'](left, x)     # (arrays, 0-d ones too)
            rest = U['subtract'](rest, pj)
        parts.append(left)
        return stack(parts, axis=-1)

    def multivariate_normal(self, mean, cov, size=None, check_valid='warn', tol=1e-8, *,
                            method='svd'):
        # the k x k factor of cov is computed on the host with NumPy; the
        # draws and their product with it are ndtile's
        mean = _np.array(mean.__array__() if isinstance(mean, _Array) else
                         _C.to_np_tree(mean))
        cov = _np.array(cov.__array__() if isinstance(cov, _Array) else _C.to_np_tree(cov))
        if not self._legacy and (_np.issubdtype(mean.dtype, _np.complexfloating) or
                                 _np.issubdtype(cov.dtype, _np.complexfloating)):
            raise TypeError("mean and cov must not be complex")     # Generator's first check
        shape = [] if size is None else list(_shape(size))
        if mean.ndim != 1:
            raise ValueError("mean must be 1 dimensional")
        if cov.ndim != 2 or cov.shape[0] != cov.shape[1]:
            raise ValueError("cov must be 2 dimensional and square")
        if mean.shape[0] != cov.shape[0]:
            raise ValueError("mean and cov must have same length")
        if _np.issubdtype(mean.dtype, _np.complexfloating) or \
                _np.issubdtype(cov.dtype, _np.complexfloating):
            if self._legacy and _np.issubdtype(mean.dtype, _np.complexfloating):
                z = _np.zeros(mean.shape)
                z += mean       # RandomState's error: its draws += mean cannot cast
            raise TypeError("mean and cov must not be complex")
        if mean.dtype.kind not in 'biuf':
            # NumPy adds mean to its draws: the ufunc's TypeError (strings)
            z = _np.zeros(mean.shape)
            _np.add(z, mean) if self._legacy else _np.add(mean, z)
        if check_valid not in ('warn', 'raise', 'ignore'):
            raise ValueError("check_valid must equal 'warn', 'raise', or 'ignore'")
        if method not in ('svd', 'eigh', 'cholesky'):
            raise ValueError("method must be one of {'eigh', 'svd', 'cholesky'}")
        cov = cov.astype(_np.double)
        psd = True
        if method == 'svd':
            u, s, vh = _np.linalg.svd(cov)
            psd = _np.allclose(_np.dot(vh.T * s, vh), cov, rtol=tol, atol=tol)
            factor = _np.sqrt(s)[:, None] * vh
        elif method == 'eigh':
            s, u = _np.linalg.eigh(cov)
            psd = not _np.any(s < -tol)
            factor = (u * _np.sqrt(_np.maximum(s, 0))).T
        else:
            factor = _np.linalg.cholesky(cov).T
        if method != 'cholesky' and check_valid != 'ignore' and not psd:
            if check_valid == 'warn':
                _F.warn("covariance is not symmetric positive-semidefinite.",
                        RuntimeWarning)
            else:
                raise ValueError("covariance is not symmetric positive-semidefinite.")
        k = mean.shape[0]
        final = tuple(shape) + (k,)
        z = self._rng.standard_normal(final, _F64)._reshape((-1, k))
        x = _C.from_numpy(_np.ascontiguousarray(mean.astype(_np.float64))) + \
            z @ _C.from_numpy(_np.ascontiguousarray(factor))
        return x._reshape(final)

    def lognormal(self, mean=0.0, sigma=1.0, size=None):
        return self._dist('lognormal', [(mean, None, 'mean'), (sigma, _NONNEG, 'sigma')], size,
                          lambda shp, m, s: _U()['exp'](m + s * self._std_normal(shp)))

    def laplace(self, loc=0.0, scale=1.0, size=None):
        return self._dist('laplace', [(loc, None, 'loc'), (scale, _NONNEG, 'scale')], size,
                          lambda shp, m, s: m + s * (self._std_exp(shp) - self._std_exp(shp)))

    def logistic(self, loc=0.0, scale=1.0, size=None):
        # log(E1 / E2) of two standard exponentials is standard logistic.
        return self._dist('logistic', [(loc, None, 'loc'), (scale, _NONNEG, 'scale')], size,
                          lambda shp, m, s: m + s * _U()['log'](self._std_exp(shp) /
                                                                self._std_exp(shp)))

    def gumbel(self, loc=0.0, scale=1.0, size=None):
        return self._dist('gumbel', [(loc, None, 'loc'), (scale, _NONNEG, 'scale')], size,
                          lambda shp, m, s: m - s * _U()['log'](self._std_exp(shp)))

    def rayleigh(self, scale=1.0, size=None):
        return self._dist('rayleigh', [(scale, _NONNEG, 'scale')], size,
                          lambda shp, s: s * _U()['sqrt'](2.0 * self._std_exp(shp)))

    def weibull(self, a, size=None):
        def make(shp, a):
            U = _U()
            e = self._std_exp(shp)
            if isinstance(a, _Array):
                safe = _where(a == 0.0, 1.0, a)
                return _where(a == 0.0, 0.0, U['power'](e, 1.0 / safe))
            return 0.0 * e if a == 0.0 else U['power'](e, 1.0 / a)
        return self._dist('weibull', [(a, _NONNEG, 'a')], size, make)

    def pareto(self, a, size=None):
        return self._dist('pareto', [(a, _POS, 'a')], size,
                          lambda shp, a: _U()['expm1'](self._std_exp(shp) / a))

    def power(self, a, size=None):
        return self._dist('power', [(a, _POS, 'a')], size,
                          lambda shp, a: _U()['power'](-_U()['expm1'](-self._std_exp(shp)),
                                                      1.0 / a))

    def triangular(self, left, mode, right, size=None):
        vals = [_param(v) for v in (left, mode, right)]
        if all(a is None for _, a in vals):
            lf, md, rt = (float(v) for v, _ in vals)
            if lf > md:
                raise ValueError("left > mode")
            if md > rt:
                raise ValueError("mode > right")
            if lf == rt:
                raise ValueError("left == right")
        else:
            (lf, md, rt), _ = _fparams(*vals)
            U = _U()
            if U['greater'](lf, md).any():
                raise ValueError("left > mode")
            if U['greater'](md, rt).any():
                raise ValueError("mode > right")
            if U['equal'](lf, rt).any():
                raise ValueError("left == right")

        def make(shp, lf, md, rt):
            U = _U()
            base = rt - lf
            ratio = (md - lf) / base
            u = self._rng.random(shp, _F64)
            lo = lf + U['sqrt'](u * ((md - lf) * base))
            hi = rt - U['sqrt']((1.0 - u) * ((rt - md) * base))
            return _where(U['less_equal'](u, ratio), lo, hi)
        return self._dist('triangular', [(left, None, 'left'), (mode, None, 'mode'),
                                         (right, None, 'right')], size, make)

    def wald(self, mean, scale, size=None):
        def make(shp, m, s):
            U = _U()
            y = self._std_normal(shp)
            # (NumPy's C sampler reports no floating-point errors: 4s/y of a
            # y of 0 or tiny is inf, x = m; m*m/x of the branch not taken)
            with _np.errstate(divide='ignore', over='ignore', invalid='ignore'):
                y = m * (y * y)
                if self._legacy:        # RandomState's formula, kept as NumPy keeps it
                    x = m + (m / (2.0 * s)) * (y - U['sqrt'](4.0 * s * y + y * y))
                else:
                    # NumPy 2.3.4's Generator: no cancellation for y >> s (the
                    # formula above gave negative samples, wald(1e9, 2.25))
                    x = m * (1.0 - 2.0 / (1.0 + U['sqrt'](1.0 + 4.0 * s / y)))
                u = self._rng.random(shp, _F64)
                return _where(U['less_equal'](u, m / (m + x)), x, (m * m) / x)
        return self._dist('wald', [(mean, _POS, 'mean'), (scale, _POS, 'scale')], size, make)

    def geometric(self, p, size=None):
        def make(shp, p):
            U = _U()
            e = self._std_exp(shp)
            k = U['ceil'](-e / U['log1p'](-p))
            k = U['minimum'](k, 9.2233720368547748e18)
            if isinstance(p, _Array):
                k = _where(p == 1.0, 1.0, k)
            elif p == 1.0:
                k = 0.0 * e + 1.0
            return k.astype(_np.int64)
        return self._dist('geometric', [(p, _GT0_LE1, 'p')], size, make)

    def _integers(self, name, low, high, size, dtype, endpoint):
        if high is None:
            low, high = 0, low
        dt = _np.dtype(dtype)
        if not dt.isnative:
            msg = ("Providing a dtype with a non-native byteorder is not supported. If you "
                   "require platform-independent byteorder, call byteswap when required.")
            if not self._legacy:
                raise ValueError(msg)
            _F.warn(msg + "\nIn future version, providing byteorder will raise a "
                    "ValueError", DeprecationWarning)
            dt = dtype = dt.newbyteorder()
        code = _D.code(dt)
        if dt.kind not in 'biu' or code is None:
            raise TypeError(f"Unsupported dtype {dt!r} for {name}")
        shape = _shape(size)
        if shape is not None and math.prod(shape) == 0:
            return empty(shape, dt)          # NumPy's: before any check of the bounds
        (lv, la), (hv, ha) = _param(low), _param(high)
        if la is not None or ha is not None:
            # (random_integers takes no dtype)
            kw = {'size': size} if name == 'random_integers' else {'size': size, 'dtype': dtype}
            if not self._legacy:
                kw['endpoint'] = endpoint
            return self._fallback(name, (low, high), kw)
        lo, hi = int(lv), int(hv)
        # the core checks the bounds (NumPy's rules and messages)
        r = self._rng.integers(() if shape is None else shape, code, lo, hi, bool(endpoint))
        if shape is not None:
            return r
        return r._item() if (dtype is int or dtype is bool) else r._scalar()

    def bytes(self, length):
        b = self._integers('bytes', 0, 256, (operator.index(length),), _np.uint8, False)
        return _np.asarray(b).tobytes()

    # -- choice, permutation, shuffle
    def _choice(self, a, size, replace, p, axis, extra):
        msg = _CHOICE_MSG[self._legacy]
        if size is not None and not isinstance(size, _Array):
            try:
                _shape(size)
            except TypeError:
                # NumPy's size of the draw, np.prod(size, dtype=intp): its
                # ValueError for strings
                _np.prod(size, dtype=_np.intp)
                raise
        shape = _shape(size)
        n = 1 if shape is None else math.prod(shape)
        arr = a if isinstance(a, _Array) else _np.asarray(_C.to_np_tree(a))
        if arr.ndim == 0:
            try:
                pop = operator.index(arr._item() if isinstance(arr, _Array) else arr.item())
            except TypeError as exc:
                raise ValueError(msg['notint'].format(type(a))) from exc
            if pop <= 0 and n != 0:
                raise ValueError(msg['nonpos'])
            arr = None
        else:
            if self._legacy and arr.ndim != 1:
                raise ValueError("a must be 1-dimensional")
            pop = arr.shape[axis]
            if axis < 0:
                axis += arr.ndim
            if pop == 0 and n != 0:
                raise ValueError(msg['empty'])
        dshape = () if shape is None else shape
        if p is not None:
            idx = self._choice_p(pop, n, dshape, replace, p)
        elif replace:
            if n == 0:
                idx = _core.zeros(dshape, _I64)
            else:
                idx = self._rng.integers(dshape, _I64, 0, pop, False)
        else:
            if n > pop:
                raise ValueError(msg['large'])
            idx = self._sample(pop, n)._reshape(dshape)
        if shape is None:
            idx = int(idx._item())
        if arr is None:
            return idx
        return _take(arr, idx, axis)

    def _choice_p(self, pop, n, dshape, replace, p):
        """choice's indices (an int64 array of dshape) drawn with
        probabilities p, as NumPy draws them but from ndtile's uniform
        stream: the cdf of p (float64, NumPy's cumsum, scaled by its last
        value) searched (side='right') for uniform draws; without
        replacement, NumPy's rounds: draws for the places left, the chosen
        indices' p set to 0, the first occurrence of each new index kept."""
        if isinstance(p, _Array):
            p = _C.to_numpy(p)
        # NumPy's checks of p (its exceptions, its tolerance of p's dtype),
        # a drawn by none
        twin = _np.random.RandomState(0) if self._legacy else _np.random.default_rng(0)
        twin.choice(pop, size=0, replace=True, p=p)
        pd = _np.array(p, dtype=_np.float64, copy=True)
        if not replace:
            if n > pop:
                raise ValueError(_CHOICE_MSG[self._legacy]['large'])
            if _np.count_nonzero(pd > 0) < n:
                raise ValueError("Fewer non-zero entries in p than size")
        if n == 0:
            return _core.zeros(dshape, _I64)
        if replace:
            cdf = pd.cumsum()
            cdf /= cdf[-1]
            u = self._rng.random(dshape, _F64)
            r = searchsorted(_C.from_numpy(cdf), u, side='right')
            return r if isinstance(r, _Array) else _core.full((), _I64, int(r))
        found = _np.zeros(n, dtype=_np.int64)
        got = 0
        while got < n:
            u = self._rng.random((n - got,), _F64)
            if got:
                pd[found[:got]] = 0
            cdf = _np.cumsum(pd)
            cdf /= cdf[-1]
            new = _C.to_numpy(searchsorted(_C.from_numpy(cdf), u, side='right'))
            _, first = _np.unique(new, return_index=True)
            new = new[_np.sort(first)]
            found[got:got + new.size] = new
            got += new.size
        return _C.from_numpy(found)._reshape(dshape)

    def _sample(self, pop, n):
        """n distinct ints of range(pop) in random order (an int64 array)."""
        if n == 0:
            return _core.zeros((0,), _I64)
        if pop <= 65536 or (n > pop // 16 and pop <= 1 << 31):
            perm = self._rng.permutation(pop)
            return perm if n == pop else perm[:n].copy()
        # sparse: the distinct values of uniform draws in order of first
        # appearance (sequential rejection of repeats: a uniform ordered
        # sample), without a permutation of the whole population
        out = _np.empty(0, _np.int64)
        while out.size < n:
            need = n - out.size
            v = _C.to_numpy(self._rng.integers((need + need // 8 + 16,), _I64, 0, pop, False))
            _, first = _np.unique(v, return_index=True)
            v = v[_np.sort(first)]
            v = v[~_np.isin(v, out)]
            out = _np.concatenate([out, v[:need]])
        return _C.from_numpy(out)

    def _permutation(self, x, axis):
        if isinstance(x, (int, _np.integer)):
            return self._rng.permutation(int(x))
        arr = x if isinstance(x, _Array) else _np.asarray(_C.to_np_tree(x))
        if self._legacy:
            if arr.ndim < 1:
                raise IndexError("x must be an integer or at least 1-dimensional")
        axis = _normalize_axis(axis, arr.ndim)
        perm = self._rng.permutation(arr.shape[axis])
        return _take(arr, perm, axis)

    def _shuffle(self, x, axis):
        if isinstance(x, (_Array, _np.ndarray)):
            if x.ndim == 0:
                raise TypeError("len() of unsized object")
            axis = _normalize_axis(axis, x.ndim)
            # NumPy reads x.flags.writeable (its FutureWarning for a
            # broadcast_arrays result), then shuffles in place without the
            # write's DeprecationWarning, the flag kept
            warn = isinstance(x, _Array) and x._flags & _WARN_ON_WRITE
            if warn:
                _F.warn("future versions will not create a writeable array from "
                        "broadcast_array. Set the writable flag explicitly to avoid "
                        "this warning.", FutureWarning)
                if axis and not self._legacy:
                    # Generator's shuffle along another axis writes through
                    # a view of x: NumPy's write warning too (x's flag kept)
                    _F.warn("Numpy has detected that you (may be) writing to an array "
                            "with\noverlapping memory from np.broadcast_arrays. If this "
                            "is intentional\nset the WRITEABLE flag True or make a copy "
                            "immediately before writing.", DeprecationWarning)
            elif not x.flags.writeable:
                raise ValueError("array is read-only")
            perm = self._rng.permutation(x.shape[axis])
            if warn and self._legacy and x.ndim > 1 and \
                    bool(_np.any(_C.to_numpy(perm) != _np.arange(x.shape[axis]))):
                # RandomState's shuffle of rows swaps them through x itself
                # (where its draw moves any): NumPy's write warning, x's flag
                # cleared
                x._before_write()
                warn = False
            if isinstance(x, _Array):
                if warn:
                    x._set_warn_on_write(False)
                try:
                    x._assign(x[(slice(None),) * axis + (perm,)], _core.CASTING_UNSAFE)
                finally:
                    if warn:
                        x._set_warn_on_write(True)
            else:
                x[...] = x[(slice(None),) * axis + (_C.to_numpy(perm),)]
            return None
        if axis != 0:
            raise NotImplementedError("Axis argument is only supported on ndarray objects")
        if not isinstance(x, _Sequence):
            _F.warn(f"you are shuffling a '{type(x).__name__}' object which is not a "
                    "subclass of 'Sequence'; `shuffle` is not guaranteed to behave "
                    "correctly. E.g., non-numpy array/tensor objects with view semantics "
                    "may contain duplicates after shuffling.", UserWarning)
        n = len(x)
        if n <= 1:
            return None      # NumPy swaps nothing (a str of one character passes)
        perm = _C.to_numpy(self._rng.permutation(n)).tolist()
        vals = [x[i] for i in perm]
        for i, v in enumerate(vals):
            x[i] = v
        return None
