"""Array creation: array, asarray, zeros, ones, full, empty, arange,
linspace, eye, identity, *_like, copy."""
import operator

import numpy as _np

from . import _core
from . import _order as _O
from . import _dtypes as D
from . import _convert as C
from . import _fallback as F

Array = _core.Array
_NoValue = _np._NoValue


_MAXDIM = 2**63 - 1


def _dim(s):
    if isinstance(s, (bool, _np.bool_)):
        raise TypeError("an integer is required")
    n = operator.index(s)
    if n > _MAXDIM:
        raise ValueError("Maximum allowed dimension exceeded")
    return n


def _shape(shape):
    """A shape argument as NumPy's C functions parse it (PyArray_IntpConverter):
    an int (no bool) or a sequence of ints, including a 1-d integer array
    (zeros(np.array([2, 3]))) and a 0-d one; dimensions beyond int64 a
    ValueError, and NumPy's TypeErrors for the rest."""
    if type(shape) is int and shape <= _MAXDIM:
        return (shape,)
    if isinstance(shape, (tuple, list)):
        return tuple(_dim(s) for s in shape)
    if isinstance(shape, Array):
        shape = C.to_numpy(shape)
    if shape is None:
        raise TypeError("Use () not None as shape arguments")
    if isinstance(shape, str):
        raise TypeError("'str' object cannot be interpreted as an integer")
    if isinstance(shape, (_np.ndarray, range)) and _np.ndim(shape) > 0:
        return tuple(_dim(s) for s in shape)
    if not isinstance(shape, (bool, _np.bool_)):
        try:
            n = operator.index(shape)
        except TypeError:
            n = None
        if n is not None:
            if n > _MAXDIM:
                raise ValueError("Maximum allowed dimension exceeded")
            return (n,)
    raise TypeError(f"expected a sequence of integers or a single integer, got '{shape!r}'")


def _creation_order(order):
    """NumPy's errors for order= of zeros, ones, empty, full."""
    if order in ('C', 'F', None, 'c', 'f'):
        return
    if not isinstance(order, str):
        raise TypeError(f"order must be str, not {type(order).__name__}")
    if order.upper() in ('A', 'K'):
        raise ValueError("only 'C' or 'F' order is permitted")
    raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got '{order}')")


def _like_order_check(order):
    """NumPy's errors for order= of the *_like functions (A and K allowed)."""
    if order in ('K', 'C', 'F', 'A', None):
        return
    if not isinstance(order, str):
        raise TypeError(f"order must be str, not {type(order).__name__}")
    if order.upper() not in ('K', 'C', 'F', 'A'):
        raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got '{order}')")


# NumPy's device= check: only "cpu" (ndtile places tiles itself)
from ._array_api import _check_device as _device  # noqa: E402


def empty(shape, dtype=float, order='C', *, device=None, like=None):
    if device is not None:
        _device(device)
    c = D.code_of(dtype)
    if c is None:
        return _np.empty(shape, dtype=dtype, order=order)
    if order != 'C':
        _creation_order(order)
        if order in ('F', 'f'):
            return _O.f_empty(_shape(shape), c, None)
    return _core.empty(shape if type(shape) is tuple else _shape(shape), c)


def zeros(shape, dtype=float, order='C', *, device=None, like=None):
    if device is not None:
        _device(device)
    c = D.code_of(dtype)
    if c is None:
        return _np.zeros(shape, dtype=dtype, order=order)
    if order != 'C':
        _creation_order(order)
        if order in ('F', 'f'):
            return _O.f_empty(_shape(shape), c, (_core.zeros,))
    return _core.zeros(shape if type(shape) is tuple else _shape(shape), c)


def ones(shape, dtype=None, order='C', *, device=None, like=None):
    if device is not None:
        _device(device)
    c = D.code_of(dtype)
    if c is None:
        return _np.ones(shape, dtype=dtype, order=order)
    if order != 'C':
        _creation_order(order)
        if order in ('F', 'f'):
            return _O.f_empty(_shape(shape), c, (_core.ones,))
    return _core.ones(shape if type(shape) is tuple else _shape(shape), c)


