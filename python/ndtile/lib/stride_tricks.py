"""ndtile.lib.stride_tricks: as_strided and sliding_window_view as real
ndtile views of their argument's store (writes through a writeable one show
in the base, np.shares_memory is True), as NumPy's are views of its buffer.

The bounds rule: a view that would reach an element outside its array's
store (the memory of the array it was made from and of every view of it) is
refused with a ValueError, never read or written out of bounds. NumPy lets
as_strided reach anywhere and reads whatever lies there.

Strides are bytes, as in NumPy; a stride that is not a whole number of the
store's elements (a view that would cut elements apart) cannot be an ndtile
view: as_strided then runs NumPy's on a gathered copy of the array's memory,
from the array's byte position (a fallback warning; the result does not
share memory). The stride of an axis of length 1 is never used."""
import operator

import numpy as _np
from numpy.lib import stride_tricks as _nst

from .. import _core
from .. import _convert as _C
from .. import _fallback as _F
from .. import _umath

_Array = _core.Array
_NATIVE = ('as_strided', 'sliding_window_view')
_WARN_ON_WRITE = 0x80000000     # NumPy's private flag (np.broadcast_arrays results)


def _nd(x):
    if isinstance(x, _Array):
        return x
    r = _C.asarray(x)
    return r if isinstance(r, _Array) else None


def as_strided(x, shape=None, strides=None, subok=False, writeable=True):
    """NumPy's as_strided: a view of x's memory with the given shape and
    byte strides (see the module's bounds rule)."""
    if isinstance(x, _np.ndarray) and not isinstance(x, _Array):
        return _nst.as_strided(x, shape, strides, subok, writeable)
    a = _nd(x)
    if a is None:
        return _F.call('lib.stride_tricks.as_strided', _nst.as_strided,
                       (x, shape, strides, subok, writeable), {})
    shape = tuple(a.shape) if shape is None else tuple(operator.index(n) for n in shape)
    strides = tuple(a.strides) if strides is None else \
        tuple(operator.index(s) for s in strides)
    if len(strides) != len(shape):
        raise ValueError("mismatch in length of strides and shape")
    ssz = a._store_itemsize
    # the stride of an axis of length 1 is never used: any value will do
    strides = tuple(0 if n == 1 and s % ssz else s for n, s in zip(shape, strides))
    if any(s % ssz for s in strides):
        # NumPy's on a gathered copy of a's whole store, from a's byte
        # position (NumPy's on a gathered copy of a read other memory where
        # a is a view with another layout); out of the store: ValueError
        whole = a if a.itemsize == ssz else a._base     # .real/.imag: the complex store
        store = _C.to_numpy(_core.as_strided(whole, 0, (a._store_size,), (1,)))
        boff = a._offset * ssz + a._part
        return _F.call('lib.stride_tricks.as_strided (strides within elements)',
                       _bytes_view, (store, boff, a.dtype, shape, strides), {})
    r = _core.as_strided(a, a._offset, shape, tuple(s // ssz for s in strides))
    if not writeable or a._flags & _WARN_ON_WRITE:
        # NumPy's view comes through x's __array_interface__, read-only for
        # a broadcast_arrays result (whatever writeable says)
        r._set_writeable(False)
    return _subok(r, x, subok)


def _subok(r, x, subok):
    """NumPy's subok: the view of a subclass instance x is of its class
    (finalized from x) with subok=True, a plain array without."""
    if type(x) is _C.ND or not isinstance(x, _Array):
        return r
    if subok:
        return _C.subclass_like(r if type(r) is _C.ND else r._view(), x)
    return r if type(r) is _C.ND else r._view()


def _bytes_view(store, boff, dtype, shape, strides):
    try:
        return _np.ndarray(shape, dtype, buffer=store, offset=boff, strides=strides)
    except (ValueError, TypeError) as e:
        raise ValueError(f"as_strided: the view would reach outside its array's memory ({e})") \
            from None


def sliding_window_view(x, window_shape, axis=None, *, subok=False, writeable=False):
    """NumPy's sliding_window_view: a view with one extra axis per window
    axis, stepping as the windowed axis does (read-only unless writeable)."""
    if isinstance(x, _np.ndarray) and not isinstance(x, _Array):
        return _nst.sliding_window_view(x, window_shape, axis, subok=subok,
                                        writeable=writeable)
    a = _nd(x)
    if a is None:
        return _F.call('lib.stride_tricks.sliding_window_view', _nst.sliding_window_view,
                       (x, window_shape, axis), {'subok': subok, 'writeable': writeable})
    # NumPy's checks and layout, on a stand-in that holds no data: one byte
    # per store element, so its byte strides are a's element strides (only
    # its shape and strides are looked at, nothing is read)
    probe = _nst.as_strided(_np.zeros(1, _np.uint8), tuple(a.shape), tuple(a._estrides))
    v = _nst.sliding_window_view(probe, window_shape, axis)
    r = _core.as_strided(a, a._offset, v.shape, v.strides)
    if not writeable or a._flags & _WARN_ON_WRITE:     # NumPy's as_strided (above)
        r._set_writeable(False)
    return _subok(r, x, subok)


def __getattr__(name):
    if name in ('broadcast_to', 'broadcast_arrays', 'broadcast_shapes'):
        import ndtile            # ndtile's own (views), as numpy.lib's are numpy's
        return getattr(ndtile, name)
    return _umath.module_getattr('ndtile.lib.stride_tricks', _nst, name, globals())
