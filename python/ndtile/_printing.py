"""repr and str with exactly NumPy's text.

Small arrays are gathered and formatted by NumPy. For arrays above NumPy's
print threshold only the items NumPy shows are gathered: along every axis
longer than 2*edgeitems, the first and last edgeitems plus one filler item
(never shown) in between. NumPy formats that small array with summarisation
forced on, which gives the same text as the whole array would (NumPy picks
the number format from the shown items only); repr adds the real shape.
"""
import numpy as _np

from . import _convert as C
from ._multiarray import concatenate

try:
    from numpy._core.arrayprint import dtype_is_implied, dtype_short_repr
except ImportError:    # pragma: no cover
    dtype_is_implied = dtype_short_repr = None


def _edges(a, edge):
    """A NumPy array with the edge items of a (2*edge+1 along long axes)."""
    x = a
    for k, n in enumerate(a.shape):
        if n > 2 * edge:
            pre = (slice(None),) * k
            head = x._view_index(pre + (slice(0, edge + 1),))
            tail = x._view_index(pre + (slice(n - edge, n),))
            x = concatenate([head, tail], axis=k)
    return C.to_numpy(x)


def _legacy(opts):
    leg = opts.get('legacy', False)
    return leg is not False and leg is not None


_NAMED = {}


def _named(name):
    """A NumPy ndarray subclass of this name: NumPy's repr of a subclass
    instance starts with its class name."""
    t = _NAMED.get(name)
    if t is None:
        t = _NAMED[name] = type(name, (_np.ndarray,), {})
    return t


def array_repr(a):
    opts = _np.get_printoptions()
    sub = type(a).__name__ if type(a) is not C.ND else None
    if a.size <= opts['threshold'] or _legacy(opts) or dtype_is_implied is None or \
            opts.get('override_repr') is not None:
        x = C.to_numpy(a)
        return repr(x if sub is None else x.view(_named(sub)))
    small = _edges(a, opts['edgeitems'])
    prefix = "array(" if sub is None else sub + "("
    lst = _np.array2string(small, opts['linewidth'], None, None, ', ', prefix, suffix=")",
                           threshold=0)
    extras = [f"shape={a.shape}"]
    if not dtype_is_implied(a.dtype):
        extras.append(f"dtype={dtype_short_repr(a.dtype)}")
    arr_str = prefix + lst + ","
    extra_str = ", ".join(extras) + ")"
    last_line_len = len(arr_str) - (arr_str.rfind('\n') + 1)
    spacer = " "
    if last_line_len + len(extra_str) + 1 > opts['linewidth']:
        spacer = '\n' + ' ' * len(prefix)
    return arr_str + spacer + extra_str


def array_str(a):
    opts = _np.get_printoptions()
    if a.ndim == 0:
        return str(a._scalar())
    if a.size <= opts['threshold'] or _legacy(opts):
        return str(C.to_numpy(a))
    small = _edges(a, opts['edgeitems'])
    return _np.array2string(small, opts['linewidth'], None, None, ' ', "", threshold=0)
