"""ndtile.ndarray: numpy.ndarray's interface over a tiled array.

The type derives from the C type _core.Array, which holds the ndt_array
handle and implements the hot paths (operators with arrays and Python
scalars, basic indexing, shape/dtype). Everything else is here; methods
that ndtile does not implement run NumPy's on gathered data (see
_fallback), with a warning.
"""
import builtins
import operator

import numpy as _np

from . import _core
from . import _dtypes as D
from . import _convert as C
from . import _fallback as F
from . import _reduce as R
from . import _manip as M
from . import _ufunc as U
from . import _printing as P

Array = _core.Array
_NoValue = _np._NoValue


def _dummy(a):
    """A zero-memory NumPy array of a's shape and dtype (to raise NumPy's
    own errors for conversions of arrays that are not size 1)."""
    return _np.broadcast_to(_np.zeros((), a.dtype), a.shape)


class flatiter:
    """a.flat: iteration and indexing over the C-order flattened array.
    Indexing it gives copies (NumPy's flatiter never returns a view)."""

    def __init__(self, base):
        self.base = base

    def __iter__(self):
        return iter(C.to_numpy(self.base).ravel())

    def __len__(self):
        return self.base.size

    def __array__(self, dtype=None, copy=None):
        return C.to_numpy(self.base).ravel().astype(dtype) if dtype else \
            C.to_numpy(self.base).ravel()

    def __getitem__(self, key):
        base = self.base
        r = base._ravel('C')[key]
        if isinstance(r, Array) and r._same_store(base):
            r = r._copy()
        return r

    def __setitem__(self, key, value):
        base = self.base
        if not base._flags & _WRITEABLE:
            raise ValueError("underlying array is read-only")
        flat = base._ravel('C')
        if flat._same_store(base):
            flat[key] = value
            return
        flat[key] = value          # a copy: write it back
        base._assign(flat._reshape(base.shape), 4)

    def copy(self):
        r = self.base._ravel('C')
        return r._copy() if r._same_store(self.base) else r


# NumPy's flag bits (ndarray.flags.num); _core.Array._flags gives the first five
_C, _F, _OWNDATA, _ALIGNED, _WRITEABLE, _WRITEBACKIFCOPY = 0x1, 0x2, 0x4, 0x100, 0x400, 0x2000
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
    aligned = property(lambda self: True, lambda self, v: self._set('aligned', v))
    writebackifcopy = property(lambda self: False,
                               lambda self, v: self._set('writebackifcopy', v))
    contiguous = c_contiguous
    fortran = f_contiguous
    fnc = property(lambda self: bool(self._f & _F) and not self._f & _C)
    forc = property(lambda self: bool(self._f & (_F | _C)))
    behaved = property(lambda self: bool(self._f & _WRITEABLE))
    carray = property(lambda self: bool(self._f & _WRITEABLE) and bool(self._f & _C))
    # what NumPy's flagsobj answers (its farray is true for every array that
    # is not C-contiguous, whatever its other flags)
    farray = property(lambda self: not self._f & _C)
    num = property(lambda self: self._f)

    @property
    def writeable(self):
        return bool(self._f & _WRITEABLE)

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
        if not isinstance(other, flagsobj):
            return NotImplemented
        return self._f == other._f

    __hash__ = None

    def __repr__(self):
        return "\n".join(f"  {n.upper()} : {getattr(self, n)}" for n in (
            'c_contiguous', 'f_contiguous', 'owndata', 'writeable', 'aligned',
            'writebackifcopy')) + "\n"


_Flags = flagsobj


def _reconstruct(npa):
    return C.np_or_nd(npa)


