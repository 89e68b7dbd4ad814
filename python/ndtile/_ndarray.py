"""ndtile.ndarray: numpy.ndarray's interface over a tiled array.

The type derives from the C type _core.Array, which holds the ndt_array
handle and implements the hot paths (operators with arrays and Python
scalars, basic indexing, shape/dtype). Everything else is here; methods
that ndtile does not implement run NumPy's on gathered data (see
_fallback), with a warning.
"""

import builtins
import dis as _dis
import functools
import math
import operator
import sys as _sys
import types as _types
import weakref

import numpy as _np

from . import _convert as C
from . import _core
from . import _dtypes as D
from . import _fallback as F
from . import _foreign
from . import _order as O
from . import _printing as P
from . import _fromnumeric
from . import _multiarray
from . import _umath
import inspect
import warnings

Array = _core.Array
_NoValue = _np._NoValue


def _dummy(a):
    """A zero-memory NumPy array of a's shape and dtype (to raise NumPy's
    own errors for conversions of arrays that are not size 1)."""
    return _np.broadcast_to(_np.zeros((), a.dtype), a.shape)


_FLAT_BAD = ("only integers, slices (`:`), ellipsis (`...`) and integer or boolean arrays "
             "are valid indices")
_FLAT_BOOL = ("boolean indices for iterators are not supported because of previous behavior "
              "that was confusing (valid boolean indices are expected to work in the future)")


def _flat_index_error(e, key, n):
    """An out-of-bounds index into the raveled array in NumPy's flatiter
    words ("index 10 is out of bounds for size 6": it has no axis), naming
    the first bad index of an index array in C order, as NumPy's flatiter
    (indexing the raveled array checks another order)."""
    msg = str(e)
    if " out of bounds for axis 0 " in msg and isinstance(key, (Array, _np.ndarray)) and \
            key.ndim and key.dtype.kind in 'iu':
        return IndexError(f"index {_fromnumeric._first_out_of_bounds(key, n)[1]} is out of "
                          f"bounds for size {n}")
    return IndexError(msg.replace(" for axis 0 with size ", " for size "))


class flatiter:
    """a.flat: iteration and indexing over the C-order flattened array.
    Indexing it gives copies (NumPy's flatiter never returns a view)."""

    __slots__ = ('_base', '_i', '_data')

    def __init__(self, base):
        self._base = base
        self._i = 0
        self._data = None

    # NumPy's flatiter is its own iterator; base, index and coords are
    # read-only (the data is gathered once, at the first next())
    base = property(lambda self: self._base)
    index = property(lambda self: self._i)

    @property
    def coords(self):
        """The C-order coordinates of index (past the end: the first
        axis counts on, as NumPy's do)."""
        i, out = self._i, []
        for n in reversed(self._base.shape[1:]):
            out.append(i % n if n else 0)
            i = i // n if n else 0
        if self._base.ndim:
            out.append(i)
        return tuple(reversed(out))

    def __iter__(self):
        return self

    def __next__(self):
        if self._data is None:
            self._data = C.to_numpy(self._base).ravel()
        if self._i >= self._data.size:
            raise StopIteration
        self._i += 1
        return self._data[self._i - 1]

    def __len__(self):
        return self.base.size

    def __delitem__(self, key):
        raise TypeError("Cannot delete iterator elements")

    def __array__(self, dtype=None, /, *, copy=None):      # NumPy's signature
        r = C.to_numpy(self.base).ravel().astype(dtype) if dtype else \
            C.to_numpy(self.base).ravel()
        if not (self.base._flags & _WRITEABLE and self.base._c_contiguous):
            # NumPy's is a view of a writeable contiguous array, else a
            # read-only copy
            r.flags.writeable = False
        return r

    def _nd_flat_array(self):
        """np.asarray(a.flat) as NumPy's iter_array makes it: a 1-d view of a
        C-contiguous base (with its flags: writes reach the base), else a
        read-only copy in C order."""
        b = self._base
        if b._c_contiguous:
            return b._reshape((b.size,))
        r = b._ravel('C')
        if r._same_store(b):
            r = r._copy()
        r._set_writeable(False)
        return r

    def _key(self, key, assign):
        """key as NumPy 2.4's flatiter reads it (its rules are not an
        array's): (key, skip) with skip true when a False index selects
        nothing."""
        if isinstance(key, tuple):
            if not key:
                if assign:
                    raise IndexError("Assigning to a flat iterator with a 0-D index is not "
                                     "supported")
                return Ellipsis, False
            if len(key) > 1:
                raise IndexError(f"too many indices for flat iterator: flat iterator is "
                                 f"1-dimensional, but {len(key)} were indexed")
            key = key[0]
        if type(key) is bool or (isinstance(key, (Array, _np.ndarray)) and key.ndim == 0 and
                                 key.dtype == _np.bool_):
            F.warn("Indexing flat iterators with a 0-dimensional boolean index is "
                   "deprecated and may be removed in a future version. (Deprecated "
                   "NumPy 2.4)", DeprecationWarning)
            return (0, False) if bool(key) else (slice(0, 0), True)
        if isinstance(key, _np.bool_) or key is None or isinstance(key, (str, bytes)):
            raise IndexError(_FLAT_BOOL if isinstance(key, _np.bool_) else _FLAT_BAD)
        if isinstance(key, (Array, _np.ndarray)) and key.ndim == 0 and key.dtype.kind in 'iu':
            key = int(key)      # NumPy's flatiter takes a 0-d integer array as an integer
        if isinstance(key, (int, _np.integer)) and not -self.base.size <= key < self.base.size:
            raise IndexError(f"index {key} is out of bounds for size {self.base.size}")
        if isinstance(key, (float, _np.floating)):
            F.warn("Invalid non-array indices for iterator objects are deprecated and "
                   "will be removed in a future version. (Deprecated NumPy 2.4)",
                   DeprecationWarning)
            return int(key), False
        if isinstance(key, (flatiter, _np.flatiter)):
            arr = _np.asarray(key)
            if arr.dtype.kind in 'SUO':
                if arr.size:
                    raise IndexError(_FLAT_BAD)
                return arr.astype(_np.intp), False
            return key.copy(), False
        if isinstance(key, list):
            arr = _np.asarray(key)
            if arr.dtype == _np.bool_:
                raise IndexError(_FLAT_BOOL)
            if arr.dtype.kind == 'f' and arr.size:
                F.warn("Invalid non-array indices for iterator objects are deprecated "
                       "and will be removed in a future version. (Deprecated NumPy 2.4)",
                       DeprecationWarning)
                return arr.astype(_np.intp), False
            return (arr.astype(_np.intp) if arr.size == 0 else key), False
        if isinstance(key, (Array, _np.ndarray)) and key.dtype == _np.bool_ and key.ndim > 1:
            # NumPy counts an n-d mask as n indices, before any size check
            raise IndexError(f"too many indices for flat iterator: flat iterator is "
                             f"1-dimensional, but {key.ndim} were indexed")
        if isinstance(key, (Array, _np.ndarray)) and key.dtype == _np.bool_ and \
                key.size != self.base.size:
            raise IndexError(f"boolean index did not match indexed flat iterator along axis "
                             f"0; size of axis is {self.base.size} but size of corresponding "
                             f"boolean axis is {key.size}")
        return key, False

    def __getitem__(self, key):
        base = self.base
        key, _ = self._key(key, False)
        try:
            r = base._ravel('C')[key]
        except IndexError as e:
            raise _flat_index_error(e, key, base.size) from None
        if isinstance(r, Array) and (r._same_store(base) or not r._c_contiguous):
            # NumPy's is a new C-contiguous array (a stepped slice of the
            # gathered copy of a non-contiguous base is not: its ravel
            # would copy where NumPy's is a view)
            r = r._copy()
        if type(base) is not ndarray and type(r) is ndarray:
            r = _finalize_as(r, base)
        return r

    def __setitem__(self, key, value):
        base = self.base
        if not base._flags & _WRITEABLE:
            raise ValueError("underlying array is read-only")
        base._before_write()     # NumPy's warning for a broadcast_arrays result, on base
        k0 = key[0] if isinstance(key, tuple) and len(key) == 1 else key
        key, skip = self._key(key, True)
        if skip:
            return
        # one element by an integer (a Python or NumPy integer, a float or a
        # 0-d integer array): NumPy's flatiter packs the value itself and
        # turns any failure into this ValueError (iter_ass_subscript)
        boolean = isinstance(k0, (bool, _np.bool_)) or getattr(k0, 'dtype', None) == _np.bool_
        if boolean and type(key) is int and key == 0:
            # a True 0-d boolean index: NumPy 2.4 writes element 0, packing
            # the value itself with its own errors (TypeError for a list,
            # OverflowError out of range; not the ValueError of an integer
            # index)
            one = _np.empty(1, base.dtype)
            with warnings.catch_warnings():
                warnings.simplefilter('ignore', DeprecationWarning)
                one.flat[_np.array(True)] = C.to_numpy(value) if isinstance(value, Array) \
                    else value
            base[(0,) * base.ndim] = one[0]      # (element 0 in C order)
            return
        single = not boolean and (
            isinstance(key, (int, _np.integer)) or
            (isinstance(key, (Array, _np.ndarray)) and key.ndim == 0 and
             key.dtype.kind in 'iu'))
        if not single:
            # NumPy converts the value as np.asarray(value, dtype=a.dtype)
            # does (a forced cast: uint8(200) into int8 is -56, a Python
            # 300 still OverflowError), then takes its elements cyclically
            if not isinstance(value, Array):
                value = _np.asarray(C.to_np_tree(value) if C.has_nd(value) else value,
                                    dtype=base.dtype)
            vnd = value.ndim
            if vnd:
                value = self._cycled(key, value)
                if value is None:
                    return
        pos = None if base.ndim < 2 or base._c_contiguous else self._positions(key, single)
        if pos is not None:
            # a base that ravels to a copy: only the elements the key selects,
            # each gathered once (u) and written as flat[key] = value would
            # write them, then put back in the key's order (where base's
            # elements share memory, an as_strided view with a 0 stride, the
            # last write wins, as in NumPy's flatiter)
            u, inv = _np.unique(pos.ravel(), return_inverse=True)
            sel = base[_np.unravel_index(u, base.shape)]
            try:
                sel[int(inv[0]) if single else inv.reshape(pos.shape)] = value
            except Exception:           # noqa: BLE001 - NumPy replaces any error
                if not single:
                    raise
                raise ValueError("Error setting single item of array.") from None
            base[_np.unravel_index(pos.ravel(), base.shape)] = sel[inv.ravel()]
            return
        try:
            flat = base._ravel('C')
            if flat._same_store(base):
                flat[key] = value
                return
            flat[key] = value          # a copy: write it back
        except IndexError as e:
            if not single:
                raise _flat_index_error(e, key, base.size) from None
            raise ValueError("Error setting single item of array.") from None
        except Exception:           # noqa: BLE001 - NumPy replaces any error
            if not single:
                raise
            raise ValueError("Error setting single item of array.") from None
        if base.ndim == 0:
            base._assign(flat._reshape(()), _core.CASTING_UNSAFE)
            return
        # only the elements the key selects: the others of the copy would
        # write their old values over the new ones where base's elements
        # share memory (an as_strided view with a 0 stride)
        pos = _np.arange(base.size, dtype=_np.intp)[
            C.to_numpy(key) if isinstance(key, Array) else key]
        base[_np.unravel_index(pos, base.shape)] = flat[key]

    def _positions(self, key, single):
        """The flat (C-order) positions in base that key selects, a NumPy
        intp array of the selection's shape, computed from the key alone
        (O(selected elements)); None for a key this does not read (an
        index out of bounds: the caller's general path raises NumPy's
        error)."""
        n = self.base.size
        if isinstance(key, slice):
            return _np.arange(*key.indices(n), dtype=_np.intp)
        if key is Ellipsis:
            return _np.arange(n, dtype=_np.intp)
        if single:
            k = int(key)
            return _np.array(k + n if k < 0 else k, dtype=_np.intp) if -n <= k < n else None
        k = C.to_numpy(key) if isinstance(key, Array) else _np.asarray(key)
        if k.dtype == _np.bool_:
            return _np.flatnonzero(k) if k.ndim == 1 and k.size == n else None
        if k.dtype.kind not in 'iu' or (k.size and (k.min() < -n or k.max() >= n)):
            return None
        k = k.astype(_np.intp)
        return _np.where(k < 0, k + n, k)

    def _cycled(self, key, value):
        """The value NumPy's flatiter writes into the elements `key`
        selects: the value's elements in C order, taken cyclically (as
        np.put does), whatever its shape; None for an empty value (nothing
        is written)."""
        base = self.base
        v = C.asarray(value, base.dtype)
        v = v.ravel()
        if v.size == 0:
            return None
        if isinstance(key, slice):
            shape = (len(range(*key.indices(base.size))),)
        elif key is Ellipsis:
            shape = (base.size,)
        else:
            k = C.to_numpy(key) if isinstance(key, Array) else _np.asarray(key)
            shape = (int(_np.count_nonzero(k)),) if k.dtype == _np.bool_ else k.shape
        n = math.prod(shape)
        if v.size != n:
            v = v[_np.arange(n, dtype=_np.intp) % v.size]
        return v.reshape(shape)

    def copy(self, /):
        r = self.base._ravel('C')
        return r._copy() if r._same_store(self.base) else r


