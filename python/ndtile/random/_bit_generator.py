"""The bit generator: TilePhilox (the core's counter-based Philox4x32-10
under a key, a stream and a draw count) and the seeding rules (ints and
sequences hashed with BLAKE2b, NumPy SeedSequences, BitGenerators and
Generators as one draw, NumPy's legacy seeds); NumPy's own bit generator
classes (SeedSequence, PCG64, ...), taking ndtile arrays as arguments."""

from builtins import bytes as _bytes
import hashlib
import operator
import os

import numpy as _np

from .. import _convert as _C
from .. import _core
from .. import _dtypes as _D
from .. import _ranks

_Array = _core.Array

_F32, _F64, _I64, _U32 = _D.FLOAT32, _D.FLOAT64, _D.INT64, _D.UINT32


_NAME = 'TilePhilox'


def _words(v):
    """The 32-bit words of a non-negative int, least significant first."""
    w = [v & 0xFFFFFFFF]
    v >>= 32
    while v:
        w.append(v & 0xFFFFFFFF)
        v >>= 32
    return w


def _entropy(seed, bad):
    """seed (an int or a possibly nested sequence / array of ints) as a list
    of Python ints; bad(seed) is the TypeError for anything else."""
    if isinstance(seed, _Array):
        seed = _C.to_numpy(seed)
    if isinstance(seed, _np.ndarray):
        if seed.dtype.kind not in 'iuO' and not (seed.dtype.kind == 'b' and seed.ndim == 0):
            raise bad(seed)
        seed = seed.tolist()
    if isinstance(seed, (list, tuple, range)):     # NumPy takes any int sequence
        out = []
        for s in seed:
            out.extend(_entropy(s, bad))
        return out
    if isinstance(seed, (float, _np.floating, complex, _np.complexfloating, str, _bytes)):
        raise bad(seed)
    try:
        return [operator.index(seed)]
    except TypeError:
        raise bad(seed) from None


def _hash(vals, tag):
    """A 64-bit seed from ints (int n and [n] are the same)."""
    h = hashlib.blake2b(digest_size=8, person=b'ndtile.random')
    h.update(tag)
    for v in vals:
        w = _words(v)
        h.update(len(w).to_bytes(4, 'little'))
        for x in w:
            h.update(x.to_bytes(4, 'little'))
    return int.from_bytes(h.digest(), 'little')


def _os_seed():
    # every rank must draw the same numbers: rank 0's entropy for all
    return _ranks.bcast(int.from_bytes(os.urandom(8), 'little'), 0)


def _seed64(seed):
    """A 64-bit core seed from what default_rng/Generator accept: None (OS
    entropy), a non-negative int or sequence of them (hashed), a NumPy
    SeedSequence, BitGenerator or Generator (one 64-bit draw of it)."""
    if seed is None:
        return _os_seed()
    if isinstance(seed, _np.random.SeedSequence):
        return int(seed.generate_state(1, _np.uint64)[0])
    if isinstance(seed, _np.random.Generator):
        seed = seed.bit_generator
    if isinstance(seed, _np.random.BitGenerator):
        return int(seed.random_raw())

    def bad(s):
        return TypeError(f"SeedSequence expects int or sequence of ints for entropy not {s}")
    vals = _entropy(seed, bad)
    if any(v < 0 for v in vals):
        raise ValueError("expected non-negative integer")
    return _hash(vals, b'seed')


def _legacy_seed64(seed):
    """RandomState/seed(): None, or ints in [0, 2**32) (NumPy's errors)."""
    if seed is None:
        return _os_seed()

    def bad(s):
        dt = _np.asarray(s).dtype
        return TypeError(f"Cannot cast scalar from {dt!r} to dtype('int64') according to the "
                         f"rule 'safe'")
    vals = _entropy(seed, bad)
    if any(v < 0 or v > 0xFFFFFFFF for v in vals):
        raise ValueError("Seed must be between 0 and 2**32 - 1")
    return _hash(vals, b'seed')


