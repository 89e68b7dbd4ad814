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
    """a.flat: iteration and indexing over the C-order flattened array."""

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
        flat = self.base._reshape((-1,))
        return flat[key]

    def __setitem__(self, key, value):
        base = self.base
        flat = base._reshape((-1,))
        if flat._same_store(base):
            flat[key] = value
            return
        flat[key] = value          # a copy: write it back
        base._assign(flat._reshape(base.shape), 4)

    def copy(self):
        return self.base._reshape((-1,))._copy()


class _Flags:
    def __init__(self, a):
        self._a = a

    @property
    def c_contiguous(self):
        return self._a._c_contiguous

    @property
    def f_contiguous(self):
        a = self._a
        if a.ndim <= 1 or a.size <= 1:
            return a._c_contiguous or a.size <= 1
        return a.T._c_contiguous     # Fortran order is C order of the reversed axes

    contiguous = c_contiguous
    writeable = True
    aligned = True
    writebackifcopy = False

    @property
    def owndata(self):
        return self._a._whole

    def __getitem__(self, k):
        return getattr(self, {'C_CONTIGUOUS': 'c_contiguous', 'C': 'c_contiguous',
                              'F_CONTIGUOUS': 'f_contiguous', 'F': 'f_contiguous',
                              'OWNDATA': 'owndata', 'WRITEABLE': 'writeable',
                              'W': 'writeable', 'ALIGNED': 'aligned'}.get(k, k.lower()))

    def __repr__(self):
        return "\n".join(f"  {n.upper()} : {getattr(self, n)}" for n in (
            'c_contiguous', 'f_contiguous', 'owndata', 'writeable', 'aligned',
            'writebackifcopy'))


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
        return self._imag()

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
        self.flat[...] = value

    @property
    def strides(self):
        """Byte strides: NumPy's C-order strides for a C-contiguous array,
        else the view's steps through its (C-order) store."""
        isz = self.itemsize
        if self.size == 0:
            return (0,) * self.ndim
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
        return _Flags(self)

    @property
    def base(self):
        return None if self._whole else self

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
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        if order not in ('C', 'A', 'K', None):
            F.notify("ndarray.reshape (order='F')")
            return C.np_or_nd(C.to_numpy(self).reshape(shape, order=order))
        r = self._reshape(tuple(operator.index(s) for s in shape))
        if copy is False and not r._same_store(self):
            raise ValueError("Unable to avoid creating a copy while reshaping.")
        if copy and r._same_store(self):
            r = r._copy()
        return r

    def ravel(self, order='C'):
        return M.ravel(self, order)

    def flatten(self, order='C'):
        if order not in ('C', 'A', 'K'):
            F.notify("ndarray.flatten (order='F')")
            return C.np_or_nd(C.to_numpy(self).flatten(order))
        return self._copy()._reshape((-1,))

    def transpose(self, *axes):
        if len(axes) == 1 and (axes[0] is None or isinstance(axes[0], (tuple, list))):
            axes = axes[0]
        elif not axes:
            axes = None
        return M.transpose(self, axes)

    def swapaxes(self, axis1, axis2):
        return self._swapaxes(operator.index(axis1), operator.index(axis2))

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
        return U.UFUNCS['conjugate'](self)

    conjugate = conj

    def nonzero(self):
        return M.nonzero(self)

    def sort(self, axis=-1, kind=None, order=None, *, stable=None):
        if order is not None:
            F.notify('ndarray.sort')
            return F.run_numpy(_np.ndarray.sort, (self, axis, kind, order),
                               dict(stable=stable), 'ndarray.sort')
        r = M.sort(self, operator.index(axis), kind, None, stable=stable)
        self._assign(r, 4)

    def argsort(self, axis=-1, kind=None, order=None, *, stable=None):
        return M.argsort(self, axis, kind, order, stable=stable)

    def partition(self, kth, axis=-1, kind='introselect', order=None):
        from . import _counting
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