def full(shape, fill_value, dtype=None, order='C', *, device=None, like=None):
    if device is not None:
        _device(device)
    if order != 'C':
        _creation_order(order)
    if isinstance(fill_value, Array) and fill_value.ndim == 0:
        fill_value = fill_value._scalar()
    if isinstance(fill_value, (Array, _np.ndarray, list, tuple)):
        fv = C.asarray(fill_value, None if dtype is None else D.as_dtype(dtype))
        dt = fv.dtype if dtype is None else D.as_dtype(dtype)
        c = D.code(dt)
        if c is None or not isinstance(fv, Array):
            return _np.full(shape, C.to_np_tree(fill_value), dtype=dt, order=order)
        r = _core.empty(_shape(shape), c) if order not in ('F', 'f') else \
            _O.f_empty(_shape(shape), c)
        r._assign(fv, 4)
        return r
    dt = _np.array(fill_value).dtype if dtype is None else D.as_dtype(dtype)
    c = D.code(dt)
    if c is None:
        return _np.full(shape, fill_value, dtype=dt, order=order)
    v = _np.full((), fill_value, dtype=dt)     # NumPy's conversion rules and errors
    if order in ('F', 'f'):
        return _O.f_empty(_shape(shape), c, (_core.full, v.item()))
    return _core.full(_shape(shape), c, v.item())


def _like_dtype(a, dtype):
    if dtype is not None:
        return D.as_dtype(dtype)
    if isinstance(a, (Array, _np.ndarray)):
        return a.dtype
    return _np.asarray(a).dtype


def _like_shape(a, shape):
    if shape is not None:
        return _shape(shape)
    if isinstance(a, (Array, _np.ndarray)):
        return a.shape
    return _np.shape(a)


def _like_order(a, order, shape):
    """NumPy's layout of a *_like result: 'F' is F; 'K' and 'A' follow a
    Fortran-ordered prototype (when the shape is its own)."""
    if order in ('F', 'f'):
        return 'F'
    if order in ('K', 'A', 'k', 'a', None) and shape is None and isinstance(a, Array) and \
            _O.is_f_only(a):
        return 'F'
    return 'C'


def _like(make, a, dtype, order, subok, shape, device, fill=_NoValue):
    """make (empty, zeros, ones; full with fill) of a's shape, dtype and
    layout, with NumPy's *_like argument checks; subok=True gives a subclass
    prototype's class (see _ndarray._subclass_like)."""
    if device is not None:
        _device(device)
    if order != 'K':
        _like_order_check(order)
    if fill is _NoValue:
        r = make(_like_shape(a, shape), _like_dtype(a, dtype), _like_order(a, order, shape))
    else:
        r = make(_like_shape(a, shape), fill, _like_dtype(a, dtype),
                 _like_order(a, order, shape))
    return C.subclass_like(r, a) if subok else r


def empty_like(prototype, dtype=None, order='K', subok=True, shape=None, *, device=None):
    return _like(empty, prototype, dtype, order, subok, shape, device)


def zeros_like(a, dtype=None, order='K', subok=True, shape=None, *, device=None):
    return _like(zeros, a, dtype, order, subok, shape, device)


def ones_like(a, dtype=None, order='K', subok=True, shape=None, *, device=None):
    return _like(ones, a, dtype, order, subok, shape, device)


def full_like(a, fill_value, dtype=None, order='K', subok=True, shape=None, *, device=None):
    return _like(full, a, dtype, order, subok, shape, device, fill_value)


