"""Generator and default_rng (NumPy's numpy.random.Generator interface)."""

import numpy as _np

from .. import _dtypes as _D
from ._bit_generator import TilePhilox, _as_bitgen, _bitgen_from_state
from ._samplers import (_Sampler, _bshape, _check_nonneg, _check_out, _float_code, _fparams,
                        _param, _shape)


class Generator(_Sampler):
    """numpy.random.Generator on ndtile's counter-based Philox (see the
    module docstring): same seed, same arrays, for any workers or tiles."""

    _kind = 'Generator'
    _legacy = False
    _np_class = _np.random.Generator

    def __init__(self, bit_generator):
        if isinstance(bit_generator, type) and issubclass(bit_generator, _np.random.BitGenerator):
            raise ValueError("Invalid bit generator. The bit generator must be instantiated.")
        self._bit_generator = _as_bitgen(bit_generator)

    @property
    def bit_generator(self):
        return self._bit_generator

    def __reduce__(self):
        return _generator_from_state, (self._bit_generator.state,)

    def spawn(self, n_children):
        return [Generator(bg) for bg in self._bit_generator.spawn(n_children)]

    def random(self, size=None, dtype=_np.float64, out=None):
        return self._float_draw('random', self._rng.random, size, dtype, out)

    def standard_normal(self, size=None, dtype=_np.float64, out=None):
        return self._float_draw('standard_normal', self._rng.standard_normal, size, dtype, out)

    def standard_exponential(self, size=None, dtype=_np.float64, method='zig', out=None):
        rng = self._rng
        return self._float_draw('standard_exponential',
                                lambda shp, c: rng.exponential(shp, c, 1.0), size, dtype, out)

    def standard_gamma(self, shape, size=None, dtype=_np.float64, out=None):
        k, ka = _param(shape)
        if out is not None:
            # (NumPy's checks, on the caller's array: the fallback's gathered
            # copy of it is C-contiguous)
            _check_out(out, _D.DTYPES[_float_code(dtype, 'standard_gamma')], _shape(size), True)
        if ka is not None:
            if out is not None:
                return self._fallback('standard_gamma', (shape,),
                                      {'size': size, 'dtype': dtype, 'out': out})
            code = _float_code(dtype, 'standard_gamma')
            (K,), shapes = _fparams((k, ka))
            _check_nonneg(K, 'shape')
            return self._gamma_array(K, 1.0, _bshape(_shape(size), shapes), code)
        k = float(k)
        rng = self._rng
        return self._float_draw('standard_gamma', lambda shp, c: rng.gamma(shp, c, k, 1.0),
                                size, dtype, out, c_only=True)

    def uniform(self, low=0.0, high=1.0, size=None):
        return self._uniform(low, high, size, False)

    def integers(self, low, high=None, size=None, dtype=_np.int64, endpoint=False):
        return self._integers('integers', low, high, size, dtype, endpoint)

    def choice(self, a, size=None, replace=True, p=None, axis=0, shuffle=True):
        return self._choice(a, size, replace, p, axis, {'axis': axis, 'shuffle': shuffle})

    def permutation(self, x, axis=0):
        return self._permutation(x, axis)

    def shuffle(self, x, axis=0):
        return self._shuffle(x, axis)


def _generator_from_state(state):
    return Generator(_bitgen_from_state(state))


def default_rng(seed=None):
    """A Generator on ndtile's Philox. seed: None (fresh OS entropy), a
    non-negative int or sequence of ints (hashed to a 64-bit key), a NumPy
    SeedSequence / BitGenerator / Generator (one 64-bit draw of it), a
    TilePhilox, or an ndtile Generator (returned as it is)."""
    if isinstance(seed, Generator):
        return seed
    return Generator(seed if isinstance(seed, TilePhilox) else TilePhilox(seed))
