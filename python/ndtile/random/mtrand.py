"""ndtile.random.mtrand: numpy.random.mtrand's names on ndtile's generator.

NumPy's `numpy.random.mtrand` is where `RandomState` and the legacy
functions live (`numpy.random.mtrand.RandomState is
numpy.random.RandomState`, and `mtrand._rand` is the module-level
RandomState the legacy functions draw from); code such as emcee's
`np.random.mtrand.RandomState().set_state(np.random.get_state())` and
scikit-learn's `np.random.mtrand._rand` uses it. Here they are ndtile.random's
own objects; the names ndtile.random takes from NumPy (hypergeometric,
get_bit_generator, ...) come the same way as from ndtile.random.
"""
import sys as _sys

import numpy as _np

# the module-level RandomState (private, so named here); every public name
# of NumPy's mtrand is ndtile.random's (RandomState, the legacy functions,
# the ones ndtile.random takes from NumPy), through __getattr__ below
from ._legacy import _rand  # noqa: F401


def __getattr__(name):
    if name.startswith('_') or not hasattr(_np.random.mtrand, name):
        raise AttributeError(f"module 'ndtile.random.mtrand' has no attribute {name!r}")
    return getattr(_sys.modules[__package__], name)


def __dir__():
    return sorted(set(globals()) | {n for n in dir(_np.random.mtrand) if not n.startswith('_')})
