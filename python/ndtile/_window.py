"""The window functions (NumPy's lib/_function_base_impl): bartlett,
blackman, hamming, hanning."""

import sys

import numpy as _np

from . import _fallback as F


def _nt():
    return sys.modules['ndtile']


# ---- window functions --------------------------------------------------------


def _window_m(M, npf):
    """NumPy's M: values = np.array([0.0, M]), M = values[1] (a 0-d array,
    bool or fractional M too: a fractional M gives its own window, not
    int(M)'s); (M, None) for a float64 M, else (None, NumPy's window), for
    the dtypes of M ndtile does not compute in (longdouble: its result has
    that dtype, a NumPy array; complex)."""
    values = _np.array([0.0, M])
    if values.dtype != _np.float64:
        return None, F.call(f"{npf.__name__} (dtype)", npf, (M,), {})
    return values[1], None


def bartlett(M):
    nt = _nt()
    M, r = _window_m(M, _np.bartlett)
    if r is not None:
        return r
    if M < 1:
        return nt.zeros(0, float)
    if M == 1:
        return nt.ones(1, float)
    n = nt.arange(1 - M, M, 2)
    return nt.where(nt.less_equal(n, 0), 1 + n / (M - 1), 1 - n / (M - 1))


def _cosine_window(M, coefs, npf):
    nt = _nt()
    M, r = _window_m(M, npf)
    if r is not None:
        return r
    if M < 1:
        return nt.zeros(0, float)
    if M == 1:
        return nt.ones(1, float)
    n = nt.arange(1 - M, M, 2)
    w = coefs[0]
    for j, c in enumerate(coefs[1:], start=1):
        w = w + c * nt.cos(j * nt.pi * n / (M - 1))
    return w


def blackman(M):
    return _cosine_window(M, (0.42, 0.5, 0.08), _np.blackman)


def hamming(M):
    return _cosine_window(M, (0.54, 0.46), _np.hamming)


def hanning(M):
    return _cosine_window(M, (0.5, 0.5), _np.hanning)