# NumPy's flag bits (ndarray.flags.num); _core.Array._flags gives the first five
_C, _F, _OWNDATA, _ALIGNED, _WRITEABLE, _WRITEBACKIFCOPY = 0x1, 0x2, 0x4, 0x100, 0x400, 0x2000
_WARN_ON_WRITE = 0x80000000     # NumPy's private flag (np.broadcast_arrays results)
_NP_FLAGS = type(_np.empty(0).flags)
_FLAG_KEYS = {
    'C': 'c_contiguous', 'C_CONTIGUOUS': 'c_contiguous', 'CONTIGUOUS': 'c_contiguous',
    'F': 'f_contiguous', 'F_CONTIGUOUS': 'f_contiguous', 'FORTRAN': 'f_contiguous',
    'O': 'owndata', 'OWNDATA': 'owndata', 'W': 'writeable', 'WRITEABLE': 'writeable',
    'A': 'aligned', 'ALIGNED': 'aligned', 'X': 'writebackifcopy',
    'WRITEBACKIFCOPY': 'writebackifcopy', 'B': 'behaved', 'BEHAVED': 'behaved',
    'CA': 'carray', 'CARRAY': 'carray', 'FA': 'farray', 'FARRAY': 'farray', 'FNC': 'fnc',
    'FORC': 'forc'}


class flagsobj:
    """a.flags: NumPy's flags object. Like NumPy's, it holds the flags as
    they were when it was made (setting one through it updates both)."""

    __slots__ = ('_a', '_f')

    def __init__(self, a):
        self._a = a
        self._f = a._flags

    c_contiguous = property(lambda self: bool(self._f & _C))
    f_contiguous = property(lambda self: bool(self._f & _F))
    owndata = property(lambda self: bool(self._f & _OWNDATA))
    aligned = property(lambda self: bool(self._f & _ALIGNED),
                       lambda self, v: self._set('aligned', v))
    writebackifcopy = property(lambda self: False,
                               lambda self, v: self._set('writebackifcopy', v))
    contiguous = c_contiguous
    fortran = f_contiguous
    fnc = property(lambda self: bool(self._f & _F) and not self._f & _C)
    forc = property(lambda self: bool(self._f & (_F | _C)))
    behaved = property(lambda self: self._f & (_ALIGNED | _WRITEABLE) == _ALIGNED | _WRITEABLE)
    carray = property(lambda self: self.behaved and bool(self._f & _C))
    # what NumPy's flagsobj answers (its farray is true for every array that
    # is not C-contiguous, whatever its other flags)
    farray = property(lambda self: not self._f & _C)
    # NumPy's num is a C int: WARN_ON_WRITE (bit 31) makes it negative
    num = property(lambda self: self._f - (1 << 32) if self._f & _WARN_ON_WRITE else self._f)

    @property
    def writeable(self):
        if self._f & _WARN_ON_WRITE:
            F.warn("future versions will not create a writeable array from "
                   "broadcast_array. Set the writable flag explicitly to avoid "
                   "this warning.", FutureWarning)
        return bool(self._f & _WRITEABLE)

    def _get_warn_on_write(self):
        raise AttributeError("attribute '_warn_on_write' of 'numpy._core.multiarray.flagsobj' "
                             "objects is not readable")

    def _set_warn_on_write(self, value):
        # NumPy's private setter: it only sets the flag
        if not value:
            raise ValueError("cannot clear '_warn_on_write', set writeable True to clear "
                             "this private flag")
        self._a._set_warn_on_write(True)
        self._f = self._a._flags

    _warn_on_write = property(_get_warn_on_write, _set_warn_on_write)

    @writeable.setter
    def writeable(self, value):
        self._set('writeable', value)

    def _set(self, name, value):
        self._a.setflags(**{'write' if name == 'writeable' else
                            'align' if name == 'aligned' else 'uic': value})
        self._f = self._a._flags

    def __getitem__(self, key):
        name = _FLAG_KEYS.get(key) if isinstance(key, str) else None
        if name is None:
            raise KeyError("Unknown flag")
        return getattr(self, name)

    def __setitem__(self, key, value):
        name = _FLAG_KEYS.get(key) if isinstance(key, str) else None
        if name not in ('writeable', 'aligned', 'writebackifcopy'):
            raise KeyError("Unknown flag")
        self._set(name, value)

    def __eq__(self, other):
        if type(other) is _NP_FLAGS:
            return self.num == other.num   # NumPy's flags of a NumPy array: the same bits
        if not isinstance(other, flagsobj):
            return NotImplemented
        return self._f == other._f

    __hash__ = None

    def __repr__(self):
        # NumPy's, without the FutureWarning of reading writeable
        warn = "  (with WARN_ON_WRITE=True)" if self._f & _WARN_ON_WRITE else ""
        return "\n".join(f"  {n.upper()} : " + (f"{bool(self._f & _WRITEABLE)}{warn}"
                                                 if n == 'writeable' else f"{getattr(self, n)}")
                         for n in ('c_contiguous', 'f_contiguous', 'owndata', 'writeable',
                                   'aligned', 'writebackifcopy')) + "\n"


_Flags = flagsobj


def _reconstruct(npa):
    if npa.ndim > 1 and npa.flags.f_contiguous and not npa.flags.c_contiguous:
        r = C.np_or_nd(npa.T)     # a Fortran-ordered pickle: NumPy's layout back
        r = O._owned_t(r) if isinstance(r, Array) else npa
    else:
        r = C.np_or_nd(npa)
    if isinstance(r, Array) and not npa.flags.writeable:
        # protocol 5 of a read-only array: NumPy's is read-only again (its
        # data comes in a read-only buffer)
        r.flags.writeable = False
    return r


def _reconstruct_transposed(npa, axes):
    """A transposed C-contiguous array pickled with protocol 5: the
    contiguous data's array, its axes put back (NumPy's _frombuffer with
    axis_order)."""
    return _reconstruct(npa)._transpose(axes)


def _reconstruct_inband(reduced):
    """A non-contiguous array pickled with protocol 5: NumPy's in-band
    recipe (its __reduce__) of the data, as NumPy pickles such an array."""
    f, args, state = reduced
    npa = f(*args)
    npa.__setstate__(state)
    return _reconstruct(npa)


def _state_data(state):
    """The array of NumPy's pickled state ((version,) shape, dtype,
    is_fortran, rawdata), with NumPy's errors."""
    if not isinstance(state, tuple) or len(state) not in (4, 5):
        n = len(state) if isinstance(state, tuple) else 0
        raise TypeError(f"__setstate__() argument 1 must be sequence of length 4, not {n}")
    shape, dtype, fortran, raw = state[-4:]
    dtype = _np.dtype(dtype)
    if not isinstance(raw, (bytes, bytearray, memoryview)):
        raise TypeError(f"ndtile arrays cannot hold dtype {dtype}")    # (object arrays: a list)
    shape = tuple(shape)
    if len(raw) != math.prod(shape) * dtype.itemsize:
        raise ValueError("buffer size does not match array size")
    return _np.frombuffer(raw, dtype).reshape(shape, order='F' if fortran else 'C')


def _reconstruct_sub(cls, shape, dtype):
    """Unpickling a subclass instance: an empty array of its class
    (__array_finalize__(None), as NumPy's unpickling calls it); the data
    comes with __setstate__."""
    return _finalize_as(_multiarray.empty(shape, dtype), None, cls, True)


_ASTYPE_CODES = {}     # (type, dtype argument) -> core code: scalar types and dtypes


def _astype_code(dtype):
    """The core code of astype's dtype argument when it is a type or a
    numpy.dtype that ndtile holds (cached), else None."""
    t = type(dtype)
    if t is not type and not isinstance(dtype, _np.dtype):
        return None
    key = (t, dtype)
    c = _ASTYPE_CODES.get(key)
    if c is None:
        try:
            c = D.code(D.as_dtype(dtype))
        except Exception:
            return None
        if c is not None:
            _ASTYPE_CODES[key] = c
    return c


