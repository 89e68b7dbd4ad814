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
    """A shape argument as NumPy parses it: ints (no bools), an int a
    1-tuple; dimensions beyond int64 a ValueError (the core's parser of a
    tuple shape gives the same errors)."""
    if type(shape) is int and shape <= _MAXDIM:
        return (shape,)
    if isinstance(shape, (tuple, list)):
        return tuple(_dim(s) for s in shape)
    if isinstance(shape, (bool, _np.bool_)):
        raise TypeError(f"expected a sequence of integers or a single integer, got '{shape}'")
    return (_dim(shape),)


def _creation_order(order):
    """NumPy's errors for order= of zeros, ones, empty, full."""
    if order in ('C', 'F', None, 'c', 'f'):
        return
    if not isinstance(order, str):
        raise TypeError(f"order must be str, not {type(order).__name__}")
    if order.upper() in ('A', 'K'):
        raise ValueError("only 'C' or 'F' order is permitted")
    raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got '{order}')")


def _check_order(order, name):
    if order not in ('C', 'K', 'A', None, 'F'):
        raise ValueError(f"{name}: order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")


def empty(shape, dtype=float, order='C', *, device=None, like=None):
    c = D.code_of(dtype)
    if c is None:
        return _np.empty(shape, dtype=dtype, order=order)
    if order != 'C':
        _creation_order(order)
        if order in ('F', 'f'):
            return _O.f_empty(_shape(shape), c, None)
    return _core.empty(shape if type(shape) is tuple else _shape(shape), c)


def zeros(shape, dtype=float, order='C', *, device=None, like=None):
    c = D.code_of(dtype)
    if c is None:
        return _np.zeros(shape, dtype=dtype, order=order)
    if order != 'C':
        _creation_order(order)
        if order in ('F', 'f'):
            return _O.f_empty(_shape(shape), c, (_core.zeros,))
    return _core.zeros(shape if type(shape) is tuple else _shape(shape), c)


def ones(shape, dtype=None, order='C', *, device=None, like=None):
    c = D.code_of(dtype)
    if c is None:
        return _np.ones(shape, dtype=dtype, order=order)
    if order != 'C':
        _creation_order(order)
        if order in ('F', 'f'):
            return _O.f_empty(_shape(shape), c, (_core.ones,))
    return _core.ones(shape if type(shape) is tuple else _shape(shape), c)


def full(shape, fill_value, dtype=None, order='C', *, device=None, like=None):
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


def _subok(r, proto, subok):
    # subok=True: a subclass prototype's class (see _ndarray._subclass_like)
    return C.subclass_like(r, proto) if subok else r


def _like_order(a, order, shape):
    """NumPy's layout of a *_like result: 'F' is F; 'K' and 'A' follow a
    Fortran-ordered prototype (when the shape is its own)."""
    if order in ('F', 'f'):
        return 'F'
    if order in ('K', 'A', 'k', 'a', None) and shape is None and isinstance(a, Array) and \
            _O.is_f_only(a):
        return 'F'
    return 'C'


def empty_like(prototype, dtype=None, order='K', subok=True, shape=None, *, device=None):
    return _subok(empty(_like_shape(prototype, shape), _like_dtype(prototype, dtype),
                        order=_like_order(prototype, order, shape)), prototype, subok)


def zeros_like(a, dtype=None, order='K', subok=True, shape=None, *, device=None):
    return _subok(zeros(_like_shape(a, shape), _like_dtype(a, dtype),
                        order=_like_order(a, order, shape)), a, subok)


def ones_like(a, dtype=None, order='K', subok=True, shape=None, *, device=None):
    return _subok(ones(_like_shape(a, shape), _like_dtype(a, dtype),
                       order=_like_order(a, order, shape)), a, subok)


def full_like(a, fill_value, dtype=None, order='K', subok=True, shape=None, *, device=None):
    return _subok(full(_like_shape(a, shape), fill_value, _like_dtype(a, dtype),
                       order=_like_order(a, order, shape)), a, subok)


def array(object, dtype=None, *, copy=True, order='K', subok=False, ndmin=0, like=None):
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
    if isinstance(a, Array):
        r = _O.order_copy(a, order)
        return C.subclass_like(r, a) if subok else r
    return array(a, copy=True)


def arange(start_or_stop, stop=None, step=None, dtype=None, *, device=None, like=None):
    if stop is None:
        if start_or_stop is None:
            return _np.arange(None)     # NumPy's TypeError
        start, stop = 0, start_or_stop
    else:
        start = start_or_stop
    if step is None:
        step = 1
    vals = [v._scalar() if isinstance(v, Array) else v for v in (start, stop, step)]
    start, stop, step = vals
    if any(isinstance(v, (str, bytes)) for v in vals):
        return _np.arange(start, stop, step, dtype=dtype)     # NumPy's TypeError
    if dtype is not None:
        dt = D.as_dtype(dtype)
    else:   # NumPy's arange goes by kind only: int64, float64 or complex128
        kinds = {_np.asarray(v).dtype.kind for v in vals}
        dt = _np.dtype('c16' if 'c' in kinds else 'f8' if 'f' in kinds else 'i8')
    c = D.code(dt)
    if type(start) is int and c is not None and D.is_int(c):
        lo, hi = D.int_range(c)
        if not lo <= start <= hi:      # NumPy converts start to the dtype
            raise OverflowError(f"Python integer {start} out of bounds for {dt}")
    if c is None or dt.kind in 'bc' or step == 0 or any(
            isinstance(v, (complex, _np.complexfloating)) or
            (isinstance(v, (int, _np.integer)) and abs(int(v)) >= 2**53) for v in vals):
        return C.np_or_nd(_np.arange(start, stop, step, dtype=dtype))
    return _core.arange(float(start), float(stop), float(step), c)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0, *,
             device=None):
    num = operator.index(num)
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
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
    r = _core.linspace(float(start), float(stop), num, bool(endpoint), c)
    if retstep:
        div = (num - 1) if endpoint else num
        step = (float(stop) - float(start)) / div if div > 0 else _np.nan
        return r, _np.float64(step) if dt.kind != 'f' or dt.itemsize == 8 else dt.type(step)
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
    dt = D.as_dtype(dtype)
    c = D.code(dt)
    if c is None:
        return _np.eye(N, M, k, dtype=dt, order=order)
    N = _dim(N)
    M = -1 if M is None else _dim(M)
    k = operator.index(k)
    big = N + abs(M) + 1
    if not -big <= k <= big:
        k = big           # NumPy: a diagonal beyond the array is all zeros
    return _core.eye(N, M, k, c)


def identity(n, dtype=None, *, like=None):
    return eye(n, dtype=dtype)


def frombuffer(buffer, dtype=float, count=-1, offset=0, *, like=None):
    return C.np_or_nd(_np.frombuffer(buffer, dtype, count, offset).copy())


def fromiter(iter, dtype, count=-1, *, like=None):
    return C.np_or_nd(_np.fromiter(iter, dtype, count))
