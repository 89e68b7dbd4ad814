"""ndtile.fft: numpy.fft's interface, run natively.

Every transform is a sequence of 1-d transforms along one axis each
(ndt_fft, src/ops/fft.c: our own mixed-radix Cooley-Tukey FFT with
Bluestein's algorithm for large prime factors, computed in double
precision); each line along the axis is transformed whole by one task and
lines are spread over the workers and ranks (on a CUDA device, through
cuFFT: NDTILE_CUDA_CUFFT). fftshift/ifftshift are slices
and a concatenate; fftfreq/rfftfreq are aranges. Inputs of dtypes the core
lacks (other than float16, which is widened to float32 as NumPy's pocketfft
does) fall back to NumPy.
"""
import operator as _op

import numpy as _np

from .. import _core
from .. import _convert as _C
from .. import _fallback as _F

_NATIVE = ('fft', 'ifft', 'rfft', 'irfft', 'hfft', 'ihfft', 'fft2', 'ifft2', 'fftn', 'ifftn',
           'rfft2', 'irfft2', 'rfftn', 'irfftn', 'fftfreq', 'rfftfreq', 'fftshift',
           'ifftshift')

_FORWARD, _BACKWARD, _R2C, _C2R = 0, 1, 2, 3
_SWAP = {'backward': 'forward', None: 'forward', 'ortho': 'ortho', 'forward': 'backward'}
_INTEGER = (int, _np.integer)


def _swap_direction(norm):
    try:
        return _SWAP[norm]
    except (KeyError, TypeError):
        raise ValueError(f'Invalid norm value {norm}; should be "backward", '
                         '"ortho" or "forward".') from None


def _scale(norm, n, forward):
    if not forward:
        norm = _swap_direction(norm)
    if norm is None or norm == 'backward':
        return 1.0
    if norm == 'ortho':
        return 1.0 / _np.sqrt(float(n))
    if norm == 'forward':
        return 1.0 / n
    raise ValueError(f'Invalid norm value {norm}; should be "backward",'
                     '"ortho" or "forward".')


def _as_input(a):
    """a as an ndtile array, or None when NumPy must run the transform."""
    x = _C.asarray(a)
    if isinstance(x, _core.Array):
        return x
    if isinstance(x, _np.ndarray) and x.dtype == _np.float16:
        return _C.asarray(x.astype(_np.float32))
    return None


def _put_out(res, out):
    """Writes res into out (NumPy's out= of the fft ufuncs) and returns out."""
    if out is None:
        return res
    if not _np.can_cast(res.dtype, out.dtype, 'same_kind'):
        raise TypeError(f"Cannot cast ufunc 'fft' output from {res.dtype!r} to "
                        f"{out.dtype!r} with casting rule 'same_kind'")
    if isinstance(out, _core.Array):
        out[...] = res
    else:
        _np.copyto(out, _C.to_numpy(res), casting='unsafe')
    return out


def _raw_fft(name, a, n, axis, kind, norm, out):
    x = _as_input(a)
    if x is None:
        return _F.call(f'fft.{name}', getattr(_np.fft, name), (a,),
                       dict(n=n, axis=axis, norm=norm, out=out))
    if n is None:
        n = x.shape[axis]                 # IndexError for a bad axis, as NumPy
        if kind == _C2R:
            n = (n - 1) * 2
    if n < 1:
        raise ValueError(f"Invalid number of FFT data points ({n}) specified.")
    n = _op.index(n)
    scale = _scale(norm, n, kind in (_FORWARD, _R2C))
    ax = _op.index(axis)
    if ax < -x.ndim or ax >= x.ndim:
        raise _np.exceptions.AxisError(ax, x.ndim)
    if out is not None:
        if not isinstance(out, (_core.Array, _np.ndarray)):
            raise TypeError("return arrays must be of ArrayType")   # NumPy's ufunc
        nout = n // 2 + 1 if kind == _R2C else n
        shape = getattr(out, 'shape', None)
        if shape is not None and (len(shape) != x.ndim or shape[ax] != nout):
            raise ValueError("output array has wrong shape.")
    return _put_out(_core.fft(x, ax, n, kind, scale), out)


