"""array_repr, array_str and array2string (NumPy's _core.arrayprint) on
gathered data; ndarray's own repr and str are _printing's."""

import numpy as _np

from . import _convert as C
from . import _core

Array = _core.Array


# ---- text and files: host work by nature -------------------------------------


def _text(npfunc, native, a, max_line_width, precision, suppress_small):
    """ndtile's own repr/str (which gathers only the printed items) when no
    option is given; NumPy's function on the gathered array otherwise."""
    x = C.asarray(a)
    if isinstance(x, Array) and max_line_width is None and precision is None and \
            suppress_small is None:
        return native(x)
    return npfunc(C.to_numpy(x) if isinstance(x, Array) else x, max_line_width, precision,
                  suppress_small)


def array_repr(arr, max_line_width=None, precision=None, suppress_small=None):
    return _text(_np.array_repr, repr, arr, max_line_width, precision, suppress_small)


def array_str(a, max_line_width=None, precision=None, suppress_small=None):
    return _text(_np.array_str, str, a, max_line_width, precision, suppress_small)


def array2string(a, *args, **kwargs):
    x = C.asarray(a)
    return _np.array2string(C.to_numpy(x) if isinstance(x, Array) else x, *args, **kwargs)


array2string.__wrapped__ = _np.array2string     # (inspect.signature: NumPy's)
