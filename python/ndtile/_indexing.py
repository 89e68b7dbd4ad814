"""Indexing beyond what the C binding does itself (ints, slices, None,
Ellipsis): integer-array and boolean indexing, and values that need NumPy's
conversion rules.

Reads that index every axis with integers and integer arrays, and reads
through a boolean mask of the array's shape, run in the core (ndt_gather).
Other advanced reads, and advanced writes, go through NumPy: the array is
gathered, indexed there and converted back (or assigned there and written
back). A boolean mask of the array's own shape with a scalar value is
assigned in the core (a where).
"""
import numpy as _np

from . import _core
from . import _dtypes as D
from . import _convert as C

Array = _core.Array
_INT_SCALARS = D.INT_SCALAR_TYPES


def _component(k):
    """0-d integer arrays act as integers (NumPy's rule)."""
    if isinstance(k, Array):
        if k.ndim == 0 and D.KIND[k._dt] in 'iu':
            return int(k._item())
        return k
    if isinstance(k, _np.ndarray) and k.ndim == 0 and k.dtype.kind in 'iu':
        return int(k)
    return k


def _slice_ok(s):
    for part in (s.start, s.stop, s.step):
        if part is None:
            continue
        if isinstance(part, (bool, _np.bool_, Array)) or not hasattr(part, '__index__'):
            raise TypeError("slice indices must be integers or None or have an __index__ "
                            "method")
    return True


def _is_basic(k):
    return (k is None or k is Ellipsis or (isinstance(k, slice) and _slice_ok(k)) or
            (isinstance(k, (int, _np.integer)) and not isinstance(k, (bool, _np.bool_))))


def normalize(key):
    """(key with 0-d integer arrays replaced, is_basic)."""
    if isinstance(key, tuple):
        key = tuple(_component(k) for k in key)
        return key, all(_is_basic(k) for k in key)
    key = _component(key)
    return key, _is_basic(key)


def _np_key(key):
    if isinstance(key, tuple):
        return tuple(C.to_numpy(k) if isinstance(k, Array) else k for k in key)
    if isinstance(key, Array):
        return C.to_numpy(key)
    return key


def _int_array(k):
    """k as an ndtile integer array if it is an integer array or list, else None."""
    if isinstance(k, Array):
        return k if D.KIND[k._dt] in 'iu' else None
    if isinstance(k, _np.ndarray):
        return C.from_numpy(k) if k.dtype.kind in 'iu' and D.code(k.dtype) is not None else None
    if isinstance(k, list) and k:
        arr = _np.asarray(k)
        return C.from_numpy(arr) if arr.dtype.kind in 'iu' else None
    return None


def _gather(a, key):
    """a[key] in the core when key indexes every axis with integers and
    integer arrays (or is a boolean mask of a's shape); None otherwise."""
    from . import _manip as M, _reduce as R
    mask = _mask_of(key, a.shape)
    if mask is not None and a.ndim:
        cols = M.argwhere(mask)
        return _core.gather(a, [cols[:, k] for k in range(a.ndim)])
    parts = key if isinstance(key, tuple) else (key,)
    if len(parts) != a.ndim or not a.ndim:
        return None
    arrays = []
    for k in parts:
        if isinstance(k, (int, _np.integer)) and not isinstance(k, (bool, _np.bool_)):
            arrays.append(C.from_numpy(_np.asarray(k, dtype=_np.int64)))
            continue
        ix = _int_array(k)
        if ix is None:
            return None
        arrays.append(ix)
    if not any(isinstance(k, (Array, _np.ndarray, list)) for k in parts):
        return None
    try:
        arrays = list(M.broadcast_arrays(*arrays))
    except ValueError:
        shapes = " ".join(str(tuple(ix.shape)).replace(",)", ",)") for ix in arrays)
        raise IndexError("shape mismatch: indexing arrays could not be broadcast together "
                         f"with shapes {shapes}") from None
    for ax, (ix, n) in enumerate(zip(arrays, a.shape)):
        if ix.size:
            lo, hi = int(R.min(ix)), int(R.max(ix))
            bad = hi if hi >= n else lo if lo < -n else None
            if bad is not None:
                raise IndexError(f"index {bad} is out of bounds for axis {ax} with size {n}")
            if lo < 0:
                ix = M.where(ix < 0, ix + n, ix)
        arrays[ax] = ix
    return _core.gather(a, arrays)


def getitem(a, key):
    """Array.__getitem__ for keys the C binding does not parse."""
    key, basic = normalize(key)
    if basic:
        return Array.__getitem__(a, key)
    res = _gather(a, key)
    if res is not None:
        return res
    res = C.to_numpy(a)[_np_key(key)]
    if isinstance(res, _np.ndarray):
        return C.np_or_nd(res)
    return res


def _value_array(value, dtype):
    """value as an ndtile array to assign into an array of `dtype`, with
    NumPy's conversion rules (OverflowError for out-of-range Python ints,
    ValueError for NaN into integers, ...)."""
    if isinstance(value, Array):
        return value
    if isinstance(value, _np.ndarray):
        arr = value
    else:
        arr = _np.asarray(C.to_np_tree(value) if isinstance(value, (list, tuple)) else value,
                          dtype=dtype)
    r = C.asarray(arr)
    if not isinstance(r, Array):
        r = C.from_numpy(arr.astype(dtype))
    return r


def _mask_of(key, shape):
    """The key as a boolean mask of exactly `shape`, or None."""
    k = key[0] if isinstance(key, tuple) and len(key) == 1 else key
    if isinstance(k, Array) and k._dt == D.BOOL and k.shape == shape:
        return k
    if isinstance(k, _np.ndarray) and k.dtype == _np.bool_ and k.shape == shape and k.ndim:
        return C.from_numpy(k)
    return None


def setitem(a, key, value, delete=False):
    """Array.__setitem__ for what the C binding does not handle."""
    if delete:
        raise ValueError("cannot delete array elements")
    key, basic = normalize(key)
    if basic:
        v = a._view_index(key)
        v._assign(_value_array(value, a.dtype), 4)
        return
    mask = _mask_of(key, a.shape)
    if mask is not None and a.ndim:
        val = _value_array(value, a.dtype)
        if val.size == 1 and val.ndim <= 1:
            from ._ufunc import WHERE
            if val._dt != a._dt:
                val = val._astype(a._dt, 4)
            _core.apply(WHERE, [mask, val, a], a)
            return
    npa = C.to_numpy(a)
    npa[_np_key(key)] = C.to_np_tree(value) if C.has_nd(value) else value
    a._assign(C.from_numpy(npa), 4)