def fft(a, n=None, axis=-1, norm=None, out=None):
    """The 1-d discrete Fourier transform (numpy.fft.fft)."""
    return _raw_fft('fft', a, n, axis, _FORWARD, norm, out)


def ifft(a, n=None, axis=-1, norm=None, out=None):
    """The 1-d inverse discrete Fourier transform (numpy.fft.ifft)."""
    return _raw_fft('ifft', a, n, axis, _BACKWARD, norm, out)


def rfft(a, n=None, axis=-1, norm=None, out=None):
    """The 1-d discrete Fourier transform of real input (numpy.fft.rfft)."""
    return _raw_fft('rfft', a, n, axis, _R2C, norm, out)


def irfft(a, n=None, axis=-1, norm=None, out=None):
    """The inverse of rfft (numpy.fft.irfft)."""
    return _raw_fft('irfft', a, n, axis, _C2R, norm, out)


def hfft(a, n=None, axis=-1, norm=None, out=None):
    """The FFT of a signal with Hermitian symmetry (numpy.fft.hfft)."""
    x = _as_input(a)
    if x is None:
        return _F.call('fft.hfft', _np.fft.hfft, (a,), dict(n=n, axis=axis, norm=norm, out=out))
    if n is None:
        n = (x.shape[axis] - 1) * 2
    new_norm = _swap_direction(norm)
    # NumPy 2.4 passes out=None here too: hfft returns a new array
    return irfft(x.conj(), n, axis, norm=new_norm, out=None)


def ihfft(a, n=None, axis=-1, norm=None, out=None):
    """The inverse of hfft (numpy.fft.ihfft)."""
    x = _as_input(a)
    if x is None:
        return _F.call('fft.ihfft', _np.fft.ihfft, (a,),
                       dict(n=n, axis=axis, norm=norm, out=out))
    if n is None:
        n = x.shape[axis]
    new_norm = _swap_direction(norm)
    r = rfft(x, n, axis, norm=new_norm, out=out)
    if out is None:
        return r.conj()
    if isinstance(out, _core.Array):
        _umath.UFUNCS['conjugate'](out, out=out)
    else:
        _np.conjugate(out, out=out)
    return out


def _cook_nd_args(shape, s=None, axes=None, invreal=0):
    if s is None:
        shapeless = True
        if axes is None:
            s = list(shape)
        else:
            s = _np.take(shape, axes).tolist()
    else:
        shapeless = False
    s = list(s)
    if axes is None:
        if not shapeless:
            _F.warn(
                "`axes` should not be `None` if `s` is not `None` (Deprecated in NumPy "
                "2.0). In a future version of NumPy, this will raise an error and `s[i]` "
                "will correspond to the size along the transformed axis specified by "
                "`axes[i]`. To retain current behaviour, pass a sequence [0, ..., k-1] "
                "to `axes` for an array of dimension k.", DeprecationWarning)
        axes = list(range(-len(s), 0))
    if len(s) != len(axes):
        raise ValueError("Shape and axes have different lengths.")
    if invreal and shapeless:
        s[-1] = (shape[axes[-1]] - 1) * 2
    if None in s:
        _F.warn(
            "Passing an array containing `None` values to `s` is deprecated in NumPy 2.0 "
            "and will raise an error in a future version of NumPy. To use the default "
            "behaviour of the corresponding 1-D transform, pass the value matching the "
            "default for its `n` parameter. To use the default behaviour for every axis, "
            "the `s` argument can be omitted.", DeprecationWarning)
    s = [shape[_a] if _s == -1 else _s for _s, _a in zip(s, axes)]
    return s, list(axes)


def _nd(name, a, s, axes, norm, out, function):
    x = _as_input(a)
    if x is None:
        return _F.call(f'fft.{name}', getattr(_np.fft, name), (a,),
                       dict(s=s, axes=axes, norm=norm, out=out))
    s, axes = _cook_nd_args(x.shape, s, axes)
    for ii in reversed(range(len(axes))):
        x = function(x, n=s[ii], axis=axes[ii], norm=norm, out=out)
    return x


def fftn(a, s=None, axes=None, norm=None, out=None):
    """The N-d discrete Fourier transform (numpy.fft.fftn)."""
    return _nd('fftn', a, s, axes, norm, out, fft)


