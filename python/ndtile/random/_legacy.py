"""RandomState and the module-level legacy functions (numpy.random.rand,
seed, ...), which run on one module-level RandomState."""


import numpy as _np

from .. import _convert as _C
from .. import _fallback as F
from .. import _core
from .. import _dtypes as _D
from .._multiarray import zeros as _zeros
from ._bit_generator import _NAME, _as_bitgen, _bitgen_from_state, _legacy_seed64
from ._samplers import _Sampler, _require_int

_Array = _core.Array


class RandomState(_Sampler):
    """numpy.random.RandomState's interface on ndtile's Philox. Seeds are
    NumPy's legacy ones (None or ints in [0, 2**32)); the streams are not
    MT19937's."""

    _kind = 'RandomState'
    _legacy = True
    _np_class = _np.random.RandomState

    def __init__(self, seed=None):
        self._bit_generator = _as_bitgen(seed, legacy=True)

    def __reduce__(self):
        return _randomstate_from_state, (self._bit_generator.state,)

    def seed(self, seed=None):
        self._rng.set_state((_legacy_seed64(seed), 0, 0))

    def get_state(self, legacy=True):
        """The state as a dict (the legacy MT19937 tuple does not exist for
        this generator, so `legacy` has no effect)."""
        return self._bit_generator.state

    def set_state(self, state):
        if isinstance(state, dict) and ('bit_generator' not in state or 'state' not in state):
            raise ValueError('state dictionary is not valid.')
        if not isinstance(state, dict):
            if isinstance(state, (tuple, list)) and state and state[0] == 'MT19937':
                raise ValueError(f'state must be for a {_NAME} RNG')
            raise TypeError('state must be a dict or a tuple.')
        self._bit_generator.state = state

    def random_sample(self, size=None):
        return self._float_draw('random_sample', self._rng.random, size, _np.float64, None)

    def random(self, size=None):
        return self.random_sample(size)

    def rand(self, *args):
        return self.random_sample(args if args else None)

    def randn(self, *args):
        return self.standard_normal(args if args else None)

    def standard_normal(self, size=None):
        return self._float_draw('standard_normal', self._rng.standard_normal, size,
                                _np.float64, None)

    def standard_exponential(self, size=None):
        return self.exponential(1.0, size)

    def standard_gamma(self, shape, size=None):
        return self.gamma(shape, 1.0, size)

    def uniform(self, low=0.0, high=1.0, size=None):
        return self._uniform(low, high, size, True)

    def multinomial(self, n, pvals, size=None):
        # NumPy's legacy signature: n one integer, pvals one 1-d sequence
        # (an empty one draws nothing); Generator's broadcasts both
        if _np.ndim(n) != 0:
            raise TypeError("only 0-dimensional arrays can be converted to Python scalars"
                            if isinstance(n, (_np.ndarray, _Array)) else
                            "an integer is required")
        _require_int(n)     # (NumPy's C long argument)
        # NumPy converts pvals to float64 of at most one axis, then asks for one
        # (a sequence; an array of more is "too deep", below)
        if not isinstance(pvals, (_Array, _np.ndarray)):
            if _np.ndim(pvals) > 1:
                raise ValueError("setting an array element with a sequence. The requested "
                                 "array would exceed the maximum number of dimension of 1.")
            _np.asarray(_C.to_np_tree(pvals), dtype=_np.float64)    # its conversion errors
        nd = _np.ndim(pvals)
        if nd == 0:
            raise TypeError("pvals must be a 1-d sequence")
        if nd > 1:
            raise ValueError("object too deep for desired array")
        if _np.shape(pvals)[0] == 0:
            if n < 0:
                raise ValueError("n < 0")
            shape = () if size is None else tuple(_np.atleast_1d(_np.asarray(size, _np.intp)))
            return _zeros(shape + (0,), _np.int64)
        return super().multinomial(int(n), pvals, size)

    def random_integers(self, low, high=None, size=None):
        if high is None:
            F.warn(f"This function is deprecated. Please call randint(1, {low} + 1) "
                   f"instead", DeprecationWarning)
            high, low = low, 1
        else:
            F.warn(f"This function is deprecated. Please call randint({low}, {high} + 1) "
                   f"instead", DeprecationWarning)
        return self._integers('random_integers', low, high, size, int, True)

    def randint(self, low, high=None, size=None, dtype=int):
        return self._integers('randint', low, high, size, dtype, False)

    def choice(self, a, size=None, replace=True, p=None):
        return self._choice(a, size, replace, p, 0, {})

    def permutation(self, x):
        return self._permutation(x, 0)

    def shuffle(self, x):
        return self._shuffle(x, 0)


def _randomstate_from_state(state):
    rs = RandomState.__new__(RandomState)
    rs._bit_generator = _bitgen_from_state(state)
    return rs


# The legacy functions: methods of one module-level RandomState, seeded from
# OS entropy (seed() reseeds it in place).
_rand = RandomState()
seed = _rand.seed
get_state = _rand.get_state
set_state = _rand.set_state
rand = _rand.rand
randn = _rand.randn
random = _rand.random
random_sample = ranf = sample = _rand.random_sample
randint = _rand.randint
uniform = _rand.uniform
normal = _rand.normal
standard_normal = _rand.standard_normal
standard_exponential = _rand.standard_exponential
exponential = _rand.exponential
gamma = _rand.gamma
standard_gamma = _rand.standard_gamma
poisson = _rand.poisson
binomial = _rand.binomial
choice = _rand.choice
permutation = _rand.permutation
shuffle = _rand.shuffle
multinomial = _rand.multinomial
multivariate_normal = _rand.multivariate_normal
bytes = _rand.bytes
random_integers = _rand.random_integers
noncentral_chisquare = _rand.noncentral_chisquare
noncentral_f = _rand.noncentral_f
negative_binomial = _rand.negative_binomial
dirichlet = _rand.dirichlet
standard_cauchy = _rand.standard_cauchy
standard_t = _rand.standard_t
chisquare = _rand.chisquare
f = _rand.f
beta = _rand.beta
lognormal = _rand.lognormal
laplace = _rand.laplace
logistic = _rand.logistic
gumbel = _rand.gumbel
rayleigh = _rand.rayleigh
weibull = _rand.weibull
pareto = _rand.pareto
power = _rand.power
triangular = _rand.triangular
wald = _rand.wald
geometric = _rand.geometric


def _legacy_fallback(name):
    """numpy.random.<name> for a legacy sampler ndtile lacks: NumPy's
    RandomState method, seeded from one draw of the module generator."""
    npfunc = getattr(_np.random, name)

    def fallback(*args, **kwargs):
        return _rand._fallback(name, args, kwargs, qual=f"random.{name}")
    fallback.__name__ = name
    fallback.__qualname__ = name
    fallback.__doc__ = npfunc.__doc__
    fallback.__wrapped__ = npfunc
    fallback.__ndtile_fallback__ = True
    return fallback
