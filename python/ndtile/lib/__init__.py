"""ndtile.lib: numpy.lib's interface. stride_tricks is ndtile's (views that
share memory with their base); every other name is numpy.lib's own object
(submodules, classes) or, for functions, NumPy's version on gathered data
with a fallback warning."""
import numpy as _np

from .. import _fallback as _F
from .. import _umath
from . import stride_tricks  # noqa: F401


def __getattr__(name):
    return _umath.module_getattr('ndtile.lib', _np.lib, name, globals())
