"""Array creation and the functions NumPy writes in C (its _core.multiarray):
empty, zeros, array, asarray, arange, frombuffer, ..., where, nonzero,
concatenate, copyto, result_type, can_cast, shares_memory, dot, lexsort,
putmask, packbits, bincount, from_dlpack."""

import inspect
import math
import operator
import sys

import numpy as _np

from . import _convert as C
from . import _core
from . import _dtypes as D
from . import _fallback as F
from . import _order as _O
from ._array_api import _check_device as _device
from . import _umath
from ._umath import _c_axis, _cast, _norm_axis, _norm_axis as _axis

Array = _core.Array
_NoValue = _np._NoValue


def _nt():
    return sys.modules['ndtile']


_MAXDIM = 2**63 - 1
# NumPy 2's NPY_MAXDIMS: a shape longer than this is a ValueError before
# its elements are read (ndtile's own limit, _core.MAXDIMS, applies after)
_NUMPY_MAXDIMS = 64


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
    if isinstance(shape, (tuple, list, _np.ndarray, range, Array, str)) and \
            getattr(shape, "ndim", 1) and len(shape) > _NUMPY_MAXDIMS:
        # the length before the elements, as NumPy checks it against its own
        # limit (a long float array: ValueError); ndtile's lower one after
        raise ValueError(f"maximum supported dimension for an ndarray is currently "
                         f"{_NUMPY_MAXDIMS}, found {len(shape)}")
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


def empty(shape, dtype=None, order='C', *, device=None, like=None):
    if like is not None:
        liked = C.like_call(like, empty, locals())
        if liked is not C.NO_LIKE:
            return liked
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


def zeros(shape, dtype=None, order='C', *, device=None, like=None):
    if like is not None:
        liked = C.like_call(like, zeros, locals())
        if liked is not C.NO_LIKE:
            return liked
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
    """NumPy's layout of a *_like result: 'F' is F; 'A' follows a
    Fortran-ordered prototype whatever shape= asks, 'K' only when the
    result has the prototype's number of axes (its strides' order)."""
    if order in ('F', 'f'):
        return 'F'
    if order in ('K', 'A', 'k', 'a', None) and (
            _O.is_f_only(a) if isinstance(a, Array) else isinstance(a, _np.ndarray) and
            a.flags.f_contiguous and not a.flags.c_contiguous) and \
            (order in ('A', 'a') or shape is None or len(_shape(shape)) == a.ndim):
        return 'F'       # (a NumPy prototype's layout too)
    return 'C'


def _like(make, a, dtype, order, subok, shape, device, fill=_NoValue):
    """make (empty, zeros, ones; full with fill) of a's shape, dtype and
    layout, with NumPy's *_like argument checks; subok=True gives a subclass
    prototype's class (see _ndarray._subclass_like)."""
    if type(a) is C.ND and dtype is None and order == 'K' and shape is None and \
            device is None and (a.ndim <= 1 or a._flags & 1):
        # a plain C-ordered prototype, no other arguments: the steps below
        # give make of its shape and dtype in C order
        if fill is _NoValue:
            return make(a.shape, a.dtype, 'C')
        return make(a.shape, fill, a.dtype, 'C')
    if device is not None:
        _device(device)
    if order != 'K':
        _like_order_check(order)
    shape = _like_shape(a, shape)
    lay = _like_order(a, order, shape)
    perm = None
    if lay == 'C' and order in ('K', 'k', None) and isinstance(a, Array) and \
            len(shape) == a.ndim:
        # NumPy's order K of a prototype neither C- nor F-ordered: its
        # strides' order (a C array of the permuted shape, axes put back)
        perm = _O.k_perm(a)
        if perm is not None:
            shape = tuple(shape[i] for i in perm)
    if fill is _NoValue:
        r = make(shape, _like_dtype(a, dtype), lay)
    else:
        r = make(shape, fill, _like_dtype(a, dtype), lay)
    if perm is not None:
        r = _O.owned_permuted(r, perm) if isinstance(r, Array) else \
            r.transpose(_np.argsort(perm))
    return C.subclass_like(r, a, True) if subok else r


def empty_like(prototype, dtype=None, order='K', subok=True, shape=None, *, device=None):
    return _like(empty, prototype, dtype, order, subok, shape, device)


def _copy_mode(copy):
    """copy= as True, False or None (if needed): NumPy's numpy._CopyMode
    ALWAYS, NEVER, IF_NEEDED, or any other object by its truth value."""
    if isinstance(copy, _np._CopyMode):
        return {_np._CopyMode.ALWAYS: True, _np._CopyMode.NEVER: False}.get(copy)
    if isinstance(copy, str):
        raise ValueError("strings are not allowed for 'copy' keyword. "
                         "Use True/False/None instead.")
    return copy if copy is None else bool(copy)


