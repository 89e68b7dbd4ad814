"""broadcast_to, broadcast_shapes and broadcast_arrays (NumPy's
lib/_stride_tricks_impl; ndtile.lib.stride_tricks holds as_strided and
sliding_window_view)."""

import builtins
import inspect
import math

import numpy as _np

from . import _convert as C
from . import _core
from ._ndarray import flatiter as _flatiter
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


def _plain_shape(s):
    """s as a shape tuple where it is a Python or NumPy integer or a tuple or
    list of Python ints (no bool: NumPy refuses one), else None."""
    if isinstance(s, (int, _np.integer)) and not isinstance(s, bool):
        return (s,)
    if type(s) in (tuple, list) and all(type(n) is int for n in s):
        return tuple(s)
    return None


def broadcast_shapes(*args):
    shapes = [_plain_shape(s) for s in args]
    if None in shapes:
        # NumPy's shape conversion (a 0-d integer array is one length, an
        # array its lengths; its TypeError for a bool or a float)
        args = [_np.asarray(s) if isinstance(s, Array) else s for s in args]
        return _np.broadcast_shapes(*args)
    try:
        return _core.broadcast_shapes(shapes)
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
    out = []
    for x in xs:
        sub = type(x) is not C.ND and isinstance(x, Array)
        if sub and not subok:
            x = x._view()       # NumPy's np.array(x, copy=None, subok=False): a plain view
        elif x.shape != shape and sub:
            x = C.subclass_like(x._broadcast_to(shape), x)    # subok: the class kept
        if x.shape != shape:
            x = x._broadcast_to(shape)
        if x.shape != xs[len(out)].shape and x._flags & 0x400:
            # NumPy's: a broadcast view of a writeable input warns on its
            # first write (DeprecationWarning) and on reading its WRITEABLE
            # flag (FutureWarning) until that flag is set explicitly
            x._set_warn_on_write(True)
        out.append(x)
    return tuple(out)


class _BroadcastIter(_flatiter):
    """One of a broadcast object's iterators: it walks the operand as
    broadcast to the common shape, and its base is the operand itself, as
    NumPy's."""

    __slots__ = ('_operand',)

    def __init__(self, view, operand):
        super().__init__(view)
        self._operand = operand

    base = property(lambda self: self._operand)
    _nd_flat_array = None       # np.asarray of it: through __array__

    def __len__(self):
        return self._base.size

    def __getitem__(self, key):
        return _flatiter(self._base)[key]


class broadcast:
    """NumPy's broadcast object over ndtile arrays: shape, ndim (nd), size,
    numiter, index, iters (whose bases are the operands themselves, not
    NumPy copies of them), reset(), and iteration over tuples of elements.
    A broadcast object among the arguments gives its operands. Operands of
    a dtype ndtile does not hold make it NumPy's broadcast object."""

    def __new__(cls, *args, **kwargs):
        if kwargs:
            raise ValueError("keyword arguments not accepted.")
        ops = []
        for a in args:
            if isinstance(a, (broadcast, _np.broadcast)):
                ops.extend(it.base for it in a.iters)
            else:
                ops.append(C.asarray(a) if not isinstance(a, (Array, _np.ndarray)) else a)
        # NumPy's checks and messages (at most 64 operands, which ones do
        # not broadcast) on data-free stand-ins
        shape = _np.broadcast(*[_np.broadcast_to(_np.empty((), _np.asarray(o).dtype
                                                          if not isinstance(o, Array)
                                                          else o.dtype), o.shape)
                                for o in ops]).shape
        if not builtins.all(isinstance(o, Array) for o in ops):
            return _np.broadcast(*[C.to_numpy(o) if isinstance(o, Array) else o for o in ops])
        self = super().__new__(cls)
        self._shape = shape
        self._index = 0
        self._iters = tuple(_BroadcastIter(o if o.shape == shape else o._broadcast_to(shape), o)
                            for o in ops)
        return self

    shape = property(lambda self: self._shape)
    ndim = property(lambda self: len(self._shape))
    nd = ndim
    numiter = property(lambda self: len(self._iters))
    iters = property(lambda self: self._iters)
    index = property(lambda self: self._index)

    size = property(lambda self: math.prod(self._shape))

    def reset(self, /):
        self._index = 0
        for it in self._iters:
            it._i = 0

    def __iter__(self):
        return self

    def __repr__(self):
        return f"<ndtile.broadcast object at {id(self):#x}>"

    def __next__(self):
        if self._index >= self.size:
            raise StopIteration
        vals = tuple(next(it) for it in self._iters)
        self._index += 1
        return vals


# NumPy's signature: broadcast(*arrays) (keywords are its ValueError)
broadcast.__signature__ = inspect.Signature(
    [inspect.Parameter('arrays', inspect.Parameter.VAR_POSITIONAL)])
