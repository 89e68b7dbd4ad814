"""ndtile.random: numpy.random's interface on the core's generator.

Random numbers come from libndtile's counter-based Philox4x32-10 (ndt_rng):
the same seed gives the same arrays for any number of workers and any tile
size. Values do not match NumPy's streams; distributions do.

  default_rng(seed) / Generator   random, uniform, standard_normal, normal,
                                  exponential, standard_exponential, gamma,
                                  standard_gamma, poisson, binomial, integers,
                                  choice, permutation, shuffle, spawn,
                                  bit_generator.state
  RandomState(seed) and the       seed, get_state, set_state, rand, randn,
  legacy functions (on one        random, random_sample, ranf, sample,
  module-level RandomState)       randint, uniform, normal, standard_normal,
                                  standard_exponential, exponential, gamma,
                                  standard_gamma, poisson, binomial, choice,
                                  permutation, shuffle

Array parameters: where the distribution is an exact transform of a standard
draw (normal: loc + scale * z, uniform: low + (high - low) * u, exponential
and gamma with an array scale: scale * x) the standard draw comes from the
core and the transform runs as ndtile elementwise operations. Otherwise
(poisson/binomial with arrays, integers with array bounds, gamma and
standard_gamma with an array shape, choice(p=...)), and for the samplers
ndtile does not implement (beta, dirichlet, ...), NumPy's sampler runs on
gathered data with a NumPy generator seeded from one draw of ours, so
results stay reproducible from the seed; these warn as fallbacks.
SeedSequence and NumPy's bit generator classes are NumPy's own (their
constructors given NumPy copies of ndtile arrays: a seed array).

Seeds: None draws from os.urandom; ints and sequences of ints are hashed
(BLAKE2b) into the 64-bit key; NumPy SeedSequences, BitGenerators and
Generators give one 64-bit draw. RandomState/seed() take NumPy's legacy
seeds (ints in [0, 2**32)). Generator.bit_generator (a TilePhilox) has
`state` = {'bit_generator': 'TilePhilox', 'state': {'seed', 'stream',
'draws'}}, settable to replay; get_state()/set_state() use the same dict.

The package by job: _bit_generator (TilePhilox, the seeding rules, NumPy's
bit generator classes), _samplers (the distributions, calling the core),
_generator (Generator, default_rng), _legacy (RandomState and the
module-level functions); this module re-exports them.
"""
import importlib as _importlib

import numpy as _np

from .. import _umath
from ._bit_generator import (  # noqa: F401
    TilePhilox, SeedSequence, BitGenerator, PCG64, PCG64DXSM, MT19937, Philox, SFC64)
from ._generator import Generator, default_rng  # noqa: F401
from ._legacy import _legacy_fallback
from ._legacy import (  # noqa: F401
    RandomState, seed, get_state, set_state, rand, randn, random, random_sample, ranf,
    sample, randint, uniform, normal, standard_normal, standard_exponential, exponential,
    gamma, standard_gamma, poisson, binomial, choice, permutation, shuffle, multinomial,
    multivariate_normal, bytes, random_integers, noncentral_chisquare, noncentral_f,
    negative_binomial, dirichlet, standard_cauchy, standard_t, chisquare, f, beta,
    lognormal, laplace, logistic, gumbel, rayleigh, weibull, pareto, power, triangular,
    wald, geometric)

# the classes under the name users see (as before the split; pickles name
# their reconstructors by their own modules)
for _cls in (TilePhilox, Generator, RandomState):
    _cls.__module__ = __name__
del _cls


# ---- the numpy.random namespace ----------------------------------------
_NATIVE = ()


def __getattr__(name):
    if not name.startswith('_') and callable(getattr(_np.random.RandomState, name, None)) \
            and callable(getattr(_np.random, name, None)):
        f = _legacy_fallback(name)
        globals()[name] = f
        return f
    return _umath.module_getattr('ndtile.random', _np.random, name, globals())


def __dir__():
    return sorted(set(globals()) | set(dir(_np.random)))


# numpy.random.mtrand (RandomState, the legacy functions, _rand) as ours
# (imported by name: `from . import mtrand` would get NumPy's through
# __getattr__)
mtrand = _importlib.import_module('.mtrand', __name__)