def array(object, dtype=None, *, copy=True, order='K', subok=False, ndmin=0,
          ndmax=_NoValue, like=None):
    if dtype is None and copy is True and order == 'K' and type(ndmin) is int and not ndmin \
            and ndmax is _NoValue and like is None:
        # the defaults: what the steps below give a list or tuple of numbers
        # (not of ndtile arrays: stacked in tiles) or a Python number, and
        # a NumPy array of a dtype ndtile holds (read into tiles, a copy; a
        # Fortran-ordered one is copied in its layout below)
        t = type(object)
        if (t is list or t is tuple) and not (object and isinstance(object[0], Array)) or \
                t is float or t is int or t is complex or t is bool:
            return C.from_sequence(object, None, False)
        if t is _np.ndarray and D.code_of(object.dtype) is not None and \
                (object.ndim < 2 or object.flags.c_contiguous or not object.flags.f_contiguous):
            return C.from_converted(object, None, False)
    if like is not None:
        liked = C.like_call(like, array, locals())
        if liked is not C.NO_LIKE:
            return liked
    if ndmax is not _NoValue:
        # NumPy 2.4's depth limit of the nested-sequence parse: NumPy's
        # conversion (and errors); the object dtypes it is for stay NumPy's
        return C.np_or_nd(_np.array(C.to_np_tree(object) if C.has_nd(object) else object,
                                    dtype, copy=copy, order=order, ndmin=ndmin, ndmax=ndmax))
    copy = _copy_mode(copy)
    if order != 'K':
        _like_order_check(order)
    if type(ndmin) is not int or ndmin:
        if isinstance(ndmin, float):
            raise TypeError("integer argument expected, got float")
        ndmin = operator.index(ndmin)
    dt = None if dtype is None else D.as_dtype(dtype)
    if isinstance(object, Array):
        if dt is None or dt == object.dtype:
            # order 'C' / 'F' of an array not contiguous that way copies
            # (NumPy's; impossible with copy=False)
            c = order in ('C', 'c') and not object._flags & 1
            if copy is False and (c or (order in ('F', 'f') and not object._flags & 2)):
                raise ValueError("Unable to avoid copy while creating an array as requested.")
            r = _O.order_copy(object, 'C') if c else \
                _O.order_copy(object, order) if copy else object
        else:
            if copy is False:
                raise ValueError("Unable to avoid copy while creating an array as requested.")
            c = D.code(dt)
            if c is not None:
                _core.warn_complex_cast(object._dt, c)
                r = _O.k_made(object, lambda v: C.asarray(v, dt)) if order in ('K', 'k') \
                    else C.asarray(object, dt)
            else:
                # a dtype ndtile does not hold (float16, '>i4'): NumPy's
                # array, in NumPy's layout for order
                r = C.to_numpy_k(object).astype(
                    dt, order=order.upper() if order in ('C', 'F', 'c', 'f') else 'K')
    elif type(object) in (list, tuple) and object and \
            all(isinstance(o, Array) for o in object) and \
            len({o.shape for o in object}) == 1 and copy is not False and \
            (dt is None or D.code(dt) is not None):
        # a list of ndtile arrays: stacked in tiles, without a trip through NumPy
        r = stack(object)
        if dt is not None and dt != r.dtype:
            c = D.code(dt)
            if c is not None and D.KIND[r._dt] == 'c' and D.KIND[c] in 'iuf':
                for o in object:        # NumPy warns once for each complex array
                    _core.warn_complex_cast(o._dt, c)
            r = C.asarray(r, dt)
    elif type(object) is _np.ndarray and D.code(object.dtype) is None and \
            (dt is None or D.code(dt) is None):
        # a NumPy array of a dtype ndtile does not hold (object, strings) into
        # such a dtype: NumPy's array, by NumPy's copy rules (itself where no
        # copy is needed; a StringDType array given another instance's dtype
        # is copied, its strings live in that instance's arena)
        r = _np.array(object, dt, copy=copy, order=order)
    elif C.has_array_method(object):
        # the __array__ protocol, NumPy's way (dtype, copy= passed on)
        r = C.from_array_method(object, dt, copy, subok)
        if type(r) is not C.ND and isinstance(r, Array) and not subok:
            r = r._view()       # a subclass instance: NumPy's base-class view
    else:
        if copy is False:
            raise ValueError("Unable to avoid copy while creating an array as requested.\n"
                             "ndtile arrays always copy data from NumPy arrays and Python "
                             "objects into tiles.")
        r = C.asarray(object, dt, native=False)
        if r is object and copy:
            # a NumPy array of a dtype ndtile does not hold (object, strings,
            # non-native byte order, ...) is returned as it is: np.array
            # copies it (asarray does not)
            r = _np.array(object, order=order)
    if ndmin and r.ndim < ndmin:
        shape = (1,) * (ndmin - r.ndim) + r.shape
        r = r._reshape(shape) if isinstance(r, Array) else r.reshape(shape)
    if isinstance(r, Array) and r.ndim > 1 and order not in ('C', 'c', None) and \
            copy is not False:
        # NumPy's layouts: 'F' always, 'K'/'A' that of a Fortran-ordered input
        src = object if isinstance(object, (Array, _np.ndarray)) else None
        if order in ('F', 'f') or (src is not None and src.ndim <= r.ndim and
                                   src.flags.f_contiguous and not src.flags.c_contiguous):
            if not (r._flags & 0x3 == 0x2):
                r = _O.f_copy(r)
    if isinstance(object, Array) and type(object) is not C.ND and isinstance(r, Array):
        # a subclass instance: its class with subok, else a base-class array
        if subok:
            r = r if r is object else C.subclass_like(r, object, True)
        elif type(r) is not C.ND:
            r = r._view()
    return r


def asarray(a, dtype=None, order=None, *, device=None, copy=None, like=None):
    if dtype is None and order is None and copy is None and device is None and like is None:
        # the commonest inputs, with the defaults: what the steps below give
        # them (a plain ndtile array itself; a list or tuple of numbers or a
        # Python number read by NumPy; a NumPy array copied into tiles, or
        # itself for a dtype ndtile does not hold), without their checks for
        # other inputs. Not a list of ndtile arrays (stacked in tiles) nor a
        # Fortran-ordered NumPy array (array's order 'K' keeps its layout).
        t = type(a)
        if t is C.ND:
            return a
        if (t is list or t is tuple) and not (a and isinstance(a[0], Array)) or \
                t is float or t is int or t is complex or t is bool:
            return C.from_sequence(a, None, False)
        if t is _np.ndarray and (a.ndim < 2 or a.flags.c_contiguous or
                                 not a.flags.f_contiguous):
            return C.from_converted(a, None, False)
    if like is not None:
        liked = C.like_call(like, asarray, locals())
        if liked is not C.NO_LIKE:
            return liked
    if device is not None:
        _device(device)
    copy = _copy_mode(copy)
    if isinstance(a, Array) and dtype is None:
        # order 'C'/'F' copies an array not contiguous that way (as NumPy;
        # the copy is in C order: ndtile stores hold C order only)
        if copy or (order in ('C', 'F') and
                    not a._flags & (1 if order == 'C' else 2)):
            if copy is False:
                raise ValueError("Unable to avoid copy while creating an array as requested.")
            return _O.order_copy(a, 'K' if order is None else order)
        return a if type(a) is C.ND else a._view()   # a subclass: a base-class view
    if dtype is None and copy is None and getattr(type(a), '_nd_flat_array', None) is not None:
        # a.flat: NumPy's view of a contiguous array, else a read-only copy
        r = a._nd_flat_array()
        if order in ('F', 'f') and r.ndim > 1:
            r = _O.f_copy(r)
        return r
    r = array(a, dtype, copy=copy)
    if order in ('F', 'f') and isinstance(r, Array) and not r._flags & 0x2:
        r = _O.f_copy(r)
    elif type(r) is _np.ndarray and order in ('C', 'F', 'c', 'f'):
        # a dtype ndtile does not hold: NumPy's layout for order
        r = _np.asarray(r, order=order, copy=False if copy is False else None)
    return r


def asanyarray(a, dtype=None, order=None, *, device=None, copy=None, like=None):
    if like is not None:
        liked = C.like_call(like, asanyarray, locals())
        if liked is not C.NO_LIKE:
            return liked
    if device is not None:
        _device(device)
    if isinstance(a, Array) and type(a) is not C.ND:
        # a subclass instance stays one (NumPy's subok=True)
        r = array(a, dtype, copy=copy, order='K' if order is None else order, subok=True)
        return a if r is a else r
    if C.has_array_method(a):
        # the __array__ protocol, NumPy's way (dtype, copy= passed on), called
        # once: a NumPy subclass instance it hands back (nibabel's
        # ArrayProxy: a numpy.memmap) is NumPy's asanyarray's result, as for
        # such an argument, and so is an ndtile subclass instance
        copy = _copy_mode(copy)
        r = C.from_array_method(a, None if dtype is None else D.as_dtype(dtype), copy, True)
        keep = False if copy is False else None
        if isinstance(r, Array):
            return asanyarray(r, None, order, copy=keep)
        if order is not None:
            r = _np.asanyarray(r, order=order, copy=keep)
        return r
    return asarray(a, dtype, order, copy=copy)


