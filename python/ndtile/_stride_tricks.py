"""broadcast_to, broadcast_shapes and broadcast_arrays (NumPy's
lib/_stride_tricks_impl; ndtile.lib.stride_tricks holds as_strided and
sliding_window_view)."""

import builtins

import numpy as _np

from . import _convert as C
from . import _core
from ._umath import _nd_or_fallback

Array = _core.Array


def broadcast_to(array, shape, subok=False):
    xs, fb = _nd_or_fallback('broadcast_to', _np.broadcast_to, (array, shape), {}, array)
    if fb is not None:
        return fb
    # NumPy: tuple(shape) if np.iterable(shape) else (shape,), then ints
    if isinstance(shape, Array):
        shape = C.to_numpy(shape)
    shape = tuple(shape) if _np.iterable(shape) else (shape,)
    if not shape and xs[0].shape:
        raise ValueError('cannot broadcast a non-scalar to a scalar array')
    if builtins.any(size < 0 for size in shape):
        raise ValueError('all elements of broadcast shape must be non-negative')
    if xs[0].ndim > len(shape):
        raise ValueError("input operand has more dimensions than allowed by the axis remapping")
    r = xs[0]._broadcast_to(shape)
    r._set_writeable(False)      # NumPy's broadcast_to is a read-only view
    return C.subclass_like(r, array) if subok else r


def broadcast_shapes(*args):
    try:
        return _core.broadcast_shapes([(s,) if isinstance(s, (int, _np.integer)) else tuple(s)
                                       for s in args])
    except ValueError:
        return _np.broadcast_shapes(*args)      # NumPy's message (which argument)


def broadcast_arrays(*args, subok=False):
    xs, fb = _nd_or_fallback('broadcast_arrays', _np.broadcast_arrays, args, {}, *args)
    if fb is not None:
        return fb
    try:
        shape = _core.broadcast_shapes([x.shape for x in xs])
    except ValueError:
        _np.broadcast_shapes(*[x.shape for x in xs])     # NumPy's message
        raise
    return tuple(x if x.shape == shape else x._broadcast_to(shape) for x in xs)