def array(object, dtype=None, *, copy=True, order='K', subok=False, ndmin=0, like=None):
    if order != 'K':
        _like_order_check(order)
    if type(ndmin) is not int or ndmin:
        if isinstance(ndmin, float):
            raise TypeError("integer argument expected, got float")
        ndmin = operator.index(ndmin)
    dt = None if dtype is None else D.as_dtype(dtype)
    if isinstance(object, Array):
        if dt is None or dt == object.dtype:
            r = object._copy() if copy else object
        else:
            if copy is False:
                raise ValueError("Unable to avoid copy while creating an array as requested.")
            r = C.asarray(object, dt)
    elif type(object) in (list, tuple) and object and \
            all(isinstance(o, Array) for o in object) and \
            len({o.shape for o in object}) == 1 and copy is not False:
        # a list of ndtile arrays: stacked in tiles, without a trip through NumPy
        from ._manip import stack
        r = stack(object)
        if dt is not None and dt != r.dtype:
            r = C.asarray(r, dt)
    else:
        if copy is False:
            raise ValueError("Unable to avoid copy while creating an array as requested.\n"
                             "ndtile arrays always copy data from NumPy arrays and Python "
                             "objects into tiles.")
        r = C.asarray(object, dt)
    if ndmin and r.ndim < ndmin:
        shape = (1,) * (ndmin - r.ndim) + r.shape
        r = r._reshape(shape) if isinstance(r, Array) else r.reshape(shape)
    if isinstance(r, Array) and r.ndim > 1 and order not in ('C', 'c', None) and \
            copy is not False:
        # NumPy's layouts: 'F' always, 'K'/'A' that of a Fortran-ordered input
        src = object if isinstance(object, (Array, _np.ndarray)) else None
        if order in ('F', 'f') or (src is not None and src.ndim == r.ndim and
                                   src.flags.f_contiguous and not src.flags.c_contiguous):
            if not (r._flags & 0x3 == 0x2):
                r = _O.f_copy(r)
    if isinstance(object, Array) and type(object) is not C.ND and isinstance(r, Array):
        # a subclass instance: its class with subok, else a base-class array
        if subok:
            r = r if r is object else C.subclass_like(r, object)
        elif type(r) is not C.ND:
            r = r._view()
    return r


def asarray(a, dtype=None, order=None, *, device=None, copy=None, like=None):
    if device is not None:
        _device(device)
    if isinstance(a, Array) and dtype is None:
        # order 'C'/'F' copies an array not contiguous that way (as NumPy;
        # the copy is in C order: ndtile stores hold C order only)
        if copy or (order in ('C', 'F') and
                    not a._flags & (1 if order == 'C' else 2)):
            if copy is False:
                raise ValueError("Unable to avoid copy while creating an array as requested.")
            return _O.order_copy(a, 'K' if order is None else order)
        return a if type(a) is C.ND else a._view()   # a subclass: a base-class view
    r = array(a, dtype, copy=copy)
    if order in ('F', 'f') and isinstance(r, Array) and not r._flags & 0x2:
        r = _O.f_copy(r)
    return r


def asanyarray(a, dtype=None, order=None, *, device=None, copy=None, like=None):
    if device is not None:
        _device(device)
    if isinstance(a, Array) and type(a) is not C.ND:
        # a subclass instance stays one (NumPy's subok=True)
        r = array(a, dtype, copy=copy, order='K' if order is None else order, subok=True)
        return a if r is a else r
    return asarray(a, dtype, order, copy=copy)


def ascontiguousarray(a, dtype=None, *, like=None):
    r = asarray(a, dtype)
    if isinstance(r, Array) and not r._c_contiguous:
        r = r._copy()
    if isinstance(r, Array) and r.ndim == 0:
        r = r._reshape((1,))
    return r


def asfortranarray(a, dtype=None, *, like=None):
    r = asarray(a, dtype, order='F')
    if isinstance(r, Array) and r.ndim == 0:
        r = r._reshape((1,))
    return r


def copy(a, order='K', subok=False):
    if order != 'K':
        _like_order_check(order)
    if isinstance(a, Array):
        r = _O.order_copy(a, order)
        return C.subclass_like(r, a) if subok else r
    return array(a, copy=True)


_ARANGE_ARGS = ('start', 'stop', 'step', 'dtype')