class ndarray(Array):
    """An N-dimensional array split into tiles; operations on it run as
    tasks on all cores. Behaves like numpy.ndarray."""

    __slots__ = ()
    __array_priority__ = 20.0

    def __class_getitem__(cls, item):
        """NumPy's `ndarray[shape, dtype]` for type annotations
        (`np.ndarray[Any, np.dtype[np.float64]]`): a types.GenericAlias."""
        n = len(item) if type(item) is tuple else 1
        if n == 0 or n > 2:
            # NumPy names the type by its tp_name: 'numpy.ndarray', a
            # subclass's bare name
            name = 'ndtile.ndarray' if cls is ndarray else cls.__name__
            raise TypeError(f"Too {'many' if n > 2 else 'few'} arguments for {name}")
        return _types.GenericAlias(cls, item)

    def __new__(cls, shape, dtype=float, buffer=None, offset=0, strides=None, order=None):
        r = None
        # an ndtile array of sizes or strides: its values, as NumPy reads an array's
        if isinstance(shape, Array):
            shape = C.to_numpy(shape)
        if isinstance(strides, Array):
            strides = C.to_numpy(strides)
        if buffer is None and strides is None:
            r = _multiarray.empty(shape, dtype)
        elif buffer is not None:
            # NumPy's is a view of the buffer's memory: shared where the core
            # can hold it (C-contiguous, as frombuffer), else a copy
            npa = _np.ndarray(shape, dtype, buffer, offset, strides, order)
            c = D.code(npa.dtype) if npa.dtype.isnative else None
            if c is not None and npa.size and (npa.flags.c_contiguous or
                                               npa.flags.f_contiguous):
                # (order='F': the transpose of the C-ordered memory, shared too)
                f = not npa.flags.c_contiguous
                t = npa.T if f else npa
                r = _multiarray.lend_buffer(t, buffer, offset, c)
                if r is not None:
                    if tuple(r.shape) != t.shape:
                        r = r._reshape(t.shape)
                    if f:
                        r = r._transpose(None)
                    r._set_base(buffer)
            if r is None:
                # a dtype ndtile does not hold ('>i4', float16): NumPy's view;
                # else a copy, flagged as NumPy's view (.base the buffer)
                r = npa if c is None else _multiarray.copy_of_buffer(npa, buffer)
        else:
            r = C.np_or_nd(_np.ndarray(shape, dtype, buffer, offset, strides, order).copy())
        if cls is not ndarray and isinstance(r, Array):
            # NumPy's explicit constructor: an instance of cls, then
            # __array_finalize__(None)
            r = _finalize_as(r, None, cls, True)
        return r

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        _adopt_subclass(cls)

    def __array_finalize__(self, /, obj):
        """NumPy's hook for subclasses, called with the object a new
        instance comes from (None from the explicit constructor)."""

    # ---- NumPy protocols ------------------------------------------------------
    def __array__(self, /, dtype=None, copy=None):
        if copy is False:
            raise ValueError("Unable to avoid copy while creating an array as requested: the "
                             "data of an ndtile array lives in tiles")
        a = C.to_numpy(self)
        if dtype is not None and _np.dtype(dtype) != a.dtype:
            a = a.astype(dtype)
        elif copy is None and not self._flags & _WRITEABLE:
            # NumPy's a.__array__() is a itself: read-only where a is
            a.flags.writeable = False
        elif copy is None and self._flags & _WARN_ON_WRITE:
            a.flags._warn_on_write = True     # and a write into it warns
        return a

    def __array_ufunc__(self, /, ufunc, method, *inputs, **kwargs):
        # NumPy's default: NotImplemented when another operand overrides
        # __array_ufunc__ (a subclass must pass plain arrays to super())
        if method not in ('__call__', 'reduce', 'accumulate', 'reduceat', 'outer', 'at'):
            # NumPy calls getattr(ufunc, method): a TypeError for a method
            # that is not a string, an AttributeError for an unknown one
            return getattr(ufunc, method)(*inputs, **kwargs)
        if method == '__call__' and len(inputs) == 2 and not kwargs and ufunc in _REFLECTED:
            r = _reflected_compare(ufunc, inputs)
            if r is not NotImplemented:
                return r
        where = kwargs.get('where', True)
        for x in inputs + _outs(kwargs.get('out')) + ((where,) if where is not True else ()):
            t = type(x)
            if t is ndarray or t in _SCALARS:
                continue
            if isinstance(x, Array):
                if _overrides_ufunc(t):
                    return NotImplemented
            elif not isinstance(x, _np.ndarray) and \
                    getattr(t, '__array_ufunc__', _NP_AU) is not _NP_AU:
                # another library's override (or __array_ufunc__ = None)
                return NotImplemented
        u = ufunc if isinstance(ufunc, _umath.ufunc) else _umath.wrap_numpy_ufunc(ufunc)
        return _ufunc_default(u, method, inputs, kwargs)

    def __array_function__(self, /, func, types, args, kwargs):
        return _foreign.array_function(func, types, args, kwargs)

    def __array_namespace__(self, /, *, api_version=None):
        # NumPy's checks of the version asked for (the standard's releases it implements)
        if api_version is not None and not isinstance(api_version, str):
            raise ValueError("Only None and strings are allowed as the Array API version, "
                             f"but received: {api_version}.")
        if api_version is not None and api_version not in ('2021.12', '2022.12', '2023.12',
                                                           '2024.12'):
            raise ValueError(f'Version "{api_version}" of the Array API Standard '
                             'is not supported.')
        return _sys.modules[__package__]     # the ndtile namespace (this module is below it)

    def __dlpack__(self, /, *, stream=None, max_version=None, dl_device=None, copy=None):
        a = C.dlpack_source(self, copy)
        kw = {}
        if max_version is not None:
            kw['max_version'] = max_version
        if dl_device is not None:
            kw['dl_device'] = dl_device
        return a.__dlpack__(stream=stream, **kw)

    def __dlpack_device__(self, /):
        return (1, 0)    # kDLCPU

    @property
    def device(self):
        return 'cpu'

    def to_device(self, device, /, *, stream=None):
        # NumPy's checks, in its order
        if stream is not None:
            raise ValueError("The stream argument in to_device() is not supported")
        if device != 'cpu':
            raise ValueError(f"Unsupported device: {device}. Only 'cpu' is accepted.")
        return self

    # ---- printing ---------------------------------------------------------------
    def __repr__(self, /):
        return P.array_repr(self)

    def __str__(self, /):
        return P.array_str(self)

    def __format__(self, spec):
        if self.ndim == 0:
            return format(self._scalar(), spec)
        if spec == '':
            return str(self)
        return format(_dummy(self), spec)

    # ---- conversions --------------------------------------------------------------
    def __bool__(self, /):
        if self.size == 1:
            return bool(self._item())
        return bool(_dummy(self))

    def __int__(self, /):
        if self.size == 1:
            return int(C.to_numpy(self))     # NumPy's rules (complex -> float raises)
        return int(_dummy(self))

    def __float__(self, /):
        if self.size == 1:
            return float(C.to_numpy(self))     # NumPy's rules (complex -> float raises)
        return float(_dummy(self))

    def __complex__(self, /):
        if self.size == 1:
            return complex(C.to_numpy(self))     # NumPy's rules (complex -> float raises)
        return complex(_dummy(self))

    def __index__(self, /):
        if self.ndim == 0 and D.KIND[self._dt] in 'iu':
            return int(self._item())
        raise TypeError("only integer scalar arrays can be converted to a scalar index")

    def __len__(self, /):
        if self.ndim == 0:
            raise TypeError("len() of unsized object")
        return self.shape[0]

    def __iter__(self, /):
        if type(self) is not ndarray:     # np.ndarray.__iter__(s): the subclass's
            return _SubclassBase.__iter__(self)
        if self.ndim == 0:
            raise TypeError("iteration over a 0-d array")
        if self.ndim == 1:
            return iter(C.to_numpy(self))
        return (self._view_index(i) for i in range(self.shape[0]))

    def __contains__(self, value):
        return bool(_fromnumeric.any(self == value))

    def __copy__(self, /):
        if type(self) is not ndarray:     # np.ndarray.__copy__(s): the subclass's
            return _SubclassBase.__copy__(self)
        return O.order_copy(self, 'K')     # NumPy's copy(order='K'): F order stays

    def __deepcopy__(self, /, memo):
        if type(self) is not ndarray:     # np.ndarray.__deepcopy__(s): the subclass's
            return _SubclassBase.__deepcopy__(self, memo)
        return O.order_copy(self, 'K')

    def __reduce__(self, /):
        if type(self) is not ndarray:
            # a subclass: its class, and the data as the state (a tuple, so
            # that NumPy's recipe of appending attributes to it works)
            return (_reconstruct_sub, (type(self), self.shape, self.dtype),
                    (C.to_numpy(self),))
        if self.ndim > 1 and O.is_f_only(self):
            # Fortran-ordered: pickled in its layout, as NumPy's
            return (_reconstruct, (C.to_numpy(self._transpose(None)).T,))
        return (_reconstruct, (C.to_numpy(self),))

    def __reduce_ex__(self, protocol, /):
        if protocol < 5 or type(self) is not ndarray:
            return self.__reduce__()
        # NumPy's protocol 5: a contiguous (C or F) array's data as an
        # out-of-band PickleBuffer, read-only where the array is; another
        # array's in-band (NumPy's __reduce__)
        if self.ndim > 1 and O.is_f_only(self):
            npa = C.to_numpy(self._transpose(None)).T
        else:
            npa = C.to_numpy(self)
        if not self._flags & (_C | _F):
            # NumPy's too where a permutation of the axes is C-contiguous (by
            # strides, largest first): that transpose's data, transposed back
            perm = sorted(range(self.ndim), key=lambda k: -abs(self.strides[k]))
            t = self._transpose(tuple(perm))
            if not t._c_contiguous:
                return (_reconstruct_inband, (npa.__reduce__(),))
            npa = C.to_numpy(t)
            if not self._flags & _WRITEABLE:
                npa.flags.writeable = False
            return (_reconstruct_transposed, (npa, tuple(perm.index(k) for k in range(self.ndim))))
        if not self._flags & _WRITEABLE:
            npa.flags.writeable = False
        return (_reconstruct, (npa,))

    def __setstate__(self, /, state):
        """ndtile's state (a tuple of the data, a NumPy array) or NumPy's
        ((version,) shape, dtype, is_fortran, rawdata): the array takes the
        state's shape, dtype and data, as NumPy's (a subclass's __reduce__
        that builds an empty instance and appends its attributes to the
        state: quantities, the pickling recipe of NumPy's users)."""
        data = state[0] if isinstance(state, tuple) and state else state
        if not isinstance(data, _np.ndarray):
            data = _state_data(state)
        if data.shape == self.shape and data.dtype == self.dtype:
            self._assign(C.from_numpy(data), _core.CASTING_UNSAFE)
            return
        if D.code(data.dtype) is None:
            raise TypeError(f"ndtile arrays cannot hold dtype {data.dtype}")
        self._become(C.from_numpy(data))

    # operators not in the C slots
    def __matmul__(self, other):
        if not isinstance(other, Array) and _umath.binop_defers(self, other, False):
            return NotImplemented
        return _umath.UFUNCS['matmul'](self, other)

    def __rmatmul__(self, other):
        return _umath.UFUNCS['matmul'](other, self)

    def __imatmul__(self, other):
        if not isinstance(other, Array) and _umath.binop_defers(self, other, True):
            return NotImplemented
        if self.ndim >= 1 and getattr(type(other), '__array_ufunc__', 0) is not None and \
                _np.ndim(other) < 2:
            # NumPy's a @= b keeps a's shape: a matrix (stack) on the right
            raise ValueError("inplace matrix multiplication requires the first operand to "
                             "have at least one and the second at least two dimensions.")
        return _umath.UFUNCS['matmul'](self, other, out=self)

    def __divmod__(self, other):
        # NumPy's binop deferral, as the C slots' operators (an object with
        # __array_ufunc__ = None or a higher __array_priority__ gets its
        # __rdivmod__)
        if not isinstance(other, Array) and _umath.binop_defers(self, other, False):
            return NotImplemented
        return _umath.UFUNCS['divmod'](self, other)

    def __rdivmod__(self, other):
        return _umath.UFUNCS['divmod'](other, self)

    # ---- attributes -------------------------------------------------------------------
    @property
    def T(self):
        return self._transpose(None)

    @property
    def mT(self):
        if self.ndim < 2:
            raise ValueError("matrix transpose with ndim < 2 is undefined")
        return self._swapaxes(-1, -2)

    @property
    def real(self):
        if D.KIND[self._dt] != 'c':
            return self        # NumPy: a real array's .real is the array itself
        return self._real()

    @real.setter
    def real(self, value):
        # NumPy writes into a real array itself (its broadcast_arrays flag
        # cleared by the warning), into a complex one's real-part view
        (self if D.KIND[self._dt] != 'c' else self._real())[...] = value

    @property
    def imag(self):
        r = self._imag()
        if D.KIND[self._dt] != 'c':
            r._set_writeable(False)   # NumPy: the zeros of a real array are read-only
        return r

    @imag.setter
    def imag(self, value):
        if D.KIND[self._dt] != 'c':
            raise TypeError("array does not have imaginary part to set")
        self._imag()[...] = value

    @property
    def flat(self):
        return flatiter(self)

    @flat.setter
    def flat(self, value):
        if not self._flags & _WRITEABLE:
            raise ValueError("array is read-only")
        self._before_write()     # NumPy's warning for a broadcast_arrays result
        self.flat[...] = value

    @property
    def strides(self):
        """Byte strides: NumPy's C-order strides for a C-contiguous array,
        else the view's steps through its (C-order) store."""
        isz = self.itemsize
        if self.size == 0:
            return (0,) * self.ndim
        ssz = self._store_itemsize     # a .real/.imag view steps whole complex elements
        if ssz != isz:
            return tuple(s * ssz for s in self._estrides)
        if self._c_contiguous:
            out = []
            st = isz
            for n in reversed(self.shape):
                out.append(st)
                if n:
                    st *= n
            return tuple(reversed(out))
        return tuple(s * isz for s in self._estrides)

    @strides.setter
    def strides(self, value):
        # NumPy 2.4's (deprecated) setter: the same memory seen with other
        # strides, in place; strides that reach outside the memory of the
        # array's owner are its ValueError
        F.warn("Setting the strides on a NumPy array has been deprecated in NumPy "
               "2.4.\nAs an alternative, you can create a new view using "
               "np.lib.stride_tricks.as_strided.", DeprecationWarning)
        try:
            st = (operator.index(value),) if not isinstance(value, (tuple, list)) else \
                tuple(operator.index(s) for s in value)
        except TypeError:
            raise TypeError("invalid strides") from None
        if len(st) != self.ndim:
            raise ValueError(f"strides must be  same length as shape ({self.ndim})")
        if self.size == 0:
            return          # NumPy: any strides of an empty array (it reads nothing)
        ssz = self._store_itemsize
        # the stride of an axis of length 1 is never used
        st = tuple(0 if n == 1 else s for n, s in zip(self.shape, st))
        if self.itemsize != ssz or any(s % ssz for s in st):
            raise ValueError("ndtile arrays cannot have strides that are not a multiple of "
                             "their elements' size (use np.lib.stride_tricks.as_strided)")
        try:
            r = _core.as_strided(self, self._offset, tuple(self.shape),
                                 tuple(s // ssz for s in st))
        except ValueError:
            raise ValueError("strides is not compatible with available memory") from None
        if not self._flags & _WRITEABLE:
            r._set_writeable(False)
        self._become(r)

    @strides.deleter
    def strides(self):
        raise AttributeError("Cannot delete array strides")

    @property
    def flags(self):
        return flagsobj(self)

    def setflags(self, /, write=None, align=None, uic=None):
        """NumPy's setflags: write=False makes the array read-only (ops that
        write into it raise ValueError, and views made from it are read-only);
        write=True fails on a view of a read-only base, as in NumPy."""
        if uic:
            raise ValueError("cannot set WRITEBACKIFCOPY flag to True")
        if align is not None:
            # NumPy clears the flag of this array (its views and copies are
            # aligned again); ndtile's memory is always aligned, so setting
            # it back never fails
            self._set_aligned(bool(align))
        if write is not None:
            try:
                self._set_writeable(bool(write))
            except ValueError:
                # the owner is read-only; NumPy (_IsWriteable) still allows
                # it where a base array between this one and the owner is
                # writeable (a view of a subclass view: its .base is that view)
                if not (write and self._writeable_base()):
                    raise
                self._set_writeable(2)

    def _writeable_base(self):
        """NumPy's _IsWriteable walk: whether a base array of this one, before
        an array that owns its data, is writeable."""
        b = self._base
        while isinstance(b, Array):
            if b._flags & _WRITEABLE:
                return True
            if b._flags & _OWNDATA or b._base is None:
                return False
            b = b._base
        return False

    @property
    def base(self):
        # NumPy's: the object owning a view's memory (held by the view), or
        # for an array made from another object's memory (frombuffer) that
        # object; None for an array owning its memory
        b = self._base
        if b is None and not self._flags & _OWNDATA:
            return self     # a view whose owner was never a Python object
        return b

    @property
    def data(self):
        return memoryview(self)      # the array's own memory, as NumPy's

    @property
    def __array_interface__(self):
        """NumPy's array interface (version 3) over the array's own host
        memory, lent as the buffer protocol lends it (src/ops/export.c): the
        loan lasts as long as the array, so the address stays valid and
        current between ndtile calls, as NumPy's does."""
        self._raise_stashed()     # a failed export's floating-point error (errstate)
        try:
            mv = _loan(self)
        except BufferError:
            # no memory of its own to lend (several ranks): no interface, so
            # NumPy takes __array__ (a copy), as after the buffer protocol
            raise AttributeError("'ndarray' object has no attribute "
                                 "'__array_interface__' (its data is spread over several "
                                 "ranks)") from None
        dt = self.dtype
        return {'data': (_core.buffer_address(mv), bool(mv.readonly)),
                'strides': None if self._c_contiguous else self.strides,
                'descr': dt.descr, 'typestr': dt.str, 'shape': self.shape, 'version': 3}

    @property
    def __array_struct__(self):
        """NumPy's array struct: a PyCapsule holding a PyArrayInterface over
        the same loan of the array's own host memory as __array_interface__
        (the capsule keeps the array and the loan alive); on several ranks
        there is none (AttributeError: NumPy takes __array__, a copy)."""
        self._raise_stashed()
        try:
            mv = _loan(self)
        except BufferError:
            raise AttributeError("'ndarray' object has no attribute "
                                 "'__array_struct__' (its data is spread over several "
                                 "ranks)") from None
        dt = self.dtype
        # NumPy's flags: C/F contiguous, ALIGNED, NOTSWAPPED, WRITEABLE
        flags = 0x100 | 0x200 | (0 if mv.readonly else 0x400)
        if self._c_contiguous:
            flags |= 0x1
        if self.flags.f_contiguous:
            flags |= 0x2
        return _core.array_struct(self, mv, self.shape, self.strides, dt.kind, dt.itemsize,
                                  flags)

    @property
    def ctypes(self):
        return C._ctypes(self)

    # ---- methods --------------------------------------------------------------------------
    def astype(self, /, dtype, order='K', casting='unsafe', subok=True, copy=True):
        if type(self) is ndarray and copy is True and casting == 'unsafe' and order == 'K' and \
                (self.ndim <= 1 or self._flags & 0x1):
            # the defaults, a C-ordered array, a scalar type or dtype ndtile
            # holds: the steps below (order K of a C-ordered array is C)
            c = _astype_code(dtype)
            if c is not None:
                _core.warn_complex_cast(self._dt, c)
                return self._astype(c, _core.CASTING_UNSAFE)
        if type(self) is not ndarray:     # np.ndarray.astype(s): the subclass's
            return _SubclassBase.astype(self, dtype, order, casting, subok, copy)
        if casting != 'unsafe' and D.check_casting(casting, True) == 'same_value':
            # NumPy 2.4's value-checking cast runs in NumPy
            return C.np_or_nd(C.to_numpy_k(self).astype(dtype, order, casting, subok, copy))
        dt = D.as_dtype(dtype)
        c = D.code(dt)
        if c is None:
            # a dtype ndtile does not hold (float16, '>i4'): NumPy's array,
            # in NumPy's layout for order
            return C.to_numpy_k(self).astype(dt, order=order, casting=casting)
        if isinstance(copy, _np._CopyMode):
            raise ValueError("_CopyMode enum is not allowed for astype function. "
                             "Use true/false instead.")
        if c == self._dt and not copy and _order_met(self, order):
            return self
        _core.warn_complex_cast(self._dt, c)
        if order in ('K', 'k'):
            # NumPy's order K: the strides' order of self
            return O.k_made(self, lambda v: v._astype(c, D.CASTING[casting]))
        r = self._astype(c, D.CASTING[casting])
        if r.ndim > 1 and (O.is_f_only(self) and order in ('K', 'A', 'F') or order in ('F', 'f')):
            r = O.f_copy(r)     # NumPy keeps a Fortran layout (or makes one)
        return r

    def byteswap(self, /, inplace=False):
        # NumPy's: each element's bytes reversed, the dtype unchanged (ndtile
        # arrays are native, so the values change; a.byteswap().view(
        # a.dtype.newbyteorder()) has a's values in a NumPy array of the
        # other byte order)
        if inplace:
            self._before_write()     # NumPy's warning for a broadcast_arrays result
        if inplace and not self.flags.writeable:
            raise ValueError("array to be byte-swapped is read-only")
        r = C.from_numpy(C.to_numpy(self).byteswap())
        if inplace:
            self._assign(r, _core.CASTING_UNSAFE)
            return self
        if r.ndim > 1 and O.is_f_only(self):
            r = O.f_copy(r)     # NumPy keeps the layout
        return r

    def copy(self, /, order='C'):
        if type(self) is not ndarray:     # np.ndarray.copy(s): the subclass's
            return _SubclassBase.copy(self, order)
        if order == 'C':
            return self._copy()
        return O.order_copy(self, order)

    def view(self, /, dtype=None, type=None):
        # view casting: the result's class is type, dtype when it is an
        # ndarray class, else self's; __array_finalize__(new, self)
        cls = builtins.type(self)
        if type is not None:
            if isinstance(type, builtins.type) and issubclass(type, _np.ndarray):
                return self._numpy_view(dtype, type)
            if not (isinstance(type, builtins.type) and issubclass(type, Array)):
                raise ValueError("Type must be a sub-type of ndarray type")
            cls = type
        elif isinstance(dtype, builtins.type) and issubclass(dtype, _np.ndarray):
            return self._numpy_view(None, dtype)
        elif isinstance(dtype, builtins.type) and issubclass(dtype, Array):
            cls = dtype
            dtype = None
        if cls is ndarray:
            return self._view_dtype(dtype)
        # a.view(cls): _view_as is itself the new handle (no plain view first)
        r = self if dtype is None else self._view_dtype(dtype)
        if not isinstance(r, Array):
            return r
        return _finalize_as(r, self, cls)

    def _numpy_view(self, dtype, cls):
        """a.view(dtype, cls) for cls numpy.ndarray or a subclass of it:
        NumPy's view of the array's own memory, lent through the buffer
        protocol as np.asarray(a) is (writes go both ways; read-only when a
        is), then NumPy's view casting; where it cannot be lent (several
        ranks), NumPy's view of a gathered copy, with the fallback warning."""
        try:
            mem = memoryview(self)
        except BufferError:
            mem = None
        if mem is not None:
            r = _np.asarray(mem)
        else:
            F.notify("ndarray.view (a copy: writes to it do not reach the array)")
            r = C.to_numpy(self)
        return r.view(cls) if dtype is None else r.view(dtype, cls)

    def _view_dtype(self, dtype):
        if dtype is None:
            return self._view()
        dt = _np.dtype(dtype)
        if dt == self.dtype:
            return self._view()
        c = D.code(dt)
        if c is not None and dt.itemsize == self.itemsize:
            # the same bytes as another dtype of this size: a view
            return _core.view_dtype(self, c)
        if c is not None:
            r = _view_itemsize(self, dt, c)
            if r is not None:
                return r
        else:
            # a dtype the core lacks (non-native byte order: '>i4', float16):
            # NumPy's view of the array's own memory, lent through the buffer
            # protocol (docs/design.md, "Lending memory"), with NumPy's
            # layout rules and errors; where it cannot be lent (several
            # ranks), a copy below
            try:
                mem = memoryview(self)
            except BufferError:
                mem = None
            if mem is not None:
                return _np.asarray(mem).view(dt)
        # a dtype the core lacks, or a layout the core cannot share (see
        # _view_itemsize): NumPy's view of a gathered copy, which does not
        # share memory - said by the warning (an error with
        # NDTILE_FALLBACK=error)
        F.notify("ndarray.view (a copy: writes to it do not reach the array)")
        return C.np_or_nd(C.to_numpy(self).view(dtype))

    def fill(self, value, /):
        self._before_write()     # NumPy's warning for a broadcast_arrays result
        if not self._flags & _WRITEABLE:
            # NumPy's first check, before the value's conversion (fill(inf)
            # of a read-only integer array: this, not OverflowError)
            raise ValueError("assignment destination is read-only")
        if isinstance(value, Array):
            # (NumPy's error for several elements, from two of them)
            value = C.to_numpy(value if value.size < 2 else value._reshape((-1,))[:2])
        # NumPy's fill converts the value as its setitem of one element does:
        # its casts, errors and warnings (float64(-1.5) fills a uint8 array
        # with 255, float64(300.0) an int8 one raises OverflowError, float16
        # inf a uint8 one warns 'invalid value encountered in cast'; an
        # array is cast as one, unsafe: array(300.) fills an int8 array with
        # 44; an array of one element is a scalar to a bool array)
        one = _np.empty((), self.dtype)
        one[()] = value
        self._assign(one.item(), _core.CASTING_UNSAFE)

    def reshape(self, /, *shape, order='C', copy=None):
        if type(self) is not ndarray:     # np.ndarray.reshape(s): the subclass's
            return _SubclassBase.reshape(self, *shape, order=order, copy=copy)
        if len(shape) == 1:
            shape = shape[0]    # NumPy: an int, a sequence, an int array; None a view
        elif not shape:
            raise TypeError("reshape() takes exactly 1 argument (0 given)")
        if order not in ('C', 'A', None) or (order == 'A' and O.is_f_only(self)):
            return _fromnumeric.reshape(self, shape, order=order, copy=copy)
        r = self._view() if shape is None else self._reshape(
            shape if type(shape) is tuple else _fromnumeric.shape_arg(shape))
        if copy is False and not r._same_store(self):
            raise ValueError("Unable to avoid creating a copy while reshaping.")
        if copy and r._same_store(self):
            r = r._copy()
        return r

    def ravel(self, /, order='C'):
        if type(self) is ndarray and type(order) is str and order == 'C':
            return self._ravel('C')     # (the steps below for the default)
        if type(self) is not ndarray:     # np.ndarray.ravel(s): the subclass's
            return _SubclassBase.ravel(self, order)
        return _fromnumeric.ravel(self, order)

    def flatten(self, /, order='C'):
        if type(self) is not ndarray:     # np.ndarray.flatten(s): the subclass's
            return _SubclassBase.flatten(self, order)
        r = self._ravel(C.ravel_order(order))
        return r._copy() if r._same_store(self) else r

    def transpose(self, /, *axes):
        if type(self) is not ndarray:     # np.ndarray.transpose(s): the subclass's
            return _SubclassBase.transpose(self, *axes)
        if len(axes) == 1:
            axes = axes[0]      # NumPy: None, an int, a sequence or an int array
        elif not axes:
            axes = None
        return _fromnumeric.transpose(self, axes)

    def swapaxes(self, axis1, axis2, /):
        if type(self) is not ndarray:     # np.ndarray.swapaxes(s): the subclass's
            return _SubclassBase.swapaxes(self, axis1, axis2)
        return _fromnumeric.swapaxes(self, axis1, axis2)

    def squeeze(self, /, axis=None):
        if type(self) is not ndarray:     # np.ndarray.squeeze(s): the subclass's
            return _SubclassBase.squeeze(self, axis)
        return _fromnumeric.squeeze(self, axis)

    def sum(self, /, axis=None, dtype=None, out=None, keepdims=False, initial=_NoValue,
            where=True):
        if type(self) is not ndarray:     # np.ndarray.sum(s): the subclass's
            return _SubclassBase.sum(self, axis, dtype, out, keepdims, initial, where)
        return _fromnumeric.sum(self, axis, dtype, out, keepdims, initial, where)

    def prod(self, /, axis=None, dtype=None, out=None, keepdims=False, initial=_NoValue,
             where=True):
        if type(self) is not ndarray:     # np.ndarray.prod(s): the subclass's
            return _SubclassBase.prod(self, axis, dtype, out, keepdims, initial, where)
        return _fromnumeric.prod(self, axis, dtype, out, keepdims, initial, where)

    def max(self, /, axis=None, out=None, keepdims=False, initial=_NoValue, where=True):
        if type(self) is not ndarray:     # np.ndarray.max(s): the subclass's
            return _SubclassBase.max(self, axis, out, keepdims, initial, where)
        return _fromnumeric.max(self, axis, out, keepdims, initial, where)

    def min(self, /, axis=None, out=None, keepdims=False, initial=_NoValue, where=True):
        if type(self) is not ndarray:     # np.ndarray.min(s): the subclass's
            return _SubclassBase.min(self, axis, out, keepdims, initial, where)
        return _fromnumeric.min(self, axis, out, keepdims, initial, where)

    def mean(self, /, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
        if type(self) is not ndarray:     # np.ndarray.mean(s): the subclass's
            return _SubclassBase.mean(self, axis, dtype, out, keepdims, where=where)
        return _fromnumeric.mean(self, axis, dtype, out, keepdims, where=where)

    def var(self, /, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True,
            mean=_NoValue, correction=_NoValue):
        if type(self) is not ndarray:     # np.ndarray.var(s): the subclass's
            return _SubclassBase.var(
                self, axis, dtype, out, ddof, keepdims, where=where, mean=mean,
                correction=correction)
        return _fromnumeric.var(self, axis, dtype, out, ddof, keepdims, where=where, mean=mean,
                   correction=correction)

    def std(self, /, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True,
            mean=_NoValue, correction=_NoValue):
        if type(self) is not ndarray:     # np.ndarray.std(s): the subclass's
            return _SubclassBase.std(
                self, axis, dtype, out, ddof, keepdims, where=where, mean=mean,
                correction=correction)
        return _fromnumeric.std(self, axis, dtype, out, ddof, keepdims, where=where, mean=mean,
                   correction=correction)

    def argmax(self, /, axis=None, out=None, *, keepdims=False):
        if type(self) is not ndarray:     # np.ndarray.argmax(s): the subclass's
            return _SubclassBase.argmax(self, axis, out, keepdims=keepdims)
        return _fromnumeric.argmax(self, axis, out, keepdims=keepdims)

    def argmin(self, /, axis=None, out=None, *, keepdims=False):
        if type(self) is not ndarray:     # np.ndarray.argmin(s): the subclass's
            return _SubclassBase.argmin(self, axis, out, keepdims=keepdims)
        return _fromnumeric.argmin(self, axis, out, keepdims=keepdims)

    def any(self, /, axis=None, out=None, keepdims=False, *, where=True):
        if type(self) is not ndarray:     # np.ndarray.any(s): the subclass's
            return _SubclassBase.any(self, axis, out, keepdims, where=where)
        return _fromnumeric.any(self, axis, out, keepdims, where=where)

    def all(self, /, axis=None, out=None, keepdims=False, *, where=True):
        if type(self) is not ndarray:     # np.ndarray.all(s): the subclass's
            return _SubclassBase.all(self, axis, out, keepdims, where=where)
        return _fromnumeric.all(self, axis, out, keepdims, where=where)

    def ptp(self, axis=None, out=None, keepdims=False):
        if type(self) is not ndarray:     # np.ndarray.ptp(s): the subclass's
            return _SubclassBase.ptp(self, axis, out, keepdims)
        return _fromnumeric.ptp(self, axis, out, keepdims)

    def clip(self, /, min=None, max=None, out=None, **kwargs):
        if type(self) is not ndarray:     # np.ndarray.clip(s): the subclass's
            return _SubclassBase.clip(self, min, max, out, **kwargs)
        return _fromnumeric.clip(self, min, max, out, **kwargs)

    def round(self, /, *args, **kwargs):
        # (NumPy's C method: its argument errors)
        decimals, out = C.c_method_args('round', ('decimals', 'out'), (0, None), args, kwargs)
        if type(self) is not ndarray:     # np.ndarray.round(s): the subclass's
            return _SubclassBase.round(self, decimals, out)
        return _fromnumeric.round(self, decimals, out)

    def conj(self, /, *out):
        # NumPy's method returns the array itself unless it is complex (the
        # function np.conjugate always makes a new array); an output array
        # may be passed, positionally only
        if out:
            if len(out) > 1:
                raise TypeError(f"conjugate() takes at most 1 argument ({len(out)} given)")
            if out[0] is None:        # NumPy's: no output array
                return self.conj()
            if not isinstance(out[0], (Array, _np.ndarray)):
                raise TypeError("output must be an array")
            return _umath.UFUNCS['conjugate'](self, out=out[0])
        if D.KIND[self._dt] != 'c':
            return self
        return _umath.UFUNCS['conjugate'](self)

    conjugate = conj

    def nonzero(self, /):
        return _multiarray.nonzero(self)

    def sort(self, /, axis=-1, kind=None, order=None, *, stable=None):
        if order is not None:
            F.notify('ndarray.sort')
            return F.run_numpy(_np.ndarray.sort, (self, axis, kind, order),
                               dict(stable=stable), 'ndarray.sort')
        if not self._flags & _WRITEABLE:
            raise ValueError("sort array is read-only")
        self._before_write()     # NumPy's warning for a broadcast_arrays result
        r = _fromnumeric.sort(self, operator.index(axis), kind, None, stable=stable)
        self._assign(r, _core.CASTING_UNSAFE)

    def argsort(self, /, axis=-1, kind=None, order=None, *, stable=None):
        if type(self) is not ndarray:     # np.ndarray.argsort(s): the subclass's
            return _SubclassBase.argsort(self, axis, kind, order, stable=stable)
        return _fromnumeric.argsort(self, axis, kind, order, stable=stable)

    def partition(self, /, kth, axis=-1, kind='introselect', order=None):
        if not self._flags & _WRITEABLE:
            raise ValueError("partition array is read-only")
        self._before_write()     # NumPy's warning for a broadcast_arrays result
        if order is not None:
            return F.call('ndarray.partition', _np.ndarray.partition,
                          (self, kth, axis, kind, order), {})
        axis = operator.index(axis)     # NumPy's method: no axis=None (TypeError)
        self._assign(_fromnumeric.partition(self, kth, axis, kind), _core.CASTING_UNSAFE)

    def argpartition(self, /, kth, axis=-1, kind='introselect', order=None):
        if type(self) is not ndarray:     # np.ndarray.argpartition(s): the subclass's
            return _SubclassBase.argpartition(self, kth, axis, kind, order)
        return _fromnumeric.argpartition(self, kth, axis, kind, order)

    def searchsorted(self, /, v, side='left', sorter=None):
        return _fromnumeric.searchsorted(self, v, side, sorter)

    def tolist(self, /):
        return C.to_numpy(self).tolist()

    def item(self, /, *args):
        if not args:
            if self.size != 1:
                raise ValueError("can only convert an array of size 1 to a Python scalar")
            return self._item()
        if len(args) == 1 and isinstance(args[0], tuple):
            args = args[0]
        if len(args) == 1:
            i = operator.index(args[0])
            n = self.size
            if i < -n or i >= n:
                raise IndexError(f"index {i} is out of bounds for size {n}")
            idx = _np.unravel_index(i % n if n else i, self.shape)
            return self[tuple(int(k) for k in idx)].item()
        return self[tuple(args)].item()

    def tobytes(self, /, order='C'):
        # NumPy's: 'F' in Fortran order, 'A' in Fortran order for a
        # Fortran-contiguous array, 'C' and 'K' in C order
        o = 'C' if order == 'C' else C.ravel_order(order)
        if o in ('C', 'K'):
            return C.to_numpy(self).tobytes()
        return C.to_numpy(_fromnumeric.ravel(self, o)).tobytes()

    def dot(self, /, b, out=None):
        if type(self) is not ndarray:     # np.ndarray.dot(s): the subclass's
            return _SubclassBase.dot(self, b, out)
        return _multiarray.dot(self, b, out)

    def cumsum(self, /, axis=None, dtype=None, out=None):
        if type(self) is not ndarray:     # np.ndarray.cumsum(s): the subclass's
            return _SubclassBase.cumsum(self, axis, dtype, out)
        return _fromnumeric.cumsum(self, axis, dtype, out)

    def cumprod(self, /, axis=None, dtype=None, out=None):
        if type(self) is not ndarray:     # np.ndarray.cumprod(s): the subclass's
            return _SubclassBase.cumprod(self, axis, dtype, out)
        return _fromnumeric.cumprod(self, axis, dtype, out)

    def repeat(self, /, repeats, axis=None):
        if type(self) is not ndarray:     # np.ndarray.repeat(s): the subclass's
            return _SubclassBase.repeat(self, repeats, axis)
        return _fromnumeric.repeat(self, repeats, axis)

    def take(self, /, indices, axis=None, out=None, mode='raise'):
        if type(self) is not ndarray:     # np.ndarray.take(s): the subclass's
            return _SubclassBase.take(self, indices, axis, out, mode)
        return _fromnumeric.take(self, indices, axis, out, mode)

    def put(self, /, indices, values, mode='raise'):
        return _fromnumeric.put(self, indices, values, mode)

    def diagonal(self, /, offset=0, axis1=0, axis2=1):
        if type(self) is not ndarray:     # np.ndarray.diagonal(s): the subclass's
            return _SubclassBase.diagonal(self, offset, axis1, axis2)
        return _fromnumeric.diagonal(self, offset, axis1, axis2)

    def trace(self, /, offset=0, axis1=0, axis2=1, dtype=None, out=None):
        if type(self) is not ndarray:     # np.ndarray.trace(s): the subclass's
            return _SubclassBase.trace(self, offset, axis1, axis2, dtype, out)
        return _fromnumeric.trace(self, offset, axis1, axis2, dtype, out)

    # Files and pickles: the data is gathered to the host (written once, by
    # rank 0, on many ranks).
    def tofile(self, /, file, sep='', format='%s'):
        # (file: the keyword NumPy's C method takes; its text signature says fid)
        return F.run_numpy(_np.ndarray.tofile, (self, file, sep, format), {}, 'ndarray.tofile')

    def dump(self, /, file):
        return F.run_numpy(_np.ndarray.dump, (self, file), {}, 'ndarray.dump')

    def dumps(self, /):
        return C.to_numpy(self).dumps()

    def compress(self, /, condition, axis=None, out=None):
        if type(self) is not ndarray:     # np.ndarray.compress(s): the subclass's
            return _SubclassBase.compress(self, condition, axis, out)
        return _fromnumeric.compress(condition, self, axis, out)

    def choose(self, /, *choices, out=None, mode='raise'):
        if type(self) is not ndarray:     # np.ndarray.choose(s): the subclass's
            return _SubclassBase.choose(self, *choices, out=out, mode=mode)
        # NumPy's method: several positional arguments are the choices
        if not choices:
            raise TypeError("choose() takes exactly 1 argument (0 given)")
        return _fromnumeric.choose(self, choices[0] if len(choices) == 1 else choices,
                                   out, mode)

    def __array_wrap__(self, /, array, context=None, return_scalar=False):
        # NumPy's default: a scalar for a plain 0-d result when asked; else
        # the result as self's class (__array_finalize__ with self), a plain
        # array's too: a subclass instance wrapped by a plain array is a
        # plain view of it
        t = type(self)
        if return_scalar and array.ndim == 0 and t is ndarray:
            return array[()]
        array = C.np_or_nd(array)
        if type(array) is not t and isinstance(array, Array):
            return _finalize_as(array, self, t)
        return array


def _numpy_view_layout(a, dt):
    """(shape, byte strides) of NumPy's a.view(dt), with NumPy's errors."""
    isz = a._store_itemsize
    st = a.strides if a._c_contiguous else tuple(s * isz for s in a._estrides)
    # NumPy's rules look at the layout only: a stand-in with the same shape
    # and strides, made over a tiny buffer without bounds (as_strided),
    # gives NumPy's result layout or error; its data is never read
    probe = _np.lib.stride_tricks.as_strided(_np.zeros(1, a.dtype), a.shape, st)
    v = probe.view(dt)
    return v.shape, v.strides


def _view_itemsize(a, dt, c):
    """a.view(dt) for dt of another itemsize: a true view sharing a's
    memory (ndt_view_itemsize), or None where the core cannot share it
    (several ranks; a byte offset or stride that is not a multiple of dt's
    size, which NumPy allows as an unaligned view)."""
    shape, bst = _numpy_view_layout(a, dt)
    boff = a._offset * a._store_itemsize + a._part
    try:
        return _core.view_itemsize(a, c, shape, bst, boff)
    except NotImplementedError:
        return None


def _set_dtype(a, dtype):
    """a.dtype = dtype: NumPy's in-place view of a's memory as another
    dtype (its rules and errors: a.view(dtype)'s), a itself changed."""
    dt = _np.dtype(dtype)
    if dt == a.dtype:
        return
    c = D.code(dt)
    if c is None:
        raise TypeError(f"ndtile arrays cannot hold dtype {dt}")
    if dt.itemsize == a.itemsize:
        v = _core.view_dtype(a, c)
    else:
        v = _view_itemsize(a, dt, c)
        if v is None:
            raise NotImplementedError(
                "ndtile cannot change this array's dtype in place (an offset or stride that "
                "is not a multiple of the new itemsize, or an array on several ranks)")
    a._become(v)


def _resize(self, new_shape, refcheck, nrefs):
    """NumPy's in-place resize: the array keeps its first elements (C
    order), new ones are zeros. Only an array owning its data, and with
    refcheck, one no other array or name refers to."""
    refcheck = operator.index(refcheck)     # NumPy parses it as an int
    if not new_shape:
        return None                          # a.resize(): nothing to do
    if len(new_shape) == 1 and (new_shape[0] is None or not isinstance(
            new_shape[0], (int, _np.integer))):
        new_shape = new_shape[0]
    if new_shape is None:
        return None
    shape = _fromnumeric.shape_arg(new_shape)    # () is a 0-d shape
    for n in shape:
        if n < 0:
            raise ValueError("negative dimensions not allowed")
    # NumPy keeps the memory order: a Fortran-ordered array stays one, its
    # memory (column-major) kept and extended by zeros
    fortran = not self._c_contiguous and self.size > 1
    if fortran and not self.flags.f_contiguous:
        raise ValueError("resize only works on single-segment arrays")
    if math.prod(shape) == self.size:
        # NumPy: the same number of bytes needs no new memory, so no check
        # of ownership or references: the shape changes in place (a view
        # stays one)
        v = self._transpose(None)._reshape(tuple(reversed(shape)))._transpose(None) \
            if fortran else self._reshape(shape)
        e = _LOANS.pop(id(self), None)      # (__array_interface__'s, of the old shape)
        if e is not None:
            e[1].release()
        self._become(v)
        return None
    if not self._flags & _OWNDATA:
        raise ValueError("cannot resize this array: it does not own its data")
    if not self._flags & _WRITEABLE:
        raise ValueError("resize only works on writeable arrays")     # NumPy's check
    if (refcheck and nrefs > 2) or weakref.getweakrefcount(self):
        # (NumPy refuses an array with a weak reference even without refcheck)
        # NumPy's count (taken by the C method): the caller's name and the
        # call's own; a view holds its base, so views count
        raise ValueError("cannot resize an array that references or is referenced\n"
                         "by another object in this way.\nUse the np.resize function "
                         "to get a new resized copy or\n set refcheck=False to disable "
                         "this check")
    new = _multiarray.zeros(shape, self.dtype, order='F' if fortran else 'C')
    n = builtins.min(self.size, new.size)
    if n:
        # the memory order of both: C order of the transposes when Fortran
        dst, src = (new.T, self.T) if fortran else (new, self)
        dst._reshape((-1,))[:n]._assign(src._reshape((-1,))[:n], _core.CASTING_UNSAFE)
    e = _LOANS.pop(id(self), None)
    if e is not None:
        e[1].release()
    self._become(new)
    return None


_core._set_dtype_hook(_set_dtype, _resize)


# __array_interface__'s loans: one memoryview per array (by id), for its lifetime
_LOANS = {}


def _loan(a):
    k = id(a)
    e = _LOANS.get(k)
    if e is not None and e[0]() is a:
        return e[1]
    mv = memoryview(a)     # BufferError where it cannot lend (several ranks)
    # (the table bound in the callback: at exit the module's globals are gone)
    _LOANS[k] = (weakref.ref(a, lambda r, k=k, loans=_LOANS: loans.pop(k, None)), mv)
    return mv


class _DocMethod:
    # A C method of _core.Array with a docstring that can be written (the
    # notes of _docs): bound, it is the C method itself, so a.resize(...)
    # meets NumPy's reference count (the caller's name and the bound method).
    __slots__ = ('_m', '__doc__', '__name__', '__qualname__', '__signature__')

    def __init__(self, m):
        self._m = m
        self.__doc__ = m.__doc__
        self.__name__ = m.__name__
        self.__qualname__ = 'ndarray.' + m.__name__
        self.__signature__ = None

    def __get__(self, obj, cls=None):
        return self if obj is None else self._m.__get__(obj, cls)

    def __call__(self, *args, **kwargs):
        return self._m(*args, **kwargs)


ndarray.resize = _DocMethod(Array.__dict__['resize'])
_P = inspect.Parameter
ndarray.resize.__signature__ = inspect.Signature(    # NumPy's ($self, /, *new_shape, refcheck=True)
    [_P('self', _P.POSITIONAL_ONLY), _P('new_shape', _P.VAR_POSITIONAL),
     _P('refcheck', _P.KEYWORD_ONLY, default=True)])


def _make_method_fallback(name):
    npmeth = getattr(_np.ndarray, name)
    qual = 'ndarray.' + name

    def method(self, /, *args, **kwargs):
        F.notify(qual)
        return F.run_numpy(npmeth, (self,) + args, kwargs, qual)
    method.__name__ = name
    method.__qualname__ = 'ndarray.' + name
    method.__doc__ = getattr(npmeth, '__doc__', None)
    method.__ndtile_fallback__ = True
    return method


# NumPy methods ndtile does not implement: NumPy's on gathered data.
METHOD_FALLBACKS = []
for _name in dir(_np.ndarray):
    if _name.startswith('_') or hasattr(ndarray, _name):
        continue
    if not callable(getattr(_np.ndarray, _name)):
        continue
    setattr(ndarray, _name, _make_method_fallback(_name))
    METHOD_FALLBACKS.append(_name)


_SubclassBase = None


def _finalize_as(r, obj, cls=None, owned=False):
    """The plain array r as an instance of cls (type(obj) by default),
    sharing r's data, after cls.__array_finalize__(new, obj). owned: r is
    a new array of the caller's (a copy) that the new instance takes over,
    as NumPy makes a subclass's copy (OWNDATA, .base None); otherwise a
    view of r, whose .base is NumPy's (below)."""
    cls = type(obj) if cls is None else cls
    new = r._view_as(cls)
    if owned and r is not obj and r._flags & _OWNDATA:
        _core.take_owner(new, r)
    elif isinstance(obj, Array) and not r._flags & _OWNDATA and r._same_store(obj):
        new._set_base(_view_base(obj, cls))
    # NumPy's lookup: the class's attribute, called with the new instance
    # (a property there is a TypeError, "'property' object is not callable")
    f = getattr(cls, '__array_finalize__')
    if f is not _DEFAULT_FINALIZE:
        f(new, obj)
    return new


def _view_base(obj, cls):
    """NumPy's .base of a view of cls made from the array obj: obj, or the
    array obj is a view of while that one is of cls too and does not own
    its memory (NumPy collapses a chain of views only while the class stays
    the same: s[:3].base is s for s = a.view(S))."""
    while not obj._flags & _OWNDATA:
        b = obj.base
        if type(b) is not cls or b is obj:
            break
        obj = b
    return obj


def _plain(x):
    """x, or a plain-ndarray view of x if x is a subclass instance."""
    if type(x) is not ndarray and isinstance(x, Array):
        return x._view()
    return x


_DEFAULT_UFUNC = ndarray.__dict__['__array_ufunc__']
_NP_AU = _np.ndarray.__array_ufunc__
_SCALARS = frozenset((int, float, complex, bool, type(None)))
_DEFAULT_FINALIZE = ndarray.__dict__['__array_finalize__']


def _overrides_ufunc(t):
    return getattr(t, '__array_ufunc__', _DEFAULT_UFUNC) is not _DEFAULT_UFUNC


def _priority(x):
    """NumPy's __array_priority__ of x: ndarray's own (ndtile sets 20 so that
    NumPy defers to it) counts as NumPy's 0."""
    for k in type(x).__mro__:
        if '__array_priority__' in k.__dict__:
            if k is ndarray:
                break
            return float(getattr(x, '__array_priority__'))
    return 0.0


def _wrapper(inputs):
    """The input whose __array_wrap__ wraps a ufunc's result: the subclass
    instance of highest priority (the first among equals), or None."""
    w = None
    wp = None
    for x in inputs:
        if type(x) is not ndarray and isinstance(x, Array):
            p = _priority(x)
            if w is None or p > wp:
                w, wp = x, p
    return w


def _wrap_result(w, r, context):
    """w.__array_wrap__ on a result (a NumPy scalar becomes 0-d first, with
    return_scalar=True, as NumPy's reductions pass it)."""
    if not isinstance(r, Array):
        if isinstance(r, _np.generic) and D.code(r.dtype) is not None:
            r = C.asarray(r)
        else:
            return r
    return w.__array_wrap__(r, context, r.ndim == 0)


def _outs(out):
    if out is None:
        return ()
    return out if isinstance(out, tuple) else (out,)


def _ufunc_default(u, method, inputs, kwargs):
    """ndarray.__array_ufunc__: the ufunc on plain views of the operands,
    the result wrapped by the __array_wrap__ of the subclass operands (the
    outputs' own when out= is given)."""
    out = kwargs.get('out')
    outs = _outs(out)
    if method == 'outer' and len(inputs) == 2 and type(inputs[0]) is not ndarray and \
            isinstance(inputs[0], Array):
        _outer_reshape_check(u, inputs)
    pin = [_plain(x) for x in inputs]
    kw = kwargs
    where = kwargs.get('where', True)
    if outs or where is not True:
        kw = dict(kwargs)
    if where is not True:
        kw['where'] = _plain(where)
    if outs:
        if len(outs) == 1 and method != '__call__':
            kw['out'] = _plain(outs[0])      # the methods take one array
        else:
            kw['out'] = tuple(_plain(o) for o in outs)
    r = getattr(u, method)(*pin, **kw)
    if method == 'at':
        return r
    if outs and any(o is not None for o in outs):
        # (NumPy's context names the outputs after the inputs)
        args = tuple(inputs) + tuple(outs)
        rs = r if isinstance(r, tuple) else (r,)
        w = None if kwargs.get('subok', True) is False else _wrapper(inputs)

        def one(i, o):
            if o is None:
                # an output not given (out=(None, b)): wrapped as without out=
                if w is None:
                    return rs[i]
                return _wrap_result(w, rs[i], (u, args, i) if method == '__call__' else None)
            if type(o) is ndarray or not isinstance(o, Array):
                return o
            return o.__array_wrap__(o, (u, args, i) if method == '__call__' else None, False)

        res = tuple(one(i, o) for i, o in enumerate(outs))
        return res if isinstance(r, tuple) else res[0]
    w = _wrapper(inputs)
    if w is None or kwargs.get('subok', True) is False:   # subok=False: base arrays
        return r
    if isinstance(r, tuple):
        return tuple(_wrap_result(w, x, (u, tuple(inputs), i) if method == '__call__' else None)
                     for i, x in enumerate(r))
    return _wrap_result(w, r, (u, tuple(inputs), 0) if method == '__call__' else None)


def _outer_reshape_check(u, inputs):
    """NumPy's outer reshapes its first operand, a subclass instance, to
    its shape plus one axis per dimension of the second (through the class:
    __array_finalize__ runs), and raises TypeError where the class changed
    that shape (np.matrix)."""
    a, b = inputs
    nb = b.ndim if isinstance(b, (Array, _np.ndarray)) else _np.ndim(b)
    shape = tuple(a.shape) + (1,) * nb
    t = ndarray.reshape(a, shape)    # (NumPy's C reshape: not a subclass's override)
    if tuple(t.shape) != shape:
        raise TypeError(
            f"{u.__name__}.outer() called with ndarray-subclass of type '{type(t).__name__}' "
            "which modified its shape after a reshape. `outer()` relies on reshaping the "
            "inputs and is for example not supported for the 'np.matrix' class (the usage "
            "of matrix is generally discouraged). To work around this issue, please convert "
            "the inputs to numpy arrays.")


def _ufunc_call(u, method, inputs, kwargs):
    """A ufunc with subclass operands: NumPy's override protocol (NEP 13).
    The operands' __array_ufunc__ overrides, subclasses before their bases,
    else left to right; the first answer that is not NotImplemented wins."""
    outs = _outs(kwargs.get('out'))
    if 'out' in kwargs:
        # NumPy hands the overrides out= as a tuple (or not at all)
        kwargs = dict(kwargs)
        if outs and any(o is not None for o in outs):
            kwargs['out'] = outs
        else:
            del kwargs['out']
    where = kwargs.get('where', True)
    # (NumPy looks for overrides in where= too)
    over = _umath.override_order(
        tuple(inputs) + outs + ((where,) if where is not True else ()),
        lambda x: type(x) is not ndarray and isinstance(x, Array) and _overrides_ufunc(type(x)))
    if not over:
        return _ufunc_default(u, method, inputs, kwargs)
    for o in over:
        if type(o).__array_ufunc__ is None:
            raise TypeError(f"operand '{type(o).__name__}' does not support ufuncs "
                            f"(__array_ufunc__=None)")
    for o in over:
        r = type(o).__array_ufunc__(o, u, method, *inputs, **kwargs)
        if r is not NotImplemented:
            return r
    args = [repr(x) for x in inputs] + [f"{k}={v!r}" for k, v in kwargs.items()]
    names = ", ".join(repr(type(x).__name__) for x in tuple(inputs) + outs)
    raise TypeError(f"operand type(s) all returned NotImplemented from __array_ufunc__"
                    f"({u!r}, {method!r}, {', '.join(args)}): {names}")


# functions that compare their arguments from C (Python's rich comparison,
# where NumPy's scalar or array on the left gives way to the reflected
# method of a right operand of an ndarray subclass)
_C_COMPARERS = frozenset((operator.eq, operator.ne, operator.lt, operator.le, operator.gt,
                          operator.ge, builtins.sorted, builtins.min, builtins.max))
_NAME_LOADS = frozenset(('LOAD_GLOBAL', 'LOAD_NAME', 'LOAD_FAST', 'LOAD_DEREF',
                         'LOAD_FAST_CHECK', 'LOAD_CLOSURE'))
_ATTR_LOADS = frozenset(('LOAD_ATTR', 'LOAD_METHOD'))
_CALL_SITES = {}      # code object: {offset of a call: its callee's loads, or None}


def _callee_loads(code, offset):
    """The instructions that load the function a call at offset calls, when
    they are a name and attributes (`operator.eq`, `eq`, `x.__eq__`): found
    by their source positions, which begin where the call's do; else None.
    Kept per call site."""
    sites = _CALL_SITES.get(code)
    if sites is None:
        if len(_CALL_SITES) > 256:
            _CALL_SITES.clear()
        sites = _CALL_SITES[code] = {}
    if offset in sites:
        return sites[offset]
    ins = list(_dis.get_instructions(code))
    loads = None
    at = [i for i, x in enumerate(ins) if x.offset == offset]
    pos = ins[at[0]].positions if at and ins[at[0]].opname.startswith('CALL') else None
    if pos is not None and pos.col_offset is not None:
        chain = [x for x in ins[:at[0]]
                 if x.positions is not None and x.positions.lineno == pos.lineno and
                 x.positions.col_offset == pos.col_offset and
                 (x.positions.end_lineno, x.positions.end_col_offset) <
                 (pos.end_lineno, pos.end_col_offset) and
                 x.opname not in ('PUSH_NULL', 'PRECALL', 'KW_NAMES', 'CACHE', 'NOP')]
        if chain and chain[0].opname in _NAME_LOADS and \
                all(x.opname in _ATTR_LOADS for x in chain[1:]):
            loads = [(x.opname, x.argval) for x in chain]
    sites[offset] = loads
    return loads


def _compares_from_c(f):
    """Whether the frame f is calling a function that compares from C
    (operator.eq, sorted, a NumPy scalar's __eq__, ...): its
    callee found from the call's source (_callee_loads) and looked up
    without running any code (inspect.getattr_static)."""
    loads = _callee_loads(f.f_code, f.f_lasti)
    if loads is None:
        return False
    (op, name), attrs = loads[0], loads[1:]
    spaces = (f.f_globals, f.f_builtins) if op == 'LOAD_GLOBAL' else \
        (f.f_locals,) if op != 'LOAD_NAME' else (f.f_locals, f.f_globals, f.f_builtins)
    for ns in spaces:
        if name in ns:
            obj = ns[name]
            break
    else:
        return False
    try:
        for _, attr in attrs:
            owner = obj
            obj = inspect.getattr_static(obj, attr)
    except AttributeError:
        return False
    if attrs and attrs[-1][1] in _REFLECTED_NAMES and isinstance(owner, _np.generic):
        # x.__eq__(sub) of NumPy's scalar x: a rich comparison of its 0-d
        # array (an array's own __eq__ runs the ufunc, in NumPy too)
        return True
    if isinstance(obj, functools.partial):
        obj = obj.func
    return any(obj is c for c in _C_COMPARERS)


# NumPy's comparison ufuncs: the reflected comparison method of each
_REFLECTED = {_np.equal: '__eq__', _np.not_equal: '__ne__', _np.less: '__gt__',
              _np.less_equal: '__ge__', _np.greater: '__lt__', _np.greater_equal: '__le__'}
_COMPARE_OPS = frozenset(_dis.opmap[n] for n in ('COMPARE_OP', 'CONTAINS_OP'))
_REFLECTED_NAMES = frozenset(('__eq__', '__ne__', '__lt__', '__le__', '__gt__', '__ge__'))


def _reflected_compare(ufunc, inputs):
    """np.int32(10) == sub, or numpy_array < sub, where sub's class (an
    ndtile.ndarray subclass) overrides the reflected comparison (__eq__,
    __gt__ for <): NumPy compares its scalar as a 0-d array, and Python
    calls the reflected method of a right operand whose type subclasses
    the left's first, so for an ndarray subclass NumPy's answer is
    sub.__eq__(0-d array). ndtile's subclasses are not NumPy's: the
    comparison reaches the ufunc, here, and the reflected method is called
    now - where the caller's line is that comparison (`==`, `in`) or a call
    of a function that compares from C (operator.eq(x, sub), a partial of
    it by name, x.__eq__(sub), sorted, min, max: _compares_from_c); an explicit
    numpy.equal(x, sub) call is the ufunc's, as in NumPy, and so, unlike
    NumPy, are comparisons made from C by other functions (map(operator.eq,
    ...), functools.reduce, list.sort, partial(operator.eq, x)(sub)).
    NotImplemented otherwise (the ufunc runs)."""
    x, y = inputs
    if type(x) is not _np.ndarray or type(y) is ndarray or not isinstance(y, Array):
        return NotImplemented
    name = _REFLECTED[ufunc]
    meth = getattr(type(y), name, None)
    if meth is None or meth is getattr(ndarray, name):
        return NotImplemented
    f = _sys._getframe(2)       # (_getframe(1) is __array_ufunc__; NumPy's C has no frame)
    if f is None or (f.f_code.co_code[f.f_lasti] not in _COMPARE_OPS and
                     (_sys.version_info < (3, 11) or not _compares_from_c(f))):
        return NotImplemented
    return meth(y, x)


def _unop_hook(op, a):
    """-a, +a, abs(a), ~a for a subclass instance, or where the core has no
    loop for a's dtype (NumPy's exception then; from the C slots)."""
    return _umath.by_op(op)(a)


def _subscript_hook(r, self):
    """self[key] of a subclass instance: an array result as self's class."""
    if type(r) is ndarray:
        return _finalize_as(r, self)
    return r


def _subclass_like(r, proto, owned=False):
    """r (new, plain) as proto's class, finalized with proto: NumPy's
    subok=True for *_like, array, copy, broadcast_to (owned: r is a copy the
    instance takes over, see _finalize_as)."""
    if type(proto) is not ndarray and isinstance(proto, Array) and type(r) is ndarray:
        return _finalize_as(r, proto, None, owned)
    return r


def _wrap_by_inputs(inputs, r):
    """r (a new plain array, or a tuple of them) computed from inputs by a
    Python function per element (vectorize): as NumPy's, through the
    __array_wrap__ of the subclass input of highest priority (NumPy's
    object ufunc wraps it), owning its data (NumPy's astype to the output
    type copies it)."""
    w = _wrapper(inputs)
    if w is None:
        return r
    if isinstance(r, tuple):
        return tuple(_wrap_by_inputs(inputs, x) for x in r)
    if isinstance(r, _np.generic) and D.code(r.dtype) is not None:
        r = C.asarray(r)        # a 0-d result: the subclass's 0-d array, as NumPy's
    if type(r) is not ndarray:
        return r
    new = w.__array_wrap__(r, None, r.ndim == 0)
    if isinstance(new, Array) and new is not r and r._flags & _OWNDATA and \
            not new._flags & _OWNDATA and new._same_store(r):
        _core.take_owner(new, r)
    return new


def _subclass_method(name, args, kwargs):
    """np.sum(a), np.transpose(a), ... of a subclass instance: its method,
    as NumPy's functions call it (arguments left at _NoValue are not passed).
    Reached from ndarray's own method on that instance (an override that
    calls `ndarray.mean(self)` by name, not super()), it is ndarray's
    computation for subclasses (_SubclassBase's), not the override again
    (that recursed without end)."""
    a = args[0]
    kw = {k: v for k, v in kwargs.items() if v is not _NoValue}
    if _from_ndarray_method(a):
        own = _SubclassBase.__dict__.get(name)
        if own is None:
            return _wrap_result(a, getattr(ndarray, name)(a._view(), *args[1:], **kw), None)
        if name == 'transpose':
            return own(a, kw.get('axes'))
        return own(a, *args[1:], **kw)
    if name == 'transpose':
        return a.transpose(kwargs.get('axes'))
    if name == 'squeeze' and kwargs.get('axis') is None:
        return a.squeeze()      # NumPy's np.squeeze: no axis keyword when None
    return getattr(a, name)(*args[1:], **kw)


def _from_ndarray_method(a, depth=8):
    """Whether one of the few callers above is ndarray's own method with a
    as its self (only subclass instances ask: plain arrays never dispatch)."""
    f = _sys._getframe(2)
    while f is not None and depth:
        if f.f_code in _ND_METHOD_CODES and f.f_locals.get('self') is a:
            return True
        f = f.f_back
        depth -= 1
    return False


def _has_out(args, kwargs, r):
    if kwargs.get('out') is not None:
        return True
    return any(r is a for a in args)


def _template_method(base, owned=True):
    """A method whose array result takes the class of self (copies, views,
    reshapes, ...): ndarray's on a plain view, the result finalized (a new
    array owned by the instance, as NumPy's copies are; owned=False: a view
    of it, as NumPy's ufunc-made results through __array_wrap__: for
    cumsum/cumprod/clip self's __array_wrap__ is called, as NumPy's
    accumulate and clip ufunc call it)."""
    name = base.__name__
    def method(self, *args, **kwargs):
        v = self._view()
        r = base(v, *args, **kwargs)
        if r is v:
            return self
        if type(r) is not ndarray or _has_out(args, kwargs, r):
            return r
        if name in ('cumsum', 'cumprod'):
            # NumPy's accumulate runs on the instance raveled (a view of its
            # class) without an axis, and its __array_wrap__ wraps the result
            axis = args[0] if args else kwargs.get('axis')
            src = self.ravel() if axis is None and self.ndim != 1 else self
            return _umath.apply_array_wrap(src.__array_wrap__, r, None, False)
        if name == 'clip':
            return _umath.apply_array_wrap(self.__array_wrap__, r,
                                           (_NP_CLIP, (self,) + args, 0), False)
        return _finalize_as(r, self, None, owned)
    method.__name__ = base.__name__
    method.__qualname__ = '_SubclassBase.' + base.__name__
    method.__doc__ = base.__doc__
    return method


def _order_met(a, order):
    """Whether a's layout is what order asks of a result that may be a
    itself (astype's copy=False): 'K' any, 'C'/'F' that contiguity, 'A'
    either."""
    o = (order or 'K').upper()
    f = a.flags
    return o == 'K' or (o == 'C' and f.c_contiguous) or (o == 'F' and f.f_contiguous) or \
        (o == 'A' and (f.c_contiguous or f.f_contiguous))


def _astype(self, /, dtype, order='K', casting='unsafe', subok=True, copy=True):
    v = self._view()
    r = ndarray.astype(v, dtype, order, casting, subok, copy)
    if r is v:
        # copy=False: self itself, but subok=False never returns a subclass
        # instance (NumPy's copy)
        return self if subok else v._copy()
    if not subok or type(r) is not ndarray:
        return r
    return _finalize_as(r, self, None, True)


_REDUCE_UFUNC = {'sum': 'add', 'prod': 'multiply', 'max': 'maximum', 'min': 'minimum',
                 'any': 'logical_or', 'all': 'logical_and'}


def _reduction_method(name):
    """A reduction (sum, max, mean, ...): through the class's __array_ufunc__
    when it overrides it (as NumPy's methods call ufunc.reduce), else
    ndarray's on a plain view, the result through self.__array_wrap__."""
    base = getattr(ndarray, name)
    # (the code's own parameters: inspect.signature(base) is NumPy's, _docs)
    sig = inspect.signature(getattr(base, '__wrapped__', base), follow_wrapped=False)
    uname = _REDUCE_UFUNC.get(name)

    def method(self, *args, **kwargs):
        if uname is not None and _overrides_ufunc(type(self)):
            ba = sig.bind(self, *args, **kwargs)
            ba.apply_defaults()
            a = ba.arguments
            kw = {'axis': a['axis'],
                  'dtype': _np.dtype(bool) if name in ('any', 'all') else a.get('dtype')}
            if a['out'] is not None:
                kw['out'] = (a['out'],)
            kw['keepdims'] = a['keepdims']
            if a.get('initial', _NoValue) is not _NoValue:
                kw['initial'] = a['initial']
            if name not in ('any', 'all') or a['where'] is not True:
                kw['where'] = a['where']
            return _ufunc_call(_umath.UFUNCS[uname], 'reduce', (self,), kw)
        return plain(self, *args, **kwargs)

    def plain(self, *args, **kwargs):
        r = base(self._view(), *args, **kwargs)
        if _has_out(args, kwargs, r):
            return r
        return _wrap_result(self, r, None)
    method.__wrapped__ = plain
    method.__name__ = name
    method.__qualname__ = '_SubclassBase.' + name
    method.__doc__ = base.__doc__
    return method


def _mean(self, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    """NumPy's mean of a subclass instance: the class's sum (through its
    __array_ufunc__ or __array_wrap__), then an in-place division by the
    count, so that the subclass sees the same calls as under NumPy."""
    if where is not True or out is not None or self.size == 0 or \
            (dtype is None and D.KIND[self._dt] not in 'iubfc'):
        return _MEAN_PLAIN(self, axis, dtype, out, keepdims, where=where)
    if dtype is None and D.KIND[self._dt] in 'iub':
        dtype = _np.dtype(_np.float64)
    # add.reduce as NumPy's _mean calls it (not an override of sum)
    ret = _SubclassBase.__dict__['sum'](self, axis=axis, dtype=dtype, keepdims=keepdims)
    shape = self.shape
    if axis is None:
        n = self.size
    else:
        axes = axis if isinstance(axis, tuple) else (axis,)
        n = 1
        for k in axes:
            n *= shape[operator.index(k) % self.ndim if self.ndim else 0]
    if isinstance(ret, Array):
        return _umath.UFUNCS['true_divide'](ret, n, out=ret, casting='unsafe', subok=False)
    return ret / n


_TEMPLATE_METHODS = (
    'reshape', 'ravel', 'flatten', 'transpose', 'swapaxes', 'squeeze', 'copy', 'diagonal',
    'repeat', 'take', '__copy__', '__deepcopy__', 'argsort', 'argmax', 'argmin', 'clip',
    'round', 'compress', 'choose', 'cumsum', 'cumprod', 'dot', 'argpartition', 'trace')
# NumPy computes these with ufuncs: a subclass gets a view of the new array
# (__array_wrap__), not an array owning its data
_WRAPPED_METHODS = frozenset(('clip', 'round', 'cumsum', 'cumprod', 'trace'))
_NP_CLIP = _np._core.umath.clip      # the ufunc the clip method's wrap context names
_REDUCTION_METHODS = ('sum', 'prod', 'max', 'min', 'any', 'all', 'var', 'std', 'ptp')


def _template_property(prop):
    get = _template_method(prop.fget)
    return property(get, prop.fset, None, prop.__doc__)


def _in_place_method(base):
    """A method that writes into self (sort, partition, ...): ndarray's on a
    plain view of the same data."""
    def method(self, *args, **kwargs):
        return base(self._view(), *args, **kwargs)
    method.__name__ = base.__name__
    method.__qualname__ = '_SubclassBase.' + base.__name__
    method.__doc__ = base.__doc__
    return method


def _iter_sub(self):
    """NumPy's iteration of a subclass instance: a 0-d one raises at once;
    a class with its own __getitem__ gives its __getitem__(0), (1), ...
    until IndexError (NumPy's iterator is Python's sequence iterator, whose
    item slot is that __getitem__: quantities' elements keep their units),
    else the elements, views of its class."""
    if self.ndim == 0:
        raise TypeError("iteration over a 0-d array")
    getitem = type(self).__getitem__
    if getitem is not ndarray.__getitem__:
        return _getitem_iter(self, getitem)
    return (_finalize_as(x, self) if type(x) is ndarray else x
            for x in ndarray.__iter__(self._view()))


def _getitem_iter(self, getitem):
    i = 0
    while True:
        try:
            v = getitem(self, i)
        except (IndexError, StopIteration):
            return
        yield v
        i += 1


def _round_sub(self, /, decimals=0, out=None):
    """NumPy's round of a subclass instance: its class through the ufuncs
    (decimals 0, complex, integers with decimals >= 0), but a new base-class
    array where NumPy's PyArray_Round allocates one (float with decimals
    other than 0, integers with decimals < 0)."""
    decimals = _fromnumeric.round_decimals(decimals)
    if out is None and ((decimals != 0 and D.KIND[self._dt] == 'f') or
                        (decimals < 0 and D.KIND[self._dt] in 'iu')):
        return ndarray.round(self._view(), decimals)
    return _ROUND_SUB(self, decimals, out)


def _trace_sub(self, /, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    """NumPy's trace of a subclass instance (PyArray_Trace): add.reduce of
    its diagonal (a view of its class) along the last axis, wrapped by the
    ufunc's rules; a 0-d result is a scalar (PyArray_Return)."""
    r = _umath.UFUNCS['add'].reduce(self.diagonal(offset, axis1, axis2), -1, dtype, out)
    return r._scalar() if out is None and isinstance(r, Array) and r.ndim == 0 else r


def _make_subclass_base():
    ns = {'__slots__': (), '__module__': __name__, 'astype': _astype,
          '__iter__': _iter_sub, 'mean': _mean,
          '__doc__': "The base of every ndarray subclass: ndarray's methods, their "
                     "results wrapped as NumPy's subclassing rules say."}
    for n in _TEMPLATE_METHODS + tuple(METHOD_FALLBACKS):
        ns[n] = _template_method(getattr(ndarray, n), n not in _WRAPPED_METHODS)
    for n in _REDUCTION_METHODS:
        ns[n] = _reduction_method(n)
    ns['round'] = _round_sub
    ns['trace'] = _trace_sub
    for n in ('sort', 'partition', 'put', 'fill', 'item', 'tolist', 'nonzero',
              'searchsorted'):
        ns[n] = _in_place_method(getattr(ndarray, n))
    for n in ('T', 'mT', 'real', 'imag'):
        ns[n] = _template_property(ndarray.__dict__[n])
    return type(ndarray)('_SubclassBase', (ndarray,), ns)


def _adopt_subclass(cls):
    """Puts _SubclassBase in place of ndarray among cls's bases (so that
    super() in the subclass reaches the wrapping methods too)."""
    if _SubclassBase is None or ndarray not in cls.__bases__:
        return
    try:
        cls.__bases__ = tuple(_SubclassBase if b is ndarray else b for b in cls.__bases__)
    except TypeError:
        # a layout Python refuses to rebase: the wrappers go on cls itself
        for n, f in _SubclassBase.__dict__.items():
            if not n.startswith('__') or n in ('__iter__', '__copy__', '__deepcopy__'):
                if n not in cls.__dict__:
                    setattr(cls, n, f)


def _readonly(name):
    def setter(self, value=None):       # (deleting: no value)
        raise AttributeError(f"attribute '{name}' of 'numpy.ndarray' objects is not writable")
    return setter


# NumPy's read-only attributes: its message when set or deleted (strides,
# which NumPy 2.4 still lets a program set, deprecated, has its setter above)
for _name in ('device', 'T', 'mT', 'flags', 'base', 'data', '__array_interface__', 'ctypes'):
    _p = ndarray.__dict__[_name]
    setattr(ndarray, _name, property(_p.fget, _readonly(_name), _readonly(_name), _p.__doc__))

_MEAN_PLAIN = _reduction_method('mean').__wrapped__
_ND_METHOD_CODES = frozenset(f.__code__ for f in ndarray.__dict__.values()
                             if inspect.isfunction(f))
_ROUND_SUB = _template_method(ndarray.round, False)
_SubclassBase = _make_subclass_base()

_core._subclass_hooks(_unop_hook, _subscript_hook)
C.subclass_like = _subclass_like
C.subclass_method = _subclass_method
C.wrap_by_inputs = _wrap_by_inputs
C.ND = ndarray


_umath._ND = ndarray


_umath._SUBCLASS_CALL = _ufunc_call