class TilePhilox:
    """ndtile's bit generator: the core's Philox4x32-10 keyed by (seed,
    stream), counting the arrays drawn. `state` is a dict
    {'bit_generator': 'TilePhilox', 'state': {'seed', 'stream', 'draws'}}."""

    def __init__(self, seed=None):
        self._rng = _core.Rng(_seed64(seed))
        self._spawned = 0

    @classmethod
    def _from_core(cls, seed, stream=0, draws=0):
        self = cls.__new__(cls)
        self._rng = _core.Rng(seed)
        self._rng.set_state((seed, stream, draws))
        self._spawned = 0
        return self

    @property
    def state(self):
        seed, stream, draws = self._rng.get_state()
        return {'bit_generator': _NAME,
                'state': {'seed': seed, 'stream': stream, 'draws': draws}}

    @state.setter
    def state(self, value):
        if not isinstance(value, dict):
            raise TypeError('state must be a dict')
        if value.get('bit_generator') != _NAME:
            raise ValueError(f'state must be for a {_NAME} RNG')
        st = value.get('state')
        try:
            vals = (st['seed'], st['stream'], st['draws'])
        except (TypeError, KeyError):
            raise ValueError("state['state'] must hold seed, stream and draws") from None
        self._rng.set_state(vals)

    def spawn(self, n_children):
        """n_children independent bit generators (new stream ids derived
        from this one's seed, stream and spawn count)."""
        seed, stream, _ = self._rng.get_state()
        kids = []
        for i in range(operator.index(n_children)):
            sid = _hash([seed, stream, self._spawned + i], b'spawn')
            kids.append(TilePhilox._from_core(seed, sid, 0))
        self._spawned += len(kids)
        return kids

    def _seed_words(self):
        """Four 32-bit words drawn from the core (one draw), to seed NumPy's
        samplers for fallbacks."""
        return _C.to_numpy(self._rng.integers((4,), _U32, 0, 1 << 32, False))

    def __reduce__(self):
        return _bitgen_from_state, (self.state,)

    def __repr__(self):
        return f"<ndtile.random.{_NAME} object at 0x{id(self):X}>"


def _bitgen_from_state(state):
    bg = TilePhilox._from_core(0)
    bg.state = state
    return bg


def _as_bitgen(obj, legacy=False):
    if isinstance(obj, TilePhilox):
        return obj
    if isinstance(obj, (_np.random.BitGenerator, _np.random.Generator, _np.random.SeedSequence)):
        legacy = False
    return TilePhilox._from_core(_legacy_seed64(obj) if legacy else _seed64(obj))


class _NumPyClassName(type):
    """The metaclass of ndtile's names for NumPy's SeedSequence and bit
    generators: what NumPy's class made (numpy.random.PCG64(), the children
    of SeedSequence.spawn) is an instance of ndtile's name too, and NumPy's
    class a subclass of it."""
    def __instancecheck__(cls, obj):
        return isinstance(obj, cls._numpy_class)

    def __subclasscheck__(cls, sub):
        return issubclass(sub, cls._numpy_class)


def _taking_ndtile_arrays(np_cls):
    """NumPy's class np_cls, its constructor given NumPy copies of the ndtile
    arrays among its arguments: NumPy's SeedSequence checks the entropy's
    type (int, list, tuple, range, numpy.ndarray), so
    np.random.SeedSequence(np.arange(4)) and np.random.PCG64(seed_array)
    raised TypeError under ndtile, as NumPy's test_smoke's seed_array tests
    found."""
    def __init__(self, *args, **kwargs):
        np_cls.__init__(self, *_C.to_np_tree(args), **_C.to_np_tree(kwargs))
    return _NumPyClassName(np_cls.__name__, (np_cls,), {
        '__init__': __init__, '__doc__': np_cls.__doc__, '__module__': __name__,
        '__qualname__': np_cls.__name__, '_numpy_class': np_cls})


SeedSequence = _taking_ndtile_arrays(_np.random.SeedSequence)
BitGenerator = _np.random.BitGenerator
PCG64 = _taking_ndtile_arrays(_np.random.PCG64)
PCG64DXSM = _taking_ndtile_arrays(_np.random.PCG64DXSM)
MT19937 = _taking_ndtile_arrays(_np.random.MT19937)
Philox = _taking_ndtile_arrays(_np.random.Philox)
SFC64 = _taking_ndtile_arrays(_np.random.SFC64)