def arange(*args, start=_NoValue, stop=_NoValue, step=_NoValue, dtype=_NoValue, device=None,
           like=None):
    if device is not None:
        _device(device)
    # NumPy's signature: arange([start,] stop[, step,], dtype=None), each of
    # the four also by name (arange(stop=5), arange(5, stop=7))
    if args:
        if len(args) > 4:
            raise TypeError(f"arange() takes from 0 to 4 positional arguments but {len(args)} "
                            f"were given")
        given = [start, stop, step, dtype]
        for i, v in enumerate(args):
            if given[i] is not _NoValue:
                raise TypeError(f"argument for arange() given by name ('{_ARANGE_ARGS[i]}') "
                                f"and position (position {i})")
            given[i] = v
        start, stop, step, dtype = given
    if stop is _NoValue:
        if not args:
            raise TypeError("arange() requires stop to be specified.")
        stop = None
    elif start is _NoValue:
        start = 0
    if dtype is _NoValue:
        dtype = None
    if step is _NoValue or step is None:
        step = None
    if stop is None:
        if start is None:
            return _np.arange(None)     # NumPy's TypeError
        start, stop = 0, start
    vals = [v._scalar() if isinstance(v, Array) and v.ndim == 0 else v
            for v in (start, stop, step)]
    if any(not isinstance(v, (int, float, _np.integer, _np.floating, _np.bool_)) or
           (isinstance(v, float) and not _np.isfinite(v)) for v in vals if v is not None):
        # complex, strings, None, arrays, infinities: NumPy's result or error
        return C.np_or_nd(_np.arange(*[C.to_np_tree(v) for v in vals], dtype=dtype))
    start, stop, step = vals
    if dtype is not None:
        dt = D.as_dtype(dtype)
    else:
        # NumPy: at least intp, promoted with each value's type (so
        # arange(np.uint64(3)) is float64, arange(np.uint8(3)) int64)
        dt = _np.dtype(_np.intp)
        for v in vals:
            if v is not None:
                dt = _np.promote_types(_np.asarray(v).dtype, dt)
    if step is None:
        step = 1
    c = D.code(dt)
    if type(start) is int and c is not None and D.is_int(c):
        lo, hi = D.int_range(c)
        if not lo <= start <= hi:      # NumPy converts start to the dtype
            raise OverflowError(f"Python integer {start} out of bounds for {dt}")
    if c is None or dt.kind in 'bc' or step == 0 or any(
            (isinstance(v, (int, _np.integer)) and abs(int(v)) >= 2**53) or
            (isinstance(v, _np.floating) and not _np.isfinite(v)) for v in vals):
        return C.np_or_nd(_np.arange(start, stop, step, dtype=dtype))
    return _core.arange(float(start), float(stop), float(step), c)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0, *,
             device=None):
    if device is not None:
        _device(device)
    num = operator.index(num)
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    if num >= 2**63:
        raise ValueError("Maximum allowed size exceeded")      # NumPy's arange(0, num)
    scalar = all(isinstance(v, (int, float, _np.integer, _np.floating)) and
                 not isinstance(v, bool) for v in (start, stop))
    dt = None if dtype is None else D.as_dtype(dtype)
    if dt is not None and D.code(dt) is None:
        return F.call("linspace (dtype)", _np.linspace,
                      (start, stop), {'num': num, 'endpoint': endpoint, 'retstep': retstep,
                                      'dtype': dtype, 'axis': axis})
    if not scalar or axis != 0 or (dt is not None and dt.kind == 'c'):
        return _linspace_general(start, stop, num, endpoint, retstep, dt, axis)
    if dt is None:
        dt = _np.result_type(start, stop, float(num))
    c = D.code(dt)
    if c is None:
        return _np.linspace(start, stop, num, endpoint, retstep, dtype, axis)
    if dt.kind == 'b':
        # NumPy floors only for integer dtypes: bools are the float values
        # cast (0.5 is True)
        r = _core.linspace(float(start), float(stop), num, bool(endpoint), D.FLOAT64)
        r = r._astype(c, 4)
    else:
        r = _core.linspace(float(start), float(stop), num, bool(endpoint), c)
    if retstep:
        div = (num - 1) if endpoint else num
        if div <= 0:
            return r, _np.nan       # NumPy: a Python float then
        # NumPy's step has the working type, result_type(start, stop, float)
        wt = _np.result_type(start, stop, float(num))
        return r, wt.type((wt.type(stop) - wt.type(start)) / wt.type(div))
    return r