def ifftn(a, s=None, axes=None, norm=None, out=None):
    """The N-d inverse discrete Fourier transform (numpy.fft.ifftn)."""
    return _nd('ifftn', a, s, axes, norm, out, ifft)


def fft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """The 2-d discrete Fourier transform (numpy.fft.fft2)."""
    return _nd('fft2', a, s, axes, norm, out, fft)


def ifft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """The 2-d inverse discrete Fourier transform (numpy.fft.ifft2)."""
    return _nd('ifft2', a, s, axes, norm, out, ifft)


def rfftn(a, s=None, axes=None, norm=None, out=None):
    """The N-d discrete Fourier transform of real input (numpy.fft.rfftn)."""
    x = _as_input(a)
    if x is None:
        return _F.call('fft.rfftn', _np.fft.rfftn, (a,), dict(s=s, axes=axes, norm=norm,
                                                                 out=out))
    s, axes = _cook_nd_args(x.shape, s, axes)
    x = rfft(x, s[-1], axes[-1], norm, out=out)
    for ii in range(len(axes) - 2, -1, -1):
        x = fft(x, s[ii], axes[ii], norm, out=out)
    return x


def rfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """The 2-d discrete Fourier transform of real input (numpy.fft.rfft2)."""
    return rfftn(a, s, axes, norm, out=out)


def irfftn(a, s=None, axes=None, norm=None, out=None):
    """The inverse of rfftn (numpy.fft.irfftn)."""
    x = _as_input(a)
    if x is None:
        return _F.call('fft.irfftn', _np.fft.irfftn, (a,), dict(s=s, axes=axes, norm=norm,
                                                                   out=out))
    s, axes = _cook_nd_args(x.shape, s, axes, invreal=1)
    for ii in range(len(axes) - 1):
        x = ifft(x, s[ii], axes[ii], norm)
    return irfft(x, s[-1], axes[-1], norm, out=out)


def irfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """The inverse of rfft2 (numpy.fft.irfft2)."""
    return irfftn(a, s, axes, norm, out=None)


def _shift(name, x, axes, sign):
    a = _C.asarray(x)
    if not isinstance(a, _core.Array):
        return _F.call(f'fft.{name}', getattr(_np.fft, name), (x,), dict(axes=axes))
    if axes is None:
        axes = tuple(range(a.ndim))
        shift = [sign * (dim // 2) for dim in a.shape]
    elif isinstance(axes, _INTEGER):
        shift = sign * (a.shape[axes] // 2)
    else:
        shift = [sign * (a.shape[ax] // 2) for ax in axes]
    if a.ndim == 0:    # as np.roll fails on a 0-d array
        raise ValueError("not enough values to unpack (expected 2, got 0)")
    return _numeric.roll(a, shift, axes)


def fftshift(x, axes=None):
    """Shifts the zero-frequency term to the centre (numpy.fft.fftshift)."""
    return _shift('fftshift', x, axes, 1)


def ifftshift(x, axes=None):
    """The inverse of fftshift (numpy.fft.ifftshift)."""
    return _shift('ifftshift', x, axes, -1)


from .._array_api import _check_device  # noqa: E402  (NumPy's device= rule)
from .. import _multiarray
from .. import _numeric
from .. import _umath


def fftfreq(n, d=1.0, device=None):
    """The sample frequencies of fft (numpy.fft.fftfreq)."""
    if not isinstance(n, _INTEGER):
        raise ValueError("n should be an integer")
    if n < 0:
        raise ValueError("negative dimensions are not allowed")
    _check_device(device)
    val = 1.0 / (n * d)
    N = (n - 1) // 2 + 1
    results = _multiarray.concatenate([_multiarray.arange(0, N, dtype=int),
                                  _multiarray.arange(-(n // 2), 0, dtype=int)])
    return results * val


def rfftfreq(n, d=1.0, device=None):
    """The sample frequencies of rfft (numpy.fft.rfftfreq)."""
    if not isinstance(n, _INTEGER):
        raise ValueError("n should be an integer")
    _check_device(device)
    val = 1.0 / (n * d)
    N = n // 2 + 1
    return _multiarray.arange(0, N, dtype=int) * val


def __getattr__(name):
    return _umath.module_getattr('ndtile.fft', _np.fft, name, globals())


def __dir__():
    return sorted(set(globals()) | set(dir(_np.fft)))