def ascontiguousarray(a, dtype=None, *, like=None):
    if like is not None:
        liked = C.like_call(like, ascontiguousarray, locals())
        if liked is not C.NO_LIKE:
            return liked
    r = asarray(a, dtype)
    if type(r) is _np.ndarray:
        return _np.ascontiguousarray(r)     # a dtype ndtile does not hold: NumPy's
    if isinstance(r, Array) and not r._c_contiguous:
        r = r._copy()
    if isinstance(r, Array) and r.ndim == 0:
        r = r._reshape((1,))
    return r


def asfortranarray(a, dtype=None, *, like=None):
    if like is not None:
        liked = C.like_call(like, asfortranarray, locals())
        if liked is not C.NO_LIKE:
            return liked
    r = asarray(a, dtype, order='F')
    if type(r) is _np.ndarray:
        return _np.asfortranarray(r)        # a dtype ndtile does not hold: NumPy's
    if isinstance(r, Array) and r.ndim == 0:
        r = r._reshape((1,))
    return r


def asmatrix(data, dtype=None):
    """NumPy's asmatrix, matrix(data, dtype=dtype, copy=False). np.matrix is
    NumPy's class (ndtile has none of its own), so the matrix of an ndtile
    array is NumPy's matrix view of the array's memory, a.view(numpy.matrix):
    no copy, as NumPy's asmatrix of an ndarray makes none (writes go both
    ways; read-only where the array is; a copy with the fallback warning
    where the memory cannot be lent, on several ranks)."""
    if isinstance(data, Array):
        data = data.view(_np.ndarray)
    return _np.asmatrix(data, dtype)


def _bmat_blocks(text, gdict, ldict):
    """NumPy's bmat string: rows split at ';', names at ',' or spaces, each
    looked up in ldict, then gdict (NameError), joined by concatenate."""
    rows = []
    for row in text.split(';'):
        names = []
        for x in row.split(','):
            names.extend(x.split())
        blocks = []
        for name in names:
            name = name.strip()
            try:
                blocks.append(ldict[name])
            except KeyError:
                try:
                    blocks.append(gdict[name])
                except KeyError:
                    raise NameError(f"name {name!r} is not defined") from None
        rows.append(concatenate(blocks, axis=-1))
    return concatenate(rows, axis=0)


def bmat(obj, ldict=None, gdict=None):
    """NumPy's bmat: a matrix of blocks, from a string of names ('A, B; C,
    D': looked up in ldict then gdict, by default the caller's locals and
    globals), nested sequences ([[A, B], [C, D]]; a sequence of arrays is
    one row) or an array (copied), joined by ndtile's concatenate; the
    matrix is what ndtile's asmatrix returns (NumPy's class, viewing the
    ndtile result). Another object gives None, as NumPy's."""
    if isinstance(obj, str):
        if gdict is None:
            f = F.user_frame()[1]     # the caller's, past ndtile's own frames
            gdict, ldict = f.f_globals, f.f_locals
        return asmatrix(_bmat_blocks(obj, gdict, ldict))
    if isinstance(obj, (tuple, list)):
        rows = []
        for row in obj:
            if isinstance(row, (Array, _np.ndarray)):     # not 2-d: one row
                return asmatrix(concatenate(obj, axis=-1))
            rows.append(concatenate(row, axis=-1))
        return asmatrix(concatenate(rows, axis=0))
    if isinstance(obj, Array):
        return asmatrix(obj._copy())     # NumPy's matrix(obj) copies
    if isinstance(obj, _np.ndarray):
        return _np.matrix(obj)
    return None


_ARANGE_ARGS = ('start', 'stop', 'step', 'dtype')
_EXACT = 2**53          # integers below this are exact in float64
_INTP = D.code(_np.dtype(_np.intp))


def arange(*args, start=_NoValue, stop=_NoValue, step=_NoValue, dtype=_NoValue, device=None,
           like=None):
    if like is not None:
        liked = C.like_call(like, arange, locals())
        if liked is not C.NO_LIKE:
            return liked
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
    if dtype is None and type(start) is int and type(stop) is int and \
            (step is None or (type(step) is int and step != 0)) and \
            -_EXACT < start < _EXACT and -_EXACT < stop < _EXACT and \
            (step is None or -_EXACT < step < _EXACT):
        # Python ints below 2**53 (exact in float64), no dtype: what the
        # steps below give them (intp; the core's arange)
        return _core.arange(float(start), float(stop), 1.0 if step is None else float(step),
                            _INTP)
    vals = [v._scalar() if isinstance(v, Array) and v.ndim == 0 else v
            for v in (start, stop, step)]
    if any(not isinstance(v, (int, float, _np.integer, _np.floating, _np.bool_)) or
           (isinstance(v, float) and not _np.isfinite(v)) for v in vals if v is not None):
        # complex, strings, None, arrays, infinities: NumPy's result or error
        return C.np_or_nd(_np.arange(*[C.to_np_tree(v) for v in vals], dtype=dtype))
    start, stop, step = vals
    if dtype is not None:
        dt = _np.dtype(dtype)     # NumPy's arange: a DType class is object, as np.dtype()
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
    # NumPy fills an integer arange with start and (start + step) cast to
    # the dtype and their difference as the step: a float start or step
    # gives its sequence (arange(-3, 3, 0.5, dtype=int) is -3..8) and its
    # OverflowError (arange(-3.0, 3, 2.0, dtype=np.uint8))
    frac = c is not None and D.is_int(c) and any(
        isinstance(v, (float, _np.floating)) for v in (start, step))
    if c is None or frac or dt.kind in 'bc' or step == 0 or any(
            (isinstance(v, (int, _np.integer)) and abs(int(v)) >= 2**53) or
            (isinstance(v, _np.floating) and not _np.isfinite(v)) for v in vals):
        return C.np_or_nd(_np.arange(start, stop, step, dtype=dtype))
    return _core.arange(float(start), float(stop), float(step), c)


# What introspection sees is NumPy's documented signature (the array API's
# arange(start, /, stop=None, step=1, *, dtype=None, device=None)); the body
# above also takes each argument by name, as NumPy's C function does.
arange.__signature__ = inspect.Signature([
    inspect.Parameter('start_or_stop', inspect.Parameter.POSITIONAL_ONLY),
    inspect.Parameter('stop', inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None),
    inspect.Parameter('step', inspect.Parameter.POSITIONAL_OR_KEYWORD, default=1),
    inspect.Parameter('dtype', inspect.Parameter.KEYWORD_ONLY, default=None),
    inspect.Parameter('device', inspect.Parameter.KEYWORD_ONLY, default=None),
    inspect.Parameter('like', inspect.Parameter.KEYWORD_ONLY, default=None)])


def lend_buffer(npa, buffer, offset, code):
    """An ndtile array over npa's memory (NumPy's C-contiguous array over
    buffer from byte offset), made a view of a store over the whole buffer,
    so that its memory is NumPy's: the buffer's (strides set later, and
    as_strided, may reach it all, as in NumPy); over npa's memory alone
    where the buffer is not one C-contiguous run of whole elements from
    offset's alignment; None where the core cannot lend it (a copy then)."""
    isz = npa.itemsize
    whole = None
    if offset % isz == 0:
        try:
            with memoryview(buffer) as mv:
                n = mv.nbytes // isz if mv.c_contiguous else -1
            if n > npa.size:
                whole = _np.frombuffer(buffer, npa.dtype, n)
                if whole.ctypes.data + offset != npa.ctypes.data:
                    whole = None
        except (TypeError, ValueError, BufferError):
            whole = None
    try:
        if whole is None:
            return _core.from_memory(npa, code, npa.flags.writeable)
        k = offset // isz
        r = _core.from_memory(whole, code, npa.flags.writeable)
        return r[k:k + npa.size]._reshape(npa.shape)
    except NotImplementedError:
        return None


