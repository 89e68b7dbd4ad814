"""The window functions (NumPy's lib/_function_base_impl): bartlett,
blackman, hamming, hanning."""

import operator
import sys

import numpy as _np

from . import _fallback as F


def _nt():
    return sys.modules['ndtile']


# ---- window functions --------------------------------------------------------


def _window_n(M):
    # NumPy computes with M as a float64 (np.array([0.0, M])[1]): a
    # fractional M gives its own window, not int(M)'s
    return float(M) if isinstance(M, (float, _np.floating)) else operator.index(M)


def _numpy_window(M, npf):
    """NumPy's window for an M of a float dtype ndtile does not hold
    (longdouble: its result has that dtype, a NumPy array), else None."""
    if isinstance(M, _np.floating) and M.dtype.itemsize > 8:
        return F.call(f"{npf.__name__} (dtype)", npf, (M,), {})
    return None


def bartlett(M):
    nt = _nt()
    r = _numpy_window(M, _np.bartlett)
    if r is not None:
        return r
    M = _window_n(M)
    if M < 1:
        return nt.asarray(_np.array([], dtype=_np.result_type(M, 0.0)))
    if M == 1:
        return nt.ones(1, float)
    n = nt.arange(1 - M, M, 2)
    return nt.where(nt.less_equal(n, 0), 1 + n / (M - 1), 1 - n / (M - 1))


def _cosine_window(M, coefs, npf):
    nt = _nt()
    r = _numpy_window(M, npf)
    if r is not None:
        return r
    M = _window_n(M)
    if M < 1:
        return nt.asarray(_np.array([], dtype=_np.result_type(M, 0.0)))
    if M == 1:
        return nt.ones(1, dtype=_np.result_type(M, 0.0))
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