class ndarray(Array):
    """An N-dimensional array split into tiles; operations on it run as
    tasks on all cores. Behaves like numpy.ndarray."""

    __slots__ = ()
    __array_priority__ = 20.0

    def __new__(cls, shape, dtype=float, buffer=None, offset=0, strides=None, order=None):
        if buffer is None and strides is None:
            from ._creation import empty
            return empty(shape, dtype)
        return C.np_or_nd(_np.ndarray(shape, dtype, buffer, offset, strides, order).copy())

    # ---- NumPy protocols ------------------------------------------------------
    def __array__(self, dtype=None, copy=None):
        if copy is False:
            raise ValueError("Unable to avoid copy while creating an array as requested: the "
                             "data of an ndtile array lives in tiles")
        a = C.to_numpy(self)
        if dtype is not None and _np.dtype(dtype) != a.dtype:
            a = a.astype(dtype)
        return a

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        u = U.wrap_numpy_ufunc(ufunc)
        if method == '__call__':
            return u(*inputs, **kwargs)
        if method in ('reduce', 'accumulate', 'reduceat', 'outer', 'at'):
            return getattr(u, method)(*inputs, **kwargs)
        return NotImplemented

    def __array_function__(self, func, types, args, kwargs):
        return F.array_function(func, types, args, kwargs)

    def __array_namespace__(self, *, api_version=None):
        import ndtile
        return ndtile

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        if copy is False:
            raise BufferError("ndtile arrays cannot be exported without a copy")
        a = C.to_numpy(self)
        kw = {}
        if max_version is not None:
            kw['max_version'] = max_version
        if dl_device is not None:
            kw['dl_device'] = dl_device
        return a.__dlpack__(stream=stream, **kw)

    def __dlpack_device__(self):
        return (1, 0)    # kDLCPU

    @property
    def device(self):
        return 'cpu'

    def to_device(self, device, /, *, stream=None):
        if device != 'cpu':
            raise ValueError(f"Unsupported device {device!r}")
        return self

    # ---- printing ---------------------------------------------------------------
    def __repr__(self):
        return P.array_repr(self)

    def __str__(self):
        return P.array_str(self)

    def __format__(self, spec):
        if self.ndim == 0:
            return format(self._scalar(), spec)
        if spec == '':
            return str(self)
        return format(_dummy(self), spec)

    # ---- conversions --------------------------------------------------------------
    def __bool__(self):
        if self.size == 1:
            return bool(self._item())
        return bool(_dummy(self))

    def __int__(self):
        if self.size == 1:
            return int(C.to_numpy(self))     # NumPy's rules (complex -> float raises)
        return int(_dummy(self))

    def __float__(self):
        if self.size == 1:
            return float(C.to_numpy(self))     # NumPy's rules (complex -> float raises)
        return float(_dummy(self))

    def __complex__(self):
        if self.size == 1:
            return complex(C.to_numpy(self))     # NumPy's rules (complex -> float raises)
        return complex(_dummy(self))

    def __index__(self):
        if self.ndim == 0 and D.KIND[self._dt] in 'iu':
            return int(self._item())
        raise TypeError("only integer scalar arrays can be converted to a scalar index")

    def __len__(self):
        if self.ndim == 0:
            raise TypeError("len() of unsized object")
        return self.shape[0]

    def __iter__(self):
        if self.ndim == 0:
            raise TypeError("iteration over a 0-d array")
        if self.ndim == 1:
            return iter(C.to_numpy(self))
        return (self._view_index(i) for i in range(self.shape[0]))

    def __contains__(self, value):
        return bool(R.any(self == value))

    def __copy__(self):
        return self._copy()

    def __deepcopy__(self, memo):
        return self._copy()

    def __reduce__(self):
        return (_reconstruct, (C.to_numpy(self),))

    # operators not in the C slots
    def __matmul__(self, other):
        return U.UFUNCS['matmul'](self, other)

    def __rmatmul__(self, other):
        return U.UFUNCS['matmul'](other, self)

    def __imatmul__(self, other):
        return U.UFUNCS['matmul'](self, other, out=self)

    def __divmod__(self, other):
        return U.UFUNCS['floor_divide'](self, other), U.UFUNCS['remainder'](self, other)

    def __rdivmod__(self, other):
        return U.UFUNCS['floor_divide'](other, self), U.UFUNCS['remainder'](other, self)

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
        return self._real()

    @real.setter
    def real(self, value):
        self._real()[...] = value

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

    @property
    def flags(self):
        return flagsobj(self)

    def setflags(self, write=None, align=None, uic=None):
        """NumPy's setflags: write=False makes the array read-only (ops that
        write into it raise ValueError, and views made from it are read-only);
        write=True fails on a view of a read-only base, as in NumPy."""
        if uic:
            raise ValueError("cannot set WRITEBACKIFCOPY flag to True")
        if align is not None and not align:
            pass      # ndtile arrays are always aligned (NumPy allows clearing it)
        if write is not None:
            self._set_writeable(bool(write))

    @property
    def base(self):
        return None if self._flags & _OWNDATA else self

    @property
    def data(self):
        return memoryview(C.to_numpy(self))

    # ---- methods --------------------------------------------------------------------------
    def astype(self, dtype, order='K', casting='unsafe', subok=True, copy=True):
        if casting != 'unsafe' and D.check_casting(casting, True) == 'same_value':
            # NumPy 2.4's value-checking cast runs in NumPy
            return C.np_or_nd(C.to_numpy(self).astype(dtype, order, casting, subok, copy))
        dt = D.as_dtype(dtype)
        c = D.code(dt)
        if c is None:
            return C.to_numpy(self).astype(dt, casting=casting)
        if c == self._dt and not copy:
            return self
        return self._astype(c, D.CASTING[casting])

    def copy(self, order='C'):
        return self._copy()

    def view(self, dtype=None, type=None):
        if dtype is None and type is None:
            return self._view()
        if isinstance(dtype, builtins.type) and issubclass(dtype, ndarray):
            return self._view()
        if dtype is not None and _np.dtype(dtype) == self.dtype:
            return self._view()
        F.notify("ndarray.view (dtype)")
        return C.np_or_nd(C.to_numpy(self).view(dtype))

    def fill(self, value):
        if isinstance(value, _np.generic):
            # a NumPy scalar is cast (unsafe), as NumPy does: float64(-1.5)
            # fills a uint8 array with 255; Python numbers are checked below
            value = value.astype(self.dtype).item() if D.code(value.dtype) is not None \
                else value.item()
        if isinstance(value, Array):
            if value.size != 1:
                raise ValueError("Input object to FillWithScalar is not a scalar")
            value = value._item()
        v = _np.asarray(value, dtype=self.dtype).item() if not isinstance(
            value, (bool, float)) or D.KIND[self._dt] in 'iu' else value
        self._assign(v, 4)

    def reshape(self, *shape, order='C', copy=None):
        if len(shape) == 1:
            shape = shape[0]    # NumPy: an int, a sequence, an int array; None a view
        elif not shape:
            raise TypeError("reshape() takes exactly 1 argument (0 given)")
        if order not in ('C', 'A', 'K', None):
            F.notify("ndarray.reshape (order='F')")
            return C.np_or_nd(C.to_numpy(self).reshape(shape, order=order))
        r = self._view() if shape is None else self._reshape(
            shape if type(shape) is tuple else M.shape_arg(shape))
        if copy is False and not r._same_store(self):
            raise ValueError("Unable to avoid creating a copy while reshaping.")
        if copy and r._same_store(self):
            r = r._copy()
        return r

    def ravel(self, order='C'):
        return M.ravel(self, order)

    def flatten(self, order='C'):
        r = self._ravel(C.ravel_order(order))
        return r._copy() if r._same_store(self) else r

    def transpose(self, *axes):
        if len(axes) == 1:
            axes = axes[0]      # NumPy: None, an int, a sequence or an int array
        elif not axes:
            axes = None
        return M.transpose(self, axes)

    def swapaxes(self, axis1, axis2):
        return M.swapaxes(self, axis1, axis2)

    def squeeze(self, axis=None):
        return M.squeeze(self, axis)

    def sum(self, axis=None, dtype=None, out=None, keepdims=False, initial=_NoValue,
            where=True):
        return R.sum(self, axis, dtype, out, keepdims, initial, where)

    def prod(self, axis=None, dtype=None, out=None, keepdims=False, initial=_NoValue,
             where=True):
        return R.prod(self, axis, dtype, out, keepdims, initial, where)

    def max(self, axis=None, out=None, keepdims=False, initial=_NoValue, where=True):
        return R.max(self, axis, out, keepdims, initial, where)

    def min(self, axis=None, out=None, keepdims=False, initial=_NoValue, where=True):
        return R.min(self, axis, out, keepdims, initial, where)

    def mean(self, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
        return R.mean(self, axis, dtype, out, keepdims, where=where)

    def var(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True,
            mean=_NoValue, correction=_NoValue):
        return R.var(self, axis, dtype, out, ddof, keepdims, where=where, mean=mean,
                   correction=correction)

    def std(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True,
            mean=_NoValue, correction=_NoValue):
        return R.std(self, axis, dtype, out, ddof, keepdims, where=where, mean=mean,
                   correction=correction)

    def argmax(self, axis=None, out=None, *, keepdims=False):
        return R.argmax(self, axis, out, keepdims=keepdims)

    def argmin(self, axis=None, out=None, *, keepdims=False):
        return R.argmin(self, axis, out, keepdims=keepdims)

    def any(self, axis=None, out=None, keepdims=False, *, where=True):
        return R.any(self, axis, out, keepdims, where=where)

    def all(self, axis=None, out=None, keepdims=False, *, where=True):
        return R.all(self, axis, out, keepdims, where=where)

    def ptp(self, axis=None, out=None, keepdims=False):
        return R.ptp(self, axis, out, keepdims)

    def clip(self, min=None, max=None, out=None, **kwargs):
        return M.clip(self, min, max, out, **kwargs)

    def round(self, decimals=0, out=None):
        return M.round(self, decimals, out)

    def conj(self):
        # NumPy's method returns the array itself unless it is complex (the
        # function np.conjugate always makes a new array)
        if D.KIND[self._dt] != 'c':
            return self
        return U.UFUNCS['conjugate'](self)

    conjugate = conj

    def nonzero(self):
        return M.nonzero(self)

    def sort(self, axis=-1, kind=None, order=None, *, stable=None):
        if order is not None:
            F.notify('ndarray.sort')
            return F.run_numpy(_np.ndarray.sort, (self, axis, kind, order),
                               dict(stable=stable), 'ndarray.sort')
        if not self._flags & _WRITEABLE:
            raise ValueError("sort array is read-only")
        r = M.sort(self, operator.index(axis), kind, None, stable=stable)
        self._assign(r, 4)

    def argsort(self, axis=-1, kind=None, order=None, *, stable=None):
        return M.argsort(self, axis, kind, order, stable=stable)

    def partition(self, kth, axis=-1, kind='introselect', order=None):
        from . import _counting
        if not self._flags & _WRITEABLE:
            raise ValueError("partition array is read-only")
        if order is not None:
            return F.call('ndarray.partition', _np.ndarray.partition,
                          (self, kth, axis, kind, order), {})
        self._assign(_counting.partition(self, kth, axis, kind), 4)

    def argpartition(self, kth, axis=-1, kind='introselect', order=None):
        from . import _counting
        return _counting.argpartition(self, kth, axis, kind, order)

    def searchsorted(self, v, side='left', sorter=None):
        from . import _counting
        return _counting.searchsorted(self, v, side, sorter)

    def tolist(self):
        return C.to_numpy(self).tolist()

    def item(self, *args):
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

    def tobytes(self, order='C'):
        return C.to_numpy(self).tobytes(order)

    def dot(self, b, out=None):
        from ._manip import dot
        return dot(self, b, out)

    def cumsum(self, axis=None, dtype=None, out=None):
        return R.cumsum(self, axis, dtype, out)

    def cumprod(self, axis=None, dtype=None, out=None):
        return R.cumprod(self, axis, dtype, out)

    def repeat(self, repeats, axis=None):
        return M.repeat(self, repeats, axis)

    def take(self, indices, axis=None, out=None, mode='raise'):
        return M.take(self, indices, axis, out, mode)

    def put(self, indices, values, mode='raise'):
        return M.put(self, indices, values, mode)

    def diagonal(self, offset=0, axis1=0, axis2=1):
        return M.diagonal(self, offset, axis1, axis2)

    def trace(self, offset=0, axis1=0, axis2=1, dtype=None, out=None):
        return M.trace(self, offset, axis1, axis2, dtype, out)

    # Files and pickles: the data is gathered to the host (written once, by
    # rank 0, on many ranks).
    def tofile(self, fid, sep='', format='%s'):
        return F.run_numpy(_np.ndarray.tofile, (self, fid, sep, format), {}, 'ndarray.tofile')

    def dump(self, file):
        return F.run_numpy(_np.ndarray.dump, (self, file), {}, 'ndarray.dump')

    def dumps(self):
        return C.to_numpy(self).dumps()

    def compress(self, condition, axis=None, out=None):
        from ._functions import compress
        return compress(condition, self, axis, out)

    def choose(self, choices, out=None, mode='raise'):
        from ._functions import choose
        return choose(self, choices, out, mode)

    def __array_wrap__(self, array, context=None, return_scalar=False):
        if return_scalar and array.ndim == 0:
            return array[()]
        return C.np_or_nd(array)


def _make_method_fallback(name):
    npmeth = getattr(_np.ndarray, name)
    qual = 'ndarray.' + name

    def method(self, *args, **kwargs):
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
