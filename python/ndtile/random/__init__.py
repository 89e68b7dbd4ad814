"""ndtile.random: numpy.random's interface.

For now random numbers are drawn by NumPy (the same streams as NumPy for the
same seed) and copied into ndtile arrays; each sampling function warns once
as a fallback. Seeding and state functions are NumPy's own. default_rng()
and RandomState() return wrappers whose methods return ndtile arrays.
"""
import numpy as _np

from .. import _convert as _C
from .. import _fallback as _F

_NATIVE = ()

seed = _np.random.seed
get_state = _np.random.get_state
set_state = _np.random.set_state
SeedSequence = _np.random.SeedSequence
BitGenerator = _np.random.BitGenerator
PCG64 = _np.random.PCG64
PCG64DXSM = _np.random.PCG64DXSM
MT19937 = _np.random.MT19937
Philox = _np.random.Philox
SFC64 = _np.random.SFC64


class _Wrapped:
    """A NumPy Generator or RandomState whose methods take and return
    ndtile arrays."""

    _kind = 'Generator'

    def __init__(self, inner):
        object.__setattr__(self, '_inner', inner)

    def __getattr__(self, name):
        attr = getattr(self._inner, name)
        if not callable(attr) or name.startswith('_'):
            return attr
        qual = f"random.{self._kind}.{name}"

        def method(*args, **kwargs):
            _F.notify(qual)
            return _F.run_numpy(attr, args, kwargs, qual)
        method.__name__ = name
        method.__doc__ = attr.__doc__
        return method

    def __repr__(self):
        return repr(self._inner)


class Generator(_Wrapped):
    _kind = 'Generator'

    def __init__(self, bit_generator):
        if isinstance(bit_generator, _np.random.Generator):
            super().__init__(bit_generator)
        else:
            super().__init__(_np.random.Generator(bit_generator))

    @property
    def bit_generator(self):
        return self._inner.bit_generator


class RandomState(_Wrapped):
    _kind = 'RandomState'

    def __init__(self, seed=None):
        if isinstance(seed, _np.random.RandomState):
            super().__init__(seed)
        else:
            super().__init__(_np.random.RandomState(seed))


for _n in ('shuffle',):
    _F.MUTATES[f'random.Generator.{_n}'] = (0, 'x')
    _F.MUTATES[f'random.RandomState.{_n}'] = (0, 'x')


def default_rng(seed=None):
    if isinstance(seed, Generator):
        return seed
    return Generator(_np.random.default_rng(seed))


def __getattr__(name):
    return _F.module_getattr('ndtile.random', _np.random, name, globals())


def __dir__():
    return sorted(set(globals()) | set(dir(_np.random)))