def _linspace_general(start, stop, num, endpoint, retstep, dtype, axis):
    """linspace with array or complex bounds or another axis: NumPy's
    algorithm (numpy/_core/function_base.py) on ndtile arrays."""
    from . import _ufunc as U
    from ._manip import moveaxis
    div = (num - 1) if endpoint else num
    a, b = asarray(start), asarray(stop)
    if not isinstance(a, Array) or not isinstance(b, Array):
        return F.call("linspace (dtype)", _np.linspace, (start, stop),
                      {'num': num, 'endpoint': endpoint, 'retstep': retstep,
                       'dtype': dtype, 'axis': axis})
    dt = _np.result_type(a.dtype, b.dtype, 1.0)
    integer_dtype = dtype is not None and dtype.kind in 'iu'
    if dtype is None:
        dtype = dt
    delta = U.UFUNCS['subtract'](b.astype(dt), a.astype(dt))
    y = arange(0, num, dtype=dt).reshape((-1,) + (1,) * delta.ndim)
    if div > 0:
        step = delta / div
        if bool(U.UFUNCS['equal'](step, 0).any()):
            y = (y / div) * delta
        else:
            y = y * step
    else:
        step = _np.nan
        y = y * delta
    y = y + a.astype(dt)
    if endpoint and num > 1:
        y[-1, ...] = b
    if axis != 0:
        y = moveaxis(y, 0, axis)
    if integer_dtype:
        y = U.UFUNCS['floor'](y)
    y = y.astype(dtype, copy=False)
    if retstep:
        if isinstance(step, Array) and step.ndim == 0:
            step = step[()]
        return y, step
    return y


def eye(N, M=None, k=0, dtype=float, order='C', *, device=None, like=None):
    if device is not None:
        _device(device)
    dt = D.as_dtype(dtype)
    c = D.code(dt)
    if c is None:
        return _np.eye(N, M, k, dtype=dt, order=order)
    if order != 'C':
        _creation_order(order)
    N = _dim(N)
    M = N if M is None else _dim(M)
    if N < 0 or M < 0:       # M=-1 too: NumPy makes zeros((N, M)) first
        raise ValueError("negative dimensions are not allowed")
    if k >= M:               # NumPy compares before it takes k as an int
        k = M
    k = operator.index(k)
    if k < -N:
        k = -N            # NumPy: a diagonal beyond the array is all zeros
    return _core.eye(N, M, k, c)


def identity(n, dtype=None, *, like=None):
    return eye(n, dtype=dtype)


def frombuffer(buffer, dtype=float, count=-1, offset=0, *, like=None):
    # NumPy's frombuffer: an array over the buffer's memory, no copy (writes
    # through either side are seen by the other), read-only when the buffer
    # is, .base the buffer's exporter as NumPy names it. Where the core cannot
    # share the memory (a dtype it cannot hold, memory not aligned to the
    # dtype, several ranks) the data is copied, with the same flags and .base.
    npa = _np.frombuffer(buffer, dtype, count, offset)
    base = npa.base if npa.base is not None else buffer
    c = D.code(npa.dtype) if npa.dtype.isnative else None
    if c is not None and npa.size:
        try:
            r = _core.from_memory(npa, c, npa.flags.writeable)
        except NotImplementedError:
            r = None
        if r is not None:
            r._set_base(base)
            return r
    r = C.np_or_nd(npa.copy())
    if isinstance(r, Array):
        r._set_base(base)
        if not npa.flags.writeable:
            r._set_writeable(False)
    return r


def fromiter(iter, dtype=_NoValue, count=-1, *, like=None):
    if dtype is _NoValue:
        raise TypeError("fromiter() missing required argument 'dtype' (pos 2)")
    return C.np_or_nd(_np.fromiter(iter, dtype, count))