def frombuffer(buffer, dtype=None, count=-1, offset=0, *, like=None):
    if like is not None:
        liked = C.like_call(like, frombuffer, locals())
        if liked is not C.NO_LIKE:
            return liked
    # NumPy's frombuffer: an array over the buffer's memory, no copy (writes
    # through either side are seen by the other), read-only when the buffer
    # is, .base the buffer's exporter as NumPy names it. Where the core cannot
    # share the memory (memory not aligned to the dtype, several ranks) the
    # data is copied, with the same flags and .base. A dtype the core cannot
    # hold (float16, non-native byte order: '>i4') gives NumPy's array itself.
    npa = _np.frombuffer(buffer, dtype, count, offset)
    # (an ndtile array is the base itself, as a NumPy array is in NumPy:
    # NumPy names the memoryview of an exporter that releases its buffers)
    base = buffer if isinstance(buffer, Array) or npa.base is None else npa.base
    c = D.code(npa.dtype) if npa.dtype.isnative else None
    if c is not None and npa.size:
        r = lend_buffer(npa, buffer, offset, c)
        if r is not None:
            r._set_base(base)
            return r
    if c is None:
        return npa      # a dtype ndtile does not hold ('>i4', float16): NumPy's view
    return copy_of_buffer(npa, base)


def copy_of_buffer(npa, base):
    """ndtile's copy of npa, NumPy's array over another object's memory,
    where the core cannot share that memory (empty, misaligned, strided,
    several ranks): flagged as NumPy's view is, not owning its data, .base
    the buffer's object, read-only when npa is."""
    r = C.np_or_nd(npa.copy())
    if isinstance(r, Array):
        if not npa.flags.writeable:
            r._set_writeable(False)     # the copy's owner too: setflags(write=True) fails
        r = r.view()        # a view of the copy: OWNDATA clear, as NumPy's
        r._set_base(base)   # (the copy's handle gone: r is the store's owner object)
    return r


def fromiter(iter, dtype=_NoValue, count=-1, *, like=None):
    if like is not None:
        liked = C.like_call(like, fromiter, locals())
        if liked is not C.NO_LIKE:
            return liked
    if dtype is _NoValue:
        raise TypeError("fromiter() missing required argument 'dtype' (pos 2)")
    return C.np_or_nd(_np.fromiter(iter, dtype, count))


# ---- joining and splitting --------------------------------------------------------


_WEAK_SCALARS = (int, float, complex)


def _fill_along(res, xs, axis):
    """res with the arrays xs written one after another along axis (cast
    unsafely: the callers have checked the casting); res."""
    pos = 0
    pre = (slice(None),) * axis
    for x in xs:
        n = x.shape[axis]
        if n:
            res._view_index(pre + (slice(pos, pos + n),))._assign(x, _core.CASTING_UNSAFE)
        pos += n
    return res


def _concat_same(arrays, axis):
    """concatenate of ndtile arrays of one dtype along an int axis in range,
    matching elsewhere (no out=, dtype=, casting=): one core call
    (_core.concat_same); None for anything else."""
    return _core.concat_same(arrays, axis)


def concatenate(arrays, /, axis=0, out=None, *, dtype=None, casting="same_kind"):
    if type(arrays) in (list, tuple) and len(arrays) > 2**31 - 1:
        # NumPy's limit, checked before the sequence is walked or copied (a
        # list of 2**31 arrays would double memory)
        raise ValueError(f"concatenate() only supports up to {2**31 - 1} arrays but got "
                         f"{len(arrays)}.")
    if out is None and dtype is None and casting == "same_kind" and type(axis) is int and \
            type(arrays) in (tuple, list) and len(arrays) > 1:
        res = _concat_same(arrays, axis)
        if res is not None:
            return res
    if casting != "same_kind":
        D.check_casting(casting)
    if not hasattr(arrays, '__getitem__'):      # NumPy's check (a generator)
        raise TypeError("The first input argument needs to be a sequence")
    arrays = list(arrays)
    if out is not None and dtype is not None:
        raise TypeError("concatenate() only takes `out` or `dtype` as an argument, but both "
                        "were provided.")
    xs = []
    for a in arrays:
        x = C.asarray(a)
        if not isinstance(x, Array):
            return F.call("concatenate (dtype)", _np.concatenate, (arrays,),
                          {'axis': axis, 'out': out, 'dtype': dtype, 'casting': casting})
        xs.append(x)
    if not xs:
        raise ValueError("need at least one array to concatenate")
    if axis is None:
        xs = [x._reshape((-1,)) for x in xs]
        axis = 0
    nd = xs[0].ndim
    if nd == 0:
        D.int_axis(axis)     # NumPy parses the axis first
        raise ValueError("zero-dimensional arrays cannot be concatenated")
    axis = _c_axis(axis, nd)
    shape = list(xs[0].shape)
    for i, x in enumerate(xs[1:], 1):
        if x.ndim != nd:
            raise ValueError(f"all the input arrays must have same number of dimensions, but the "
                             f"array at index 0 has {nd} dimension(s) and the array at index "
                             f"{i} has {x.ndim} dimension(s)")
        for k in range(nd):
            if k != axis and x.shape[k] != shape[k]:
                raise ValueError(f"all the input array dimensions except for the concatenation "
                                 f"axis must match exactly, but along dimension {k}, the array "
                                 f"at index 0 has size {shape[k]} and the array at index {i} "
                                 f"has size {x.shape[k]}")
        shape[axis] += x.shape[axis]
    if out is not None:
        dt = out.dtype
    elif dtype is not None:
        # (concatenate's converter takes numpy.dtype itself as object)
        dt = _np.dtype(dtype) if dtype is _np.dtype else D.as_dtype(dtype)
    else:
        # NEP 50: a Python int, float or complex (axis=None takes scalars)
        # is weak, its value cast to the arrays' dtype (NumPy:
        # concatenate([float32(1), 1.], axis=None) is float32)
        weak = [type(a) in _WEAK_SCALARS for a in arrays]
        dt = _np.result_type(*[a if w else x.dtype for a, w, x in zip(arrays, weak, xs)])
    c = D.code(dt)
    if c is None:
        return F.call("concatenate (dtype)", _np.concatenate, (arrays,),
                      {'axis': axis, 'out': out, 'dtype': dtype, 'casting': casting})
    for i, x in enumerate(xs):
        if out is None and dtype is None and weak[i]:
            continue
        if not _np.can_cast(x.dtype, dt, casting):
            raise TypeError(f"Cannot cast array data from {x.dtype!r} to {dt!r} according to "
                            f"the rule {casting!r}")
    if D.KIND[c] in 'iuf':
        # NumPy's ComplexWarning, once for each complex input (empty ones
        # too) cast to a real dtype (casting='unsafe'; 'same_kind' raised)
        for x in xs:
            _core.warn_complex_cast(x._dt, c)
    if out is not None:
        if out.ndim != nd:
            raise ValueError("Output array has wrong dimensionality")
        if out.shape != tuple(shape):
            raise ValueError("Output array is the wrong shape")
    if out is not None and isinstance(out, Array):
        # NumPy writes through one view of out: its broadcast_arrays warning
        # once, out's own flag kept
        res = out.view()
        res._before_write()
    else:
        res = _core.empty(tuple(shape), c)
    _fill_along(res, xs, axis)
    if out is not None and not isinstance(out, Array):
        _np.copyto(out, C.to_numpy(res))
    return res if out is None else out


