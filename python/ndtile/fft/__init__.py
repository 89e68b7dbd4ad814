"""ndtile.fft: numpy.fft's interface. For now every transform runs NumPy's
version on gathered data (with a fallback warning) and returns ndtile
arrays."""
import numpy as _np

from .. import _fallback as _F

_NATIVE = ()


def __getattr__(name):
    return _F.module_getattr('ndtile.fft', _np.fft, name, globals())


def __dir__():
    return sorted(set(globals()) | set(dir(_np.fft)))
