"""The array API standard's inspection namespace: ndtile.__array_namespace_info__().

The answers are ndtile's own (its dimension limit, the dtypes its core
holds); they match NumPy's where ndtile and NumPy agree. Devices: the host
("cpu") now; a GPU backend, when there is one, adds its devices to
devices() (arrays' .device and to_device then name them too).
"""
import numpy as _np

from . import _core

__array_api_version__ = "2024.12"

# the most dimensions an ndtile array may have (NDT_MAXDIMS in ndtile.h)
MAX_DIMS = _core.MAXDIMS

_KINDS = {
    'bool': ('bool',),
    'signed integer': ('int8', 'int16', 'int32', 'int64'),
    'unsigned integer': ('uint8', 'uint16', 'uint32', 'uint64'),
    'real floating': ('float32', 'float64'),
    'complex floating': ('complex64', 'complex128'),
}
_KINDS['integral'] = _KINDS['signed integer'] + _KINDS['unsigned integer']
_KINDS['numeric'] = _KINDS['integral'] + _KINDS['real floating'] + _KINDS['complex floating']


def _devices():
    # the host is "cpu"; a simulated device (NDTILE_SIMDEVICE) is host
    # memory and no device arrays can be placed on, so it is not one
    return ['cpu']


def _check_device(device):
    if device is not None and device not in _devices():
        raise ValueError(f'Device not understood. Only "cpu" is allowed, but received: {device}')


class __array_namespace_info__:
    """Inspection of ndtile's array API namespace (capabilities, default
    dtypes, dtypes, devices)."""

    __module__ = 'ndtile'

    def capabilities(self):
        return {"boolean indexing": True, "data-dependent shapes": True,
                "max dimensions": MAX_DIMS}

    def default_device(self):
        return 'cpu'

    def default_dtypes(self, *, device=None):
        _check_device(device)
        return {"real floating": _np.dtype(_np.float64),
                "complex floating": _np.dtype(_np.complex128),
                "integral": _np.dtype(_np.intp), "indexing": _np.dtype(_np.intp)}

    def dtypes(self, *, device=None, kind=None):
        _check_device(device)
        if kind is None:
            names = ('bool',) + _KINDS['numeric']
        elif isinstance(kind, str):
            if kind not in _KINDS:
                raise ValueError(f"unsupported kind: {kind!r}")
            names = _KINDS[kind]
        elif isinstance(kind, tuple):
            names = ()
            for k in kind:
                if not isinstance(k, str) or k not in _KINDS:
                    raise ValueError(f"unsupported kind: {k!r}")
                names += tuple(n for n in _KINDS[k] if n not in names)
        else:
            raise TypeError(f"kind must be a str or a tuple of str, not {type(kind).__name__}")
        order = ('bool',) + _KINDS['numeric']
        return {n: _np.dtype(n) for n in order if n in names}

    def devices(self):
        return _devices()