concat = concatenate     # NumPy 2: the same function


def _stack_sequence(arrays):
    # NumPy's dispatcher of the stack functions refuses a generator
    if not hasattr(arrays, '__getitem__'):
        raise TypeError('arrays to stack must be passed as a "sequence" type such as list '
                        'or tuple.')


def stack(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    _stack_sequence(arrays)
    arrays = list(arrays)
    if not arrays:
        raise ValueError('need at least one array to stack')
    xs = []
    for a in arrays:
        x = C.asarray(a)
        if not isinstance(x, Array):
            return F.call("stack (dtype)", _np.stack, (arrays,),
                          {'axis': axis, 'out': out, 'dtype': dtype, 'casting': casting})
        xs.append(x)
    shapes = {x.shape for x in xs}
    if len(shapes) != 1:
        raise ValueError('all input arrays must have the same shape')
    result_ndim = xs[0].ndim + 1
    axis = _norm_axis(axis, result_ndim)
    xs = [x._expand_dims(axis) for x in xs]
    return concatenate(xs, axis=axis, out=out, dtype=dtype, casting=casting)


# ---- elementwise compositions ------------------------------------------------------


def where(condition, x=_NoValue, y=_NoValue, /):
    if x is _NoValue and y is _NoValue:
        return nonzero(condition)
    if x is _NoValue or y is _NoValue:
        raise ValueError("either both or neither of x and y should be given")
    try:
        c = _umath.operand(condition)
        ops = [_umath.operand(x), _umath.operand(y)]
    except _umath._Unsupported:
        return F.call("where (dtype)", _np.where, (condition, x, y), {})
    if not isinstance(c, Array):
        c = _core.scalar(bool(c), D.BOOL, False)
    elif c._dt != D.BOOL:
        c = c._astype(D.BOOL, _core.CASTING_UNSAFE)
    if not isinstance(ops[0], Array) and not isinstance(ops[1], Array) and c.ndim == 0 and \
            not isinstance(condition, Array):
        # NumPy's where of scalars (its promotion of Python scalars), as
        # ndtile's 0-d array: NumPy's gives its own (an array, never a scalar)
        return C.asarray(_np.where(condition, x, y))
    if any(type(o) is int for o in ops):
        # NumPy's where casts Python ints to the result dtype, wrapping
        st = _umath.strong_type(ops)
        for i, o in enumerate(ops):
            if type(o) is not int:
                continue
            lt = D.INT64 if st is None else _core.promote(D.INT64, 1, st, 0)
            if not D.is_int(lt):
                if not -2**63 <= o < 2**63:
                    ops[i] = float(o)
                continue
            # NumPy takes any C (unsigned) long long and wraps it
            if not -2**63 <= o < 2**64:
                raise OverflowError("Python int too large to convert to C long")
            ops[i] = int(_np.array(o % 2**64, dtype=_np.uint64).astype(D.DTYPES[lt]))
    return _core.apply(_umath.WHERE, [c] + ops)


def nonzero(a):
    if type(a) is not C.ND and isinstance(a, Array):
        return a.nonzero()      # a subclass's own method
    if _umath.duck_of(a):
        # NumPy's _wrapfunc: the object's own method (its TypeError falls
        # through), else, with an __array_wrap__, the array's nonzero with
        # the tuple wrapped as one array (NumPy's _wrapit)
        m = getattr(a, 'nonzero', None)
        if m is not None:
            try:
                return m()
            except TypeError:
                pass
        w = _umath._own_wrap(a)
        if w is not None:
            r = nonzero(C.asarray(a))
            return _umath.apply_array_wrap(w, C.asarray(r), None, False)
    x = C.asarray(a)
    if isinstance(x, Array) and x.ndim == 0:
        # NumPy's error, without a fallback to NumPy (and its warning) to raise it
        msg = ("Calling nonzero on 0d arrays is not allowed. Use "
               "np.atleast_1d(scalar).nonzero() instead.")
        if x._dt == D.BOOL:
            msg += (" If the context of this error is of the form `arr[nonzero(cond)]`, "
                    "just use `arr[cond]`.")
        raise ValueError(msg)
    if not isinstance(x, Array):
        return F.call("nonzero", _np.nonzero, (a,), {})
    w = _core.argwhere(x)
    return tuple(w[:, k].copy() for k in range(x.ndim))


def copyto(dst, src, casting='same_kind', where=True):
    if not isinstance(dst, Array):
        return _np.copyto(dst, C.to_np_tree(src), casting=casting, where=C.to_np_tree(where))
    D.check_casting(casting)
    if src is dst:
        # NumPy skips a copy of an array onto itself before any check
        return None
    # NumPy converts an array mask to bool by the 'safe' rule (lists and
    # scalars are converted as they are), before dst's checks
    _umath._check_where_dtype(where)
    if (isinstance(src, Array) and src.ndim and src._same_store(dst) and src._dt == dst._dt
            and src._offset == dst._offset and src._part == dst._part
            and src.shape == dst.shape and src.strides == dst.strides):
        # another handle on dst's very view (NumPy's PyArray_AssignArray:
        # the same data, dtype, shape and strides): nothing to copy, and
        # no check after this one (the mask's shape, dst's read-only flag)
        return None
    dst._before_write()     # NumPy's warning for a broadcast_arrays result
    if not dst.flags.writeable:
        # NumPy checks the destination before the value's cast and shape
        # (after converting a Python int: its OverflowError comes first)
        if isinstance(src, int) and not isinstance(src, bool):
            _np.copyto(_np.empty((), dst.dtype), src, casting='unsafe')
        raise ValueError("assignment destination is read-only")
    if src is None or isinstance(src, (bool, int, float, complex, str, bytes)):
        # a Python scalar: NumPy's rules for it (weak types; OverflowError
        # out of range; 1.5 into ints refused by same_kind) are applied by
        # NumPy itself on a 0-d scratch array of dst's dtype
        tmp = _np.empty((), dst.dtype)
        _np.copyto(tmp, src, casting=casting)
        src = tmp
    try:
        s = _umath.operand(src)
    except _umath._Unsupported:
        return F.call("copyto (dtype)", _np.copyto, (dst, src),
                      {'casting': casting, 'where': where})
    if isinstance(s, Array) and not _np.can_cast(s.dtype, dst.dtype, casting):
        raise TypeError(f"Cannot cast array data from {s.dtype!r} to {dst.dtype!r} according "
                        f"to the rule {casting!r}")
    if not isinstance(s, Array):
        s = C.asnd(_np.asarray(s, dtype=dst.dtype))
    if s.ndim > dst.ndim and s.shape[0] == 1:
        # NumPy strips the value's leading length-1 axes beyond dst's
        # dimensions (with or without where=)
        k = 0
        while s.ndim - k > dst.ndim and s.shape[k] == 1:
            k += 1
        s = s.reshape(s.shape[k:])
    _core.warn_complex_cast(s._dt, dst._dt)
    if where is True:
        dst._assign(s, _core.CASTING_UNSAFE)
        return None
    w = _umath.operand(where)
    if not isinstance(w, Array):
        w = _core.scalar(bool(w), D.BOOL, False)
    # NumPy's messages: the value's shape, then the mask's (whose leading
    # length-1 axes are not stripped)
    for what, sh in (('input array', s.shape), ('where mask', w.shape)):
        if not _fits(sh, dst.shape):
            raise ValueError(f"could not broadcast {what} from shape {_shape_text(sh)} "
                             f"into shape {_shape_text(dst.shape)}")
    if s._dt != dst._dt:
        s = s._astype(dst._dt, _core.CASTING_UNSAFE)
    _core.apply(_umath.WHERE, [w, s, dst], dst)
    return None


def _fits(shape, target):
    """shape broadcasts to target (one way: target is not enlarged)."""
    if len(shape) > len(target):
        return False
    return all(a == 1 or a == b for a, b in zip(shape[::-1], target[::-1]))


def _shape_text(shape):
    """NumPy's spelling of a shape in its errors (iterator, broadcast, index): no spaces, a negative
    entry (an axis the operand lacks) as newaxis and dropped when leading."""
    k = 0
    while k < len(shape) and shape[k] < 0:
        k += 1
    if k == len(shape):
        return "()"
    parts = [str(shape[k])] + ["newaxis" if v < 0 else str(v) for v in shape[k + 1:]]
    return "(" + ",".join(parts) + ("," if len(shape) == 1 else "") + ")"


def result_type(*arrays_and_dtypes):
    return _np.result_type(*[a.dtype if isinstance(a, Array) else a
                             for a in arrays_and_dtypes])


def can_cast(from_, to, casting='safe'):
    if isinstance(from_, Array):
        from_ = from_.dtype
    return _np.can_cast(from_, to, casting)


def min_scalar_type(a, /):
    if isinstance(a, Array):
        a = C.to_numpy(a)
    return _np.min_scalar_type(a)


def _memory_stand_in(x, buf):
    """A NumPy view of `buf` (as long as x's store) with x's byte offset
    and strides: NumPy's own overlap solver then answers for x."""
    isz = x._store_itemsize
    start = x._offset * isz + x._part
    esz = x.dtype.itemsize
    strides = tuple(s * isz for s in x._estrides) if x.ndim else ()
    return _np.lib.stride_tricks.as_strided(buf[start:start + esz].view(x.dtype)
                                            if x.size else buf[:0].view(_np.uint8),
                                            shape=x.shape if x.size else (0,),
                                            strides=strides if x.size else (1,))


class _Interface:
    """An object NumPy reads through the array interface it holds."""

    def __init__(self, iface):
        self.__array_interface__ = iface


def _overlap_operand(x):
    """x as NumPy's may_share_memory takes it, without a copy: an array, an
    object's __array__ (which may be an ndtile array), or NumPy's view of
    what it exposes (__array_interface__, the buffer protocol)."""
    if isinstance(x, (Array, _np.ndarray)):
        return x
    if C.has_array_method(x):
        # called once, without arguments (NumPy's PyArray_FROM_O)
        r = x.__array__()
        if not isinstance(r, (Array, _np.ndarray)):
            raise ValueError("object __array__ method not producing an array")
        return r
    return _np.asarray(x)


def _overlap(a, b, max_work, solver):
    a, b = _overlap_operand(a), _overlap_operand(b)
    if not isinstance(a, Array) and not isinstance(b, Array):
        return solver(a, b, max_work=max_work)      # NumPy arrays (views of one buffer)
    if not (isinstance(a, Array) and isinstance(b, Array)):
        # a NumPy view of an ndtile array's memory (an object exposing its
        # __array_interface__) beside an ndtile array: both as NumPy views
        t, n = (a, b) if isinstance(a, Array) else (b, a)
        if t.size == 0 or n.size == 0:
            return False
        try:
            tn = _np.asarray(_Interface(t.__array_interface__))
        except AttributeError:
            return False        # spread over several ranks: no NumPy array views it
        return solver(tn, n, max_work=max_work)
    if not a._same_memory(b):     # one store, or two sharing memory (view(dtype))
        return False
    if a.size == 0 or b.size == 0:
        return False
    # untouched pages: the stand-in costs address space, not memory
    buf = _np.empty(a._memory_bytes(), dtype=_np.uint8)
    return solver(_memory_stand_in(a, buf), _memory_stand_in(b, buf), max_work=max_work)


def may_share_memory(a, b, /, max_work=0):
    """As NumPy's: by the bounds of the two views in their store."""
    return _overlap(a, b, 0 if max_work is None else max_work, _np.may_share_memory)


def shares_memory(a, b, /, max_work=-1):
    """As NumPy's: exact (NumPy's solver, over the views' byte layout)."""
    return _overlap(a, b, max_work, _np.shares_memory)


def dot(a, b, out=None):
    """NumPy's dot in the core for ndtile-able operands."""
    x, y = C.asarray(a), C.asarray(b)
    if isinstance(x, Array) and isinstance(y, Array) and (out is None or isinstance(out, Array)):
        r = _core.dot(x, y, out)
        return r[()] if out is None and r.ndim == 0 else r
    return F.call("dot", _np.dot, (a, b), {'out': out} if out is not None else {})


def _lex_equal_next(s):
    """Where s[..., i + 1] sorts equal to s[..., i] (s sorted along its last
    axis): NumPy's sort order makes NaNs equal to each other, and a complex
    value equal to another when its real and its imaginary parts are (NaN
    parts equal to NaN parts: NumPy's classes R + Rj, R + nanj, nan + Rj,
    nan + nanj)."""
    nt = _nt()
    a, b = s[..., 1:], s[..., :-1]
    if s.dtype.kind == 'c':
        return nt.logical_and(_lex_equal_parts(a.real, b.real), _lex_equal_parts(a.imag, b.imag))
    if s.dtype.kind == 'f':
        return _lex_equal_parts(a, b)
    return nt.equal(a, b)


def _lex_equal_parts(a, b):
    nt = _nt()
    return nt.logical_or(nt.equal(a, b), nt.logical_and(nt.isnan(a), nt.isnan(b)))


def _lex_ranks(x):
    """Dense ranks (int64, 0 for the smallest) of x's lines along its last
    axis, in NumPy's sort order; one batched stable argsort for all lines."""
    nt = _nt()
    idx = nt.argsort(x, axis=-1, kind='stable')
    s = nt.take_along_axis(x, idx, -1)
    step = nt.logical_not(_lex_equal_next(s)).astype(_np.int64)
    d = nt.concatenate((nt.zeros(tuple(x.shape[:-1]) + (1,), _np.int64),
                        nt.cumsum(step, axis=-1)), axis=-1)
    # d's values into the places idx names: one flat scatter (quicker than
    # put_along_axis's broadcast index arrays)
    n = x.shape[-1]
    lines = math.prod(x.shape[:-1])
    flat = (idx.reshape(lines, n) + nt.arange(0, lines * n, n).reshape(lines, 1)).ravel()
    r = nt.empty(lines * n, _np.int64)
    r[flat] = d.ravel()
    return r.reshape(tuple(x.shape))


# lexsort runs one stable argsort per key up to this many keys; more keys
# are ranked together and their ranks combined (_lexsort_ranked)
_LEX_LOOP_KEYS = 4


def _lexsort_ranked(groups, nkeys, n):
    """The lexsort order of lines of length n >= 2 under nkeys keys, in
    O(log nkeys) batched argsorts: groups are (positions, keys) pairs, keys
    an array (k, L, n) of one dtype holding the keys at those positions
    (position 0: lexsort's first key, the least significant). Each key
    becomes its dense ranks (< n; booleans and integers of a small range
    their offsets, without a sort); m consecutive ranks, the more
    significant key first, make one int64 code < base**m (which sorts as
    the m keys do lexicographically); the codes are ranked again, and so on
    until one line of codes is left, whose stable argsort is the order."""
    nt = _nt()
    ranks = []
    base = 2
    for pos, k in groups:
        r, b = _lex_small_ints(k, n)
        if r is None:
            r, b = _lex_ranks(k), n
        ranks.append((pos, r))
        base = max(base, b)
    if len(ranks) == 1:
        r = ranks[0][1]
    else:
        r = nt.concatenate([x for _, x in ranks], axis=0)
        where = _np.concatenate([_np.asarray(p, _np.intp) for p, _ in ranks])
        r = r[nt.asarray(_np.argsort(where))]
    r = r[::-1]        # the primary key (lexsort's last) first
    while True:
        m = 1
        while base ** (m + 1) <= 2**63 - 1:
            m += 1
        k = r.shape[0]
        if k % m and k > m:
            r = nt.concatenate((r, nt.zeros((m - k % m,) + tuple(r.shape[1:]), _np.int64)))
            k = r.shape[0]
        g = min(m, k)
        w = nt.asarray(_np.array([base ** (g - 1 - t) for t in range(g)], _np.int64))
        code = nt.sum(r.reshape((k // g, g) + tuple(r.shape[1:])) *
                      w.reshape((1, g) + (1,) * (r.ndim - 1)), axis=1)
        if code.shape[0] == 1:
            return nt.argsort(code[0], axis=-1, kind='stable')
        r, base = _lex_ranks(code), n


def _lex_small_ints(k, n):
    """Booleans and integers spanning at most n values order as their
    offsets from the smallest: those (int64) and their bound, without a
    sort; (None, None) for other keys."""
    nt = _nt()
    if k.dtype.kind == 'b':
        return k.astype(_np.int64), 2
    if k.dtype.kind not in 'iu':
        return None, None
    lo, hi = int(nt.min(k)), int(nt.max(k))
    if hi - lo >= n:
        return None, None
    if k.dtype == _np.uint64:
        return (k - _np.uint64(lo)).astype(_np.int64), hi - lo + 1
    return k.astype(_np.int64) - lo, hi - lo + 1


def lexsort(keys, axis=-1):
    """NumPy's lexsort: the last key is the primary one. Few keys: a stable
    argsort per key; many keys (an (n, 1) array has n): the keys' dense
    ranks, combined into int64 codes in O(log nkeys) batched argsorts."""
    nt = _nt()
    block = None      # keys as one array (k, *shape)
    if isinstance(keys, tuple) or isinstance(keys, list):
        ks = [C.asarray(k) for k in keys]
    elif not isinstance(keys, (Array, _np.ndarray)) and hasattr(type(keys), '__len__') and \
            hasattr(type(keys), '__getitem__'):
        # another sequence: its items, each its own key (NumPy's
        # PySequence_GetItem; an error there is the caller's)
        ks = [C.asarray(keys[i]) for i in range(len(keys))]
    else:
        block = C.asarray(keys)   # (other byte orders read into native)
        if block.ndim == 0:
            raise TypeError("need sequence of keys with len > 0 in lexsort")
        if block.shape[0] == 0:
            raise TypeError("need sequence of keys with len > 0 in lexsort")
        ks = None
    if ks is not None:
        if not ks:
            raise TypeError("need sequence of keys with len > 0 in lexsort")
        shape = tuple(ks[0].shape)
        if any(tuple(k.shape) != shape for k in ks):
            raise ValueError("all keys need to be the same shape")
        native = all(isinstance(k, Array) for k in ks)
        nkeys = len(ks)
    else:
        shape = tuple(block.shape[1:])
        native = isinstance(block, Array)
        nkeys = block.shape[0]
    if not native:
        # a dtype the core lacks (strings, datetimes, objects): NumPy's
        return F.call("lexsort", _np.lexsort, (keys,), {'axis': axis})
    # the axis as NumPy checks it (its messages), on an empty stand-in
    _np.lexsort((_np.empty((0,) * len(shape)),), axis=axis)
    if not shape:
        return _np.intp(0)
    ax = operator.index(axis)
    ax = ax + len(shape) if ax < 0 else ax
    n = shape[ax]
    lead = shape[:ax] + shape[ax + 1:]
    if n <= 1 or math.prod(lead) == 0:
        return nt.zeros(shape, _np.intp)

    def lines(k):       # (..., n): the sorted axis last
        return k if ax == len(shape) - 1 else nt.moveaxis(k, ax, -1)

    if nkeys <= _LEX_LOOP_KEYS or n > math.isqrt(2**63 - 1):
        # (lines too long for two ranks in one int64 code: the loop)
        if ks is None:
            ks = [block[i] for i in range(nkeys)]
        ks = [lines(k) for k in ks]
        order = nt.argsort(ks[0], axis=-1, kind='stable')
        for k in ks[1:]:
            order = nt.take_along_axis(
                order, nt.argsort(nt.take_along_axis(k, order, -1), axis=-1, kind='stable'), -1)
    else:
        flat = (math.prod(lead), n)
        if ks is None:
            b = block if ax == len(shape) - 1 else nt.moveaxis(block, ax + 1, -1)
            groups = [(range(nkeys), b.reshape((nkeys,) + flat))]
        else:
            by = {}
            for i, k in enumerate(ks):
                by.setdefault(k.dtype, []).append(i)
            groups = [(p, nt.stack([lines(ks[i]).reshape(flat) for i in p]))
                      for p in by.values()]
        order = _lexsort_ranked(groups, nkeys, n).reshape(lead + (n,))
    if ax != len(shape) - 1:
        order = nt.ascontiguousarray(nt.moveaxis(order, -1, ax))
    return order


# ---- bits ----------------------------------------------------------------------


def _arg_type(x):
    """A type as CPython's argument errors name it (None for None)."""
    return 'None' if x is None else type(x).__name__


def _bit_weights(bitorder):
    if not isinstance(bitorder, str):
        raise TypeError(f"pack() argument 3 must be str, not {_arg_type(bitorder)}")
    if bitorder not in ('big', 'little'):
        raise ValueError("'order' must be either 'little' or 'big'")
    w = _np.array([128, 64, 32, 16, 8, 4, 2, 1], _np.uint8)
    return w if bitorder == 'big' else w[::-1].copy()


def packbits(a, /, axis=None, bitorder='big'):
    nt = _nt()
    a = nt.asarray(a)
    if a.dtype.kind not in 'biu':
        raise TypeError("Expected an input array of integer or boolean data type")
    w = _bit_weights(bitorder)
    if axis is None:
        a = a.ravel()
        axis = 0
    ax = _axis(axis, a.ndim)
    b = nt.moveaxis(nt.not_equal(a, 0), ax, -1).astype(_np.uint8)
    n = b.shape[-1]
    m = -(-n // 8)
    if m * 8 != n:
        b = nt.concatenate((b, nt.zeros(tuple(b.shape[:-1]) + (m * 8 - n,), _np.uint8)),
                           axis=-1)
    r = nt.sum(b.reshape(tuple(b.shape[:-1]) + (m, 8)) * nt.asarray(w), axis=-1,
               dtype=_np.uint8)
    return nt.moveaxis(r, -1, ax)


def unpackbits(a, /, axis=None, count=None, bitorder='big'):
    nt = _nt()
    a = nt.asarray(a)
    if a.dtype != _np.uint8:
        raise TypeError("Expected an input array of unsigned byte data type")
    shifts = _np.array([7, 6, 5, 4, 3, 2, 1, 0], _np.uint8)
    # NumPy's unpackbits reads the first letter only ('l...' or 'b...')
    if not isinstance(bitorder, str):
        raise TypeError(f"unpack() argument 4 must be str, not {_arg_type(bitorder)}")
    if bitorder[:1] not in ('b', 'l'):
        raise ValueError("'order' must begin with 'l' or 'b'")
    if bitorder[0] == 'l':
        shifts = shifts[::-1].copy()
    if axis is None:
        a = a.ravel()
        axis = 0
    ax = _axis(axis, a.ndim)
    x = nt.moveaxis(a, ax, -1)
    bits = nt.bitwise_and(nt.right_shift(x[..., None], nt.asarray(shifts)), 1)
    bits = bits.reshape(tuple(x.shape[:-1]) + (x.shape[-1] * 8,))
    if count is not None:
        count = operator.index(count)
        n = bits.shape[-1]
        keep = count if count >= 0 else n + count
        if keep < 0:
            raise ValueError(f"-count larger than number of elements")
        if keep <= n:
            bits = bits[..., :keep]
        else:
            bits = nt.concatenate(
                (bits, nt.zeros(tuple(bits.shape[:-1]) + (keep - n,), _np.uint8)), axis=-1)
    return nt.moveaxis(bits, -1, ax)


def _safe_values(values, dtype):
    """NumPy 2's putmask and place cast array values (0-d included) by the
    'safe' rule; scalars and lists by assignment's rules."""
    if isinstance(values, (Array, _np.ndarray)) and not _np.can_cast(values.dtype, dtype, 'safe'):
        what = 'scalar' if values.ndim == 0 else 'array data'
        raise TypeError(f"Cannot cast {what} from {values.dtype!r} to {_np.dtype(dtype)!r} "
                        "according to the rule 'safe'")


def putmask(a, /, mask, values):
    nt = _nt()
    if not isinstance(a, Array):
        return F.call("putmask", _np.putmask, (a, mask, values), {})
    a._before_write()     # NumPy's warning for a broadcast_arrays result
    if not a.flags.writeable:
        # NumPy's first check, before the mask's size and the values
        raise ValueError("putmask: output array is read-only")
    _safe_values(values, a.dtype)
    m = nt.ravel(nt.asarray(mask))      # NumPy: any shape of a's size, no broadcasting
    if m.size != a.size:
        raise ValueError("putmask: mask and data must be the same size")
    idx = nt.flatnonzero(m)
    v = nt.ravel(nt.asarray(values, dtype=a.dtype))
    if idx.size == 0:
        return
    if v.size == 0:
        return
    # the value at the same flat position, values repeated to a's size
    nt.put(a, idx, v[idx % v.size] if v.size != a.size else v[idx])


def from_dlpack(x, /, *, device=None, copy=None):
    """An array from another library's DLPack capsule: NumPy imports it
    (host memory) and ndtile copies it into tiles (copy=False: BufferError;
    an ndtile array gives a view of its memory, as NumPy's does)."""
    return C.from_dlpack(x, device, copy)


# ---- bincount -----------------------------------------------------------------


def bincount(x, /, weights=None, minlength=0):
    """NumPy's bincount: per-block counts combined in block order, so float
    weights sum to the same bits for any number of workers."""
    xa = C.asarray(x)
    w = None if weights is None else C.asarray(weights)
    if not isinstance(xa, Array) or (w is not None and not isinstance(w, Array)):
        return F.call("bincount", _np.bincount, (x,), dict(weights=weights, minlength=minlength))
    if minlength is None:
        raise TypeError("use 0 instead of None for minlength")
    if xa.ndim == 0:
        raise ValueError("object of too small depth for desired array")
    _bincount_1d(x, xa)
    if xa.dtype.kind == 'f' and not isinstance(x, (Array, _np.ndarray)):
        if xa.size:     # a list of floats: NumPy 2.1+ casts it with a warning
            F.warn("Non-integer input passed to bincount. In a future version of NumPy, "
                   "this will be an error. (Deprecated NumPy 2.1)", DeprecationWarning)
        xa = xa._astype(D.code(_np.dtype(_np.int64)), _core.CASTING_UNSAFE)
    elif xa.dtype.kind not in 'biu':
        raise TypeError(f"Cannot cast array data from {xa.dtype!r} to dtype('int64') according "
                        f"to the rule 'safe'")
    elif xa.dtype == _np.uint64:     # NumPy casts uint64 (same_kind)
        xa = _cast(xa, _np.dtype(_np.int64))
    if xa.size == 0:
        # NumPy returns minlength zeros of intp before it reads the weights
        # (their dtype and length are not checked then)
        n = operator.index(minlength)
        if n < 0:
            raise ValueError("'minlength' must not be negative")
        return C.asnd(_np.zeros(n, _np.intp))
    _bincount_1d(weights, w)
    if w is not None and w.dtype.kind == 'c':
        raise TypeError("float() argument must be a string or a real number, not 'complex'")
    return _core.bincount(xa, w, operator.index(minlength))


def _bincount_1d(v, va):
    if va is not None and va.ndim > 1 and not isinstance(v, (Array, _np.ndarray)):
        # a nested list: NumPy's conversion to a 1-d array fails so
        raise ValueError("setting an array element with a sequence. The requested array "
                         "would exceed the maximum number of dimension of 1.")
