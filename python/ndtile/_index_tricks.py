"""Index-trick objects and Python-function wrappers that return ndtile arrays.

np.mgrid, np.ogrid (dense and open grids), np.r_ and np.c_ (concatenation
along the first / last axis with slice shorthands), unravel_index: built
from ndtile's arange, linspace, indices and concatenate, with NumPy's
dtype rules. np.s_ and np.index_exp are NumPy's own objects (they make
keys, not arrays).

np.vectorize, np.frompyfunc and apply_along_axis run the Python function
once per element or per line, as NumPy does; their array results are
ndtile arrays (an object-dtype result, which ndtile does not hold, stays a
NumPy array, as every object array does).
"""

import math
import operator
import sys

import numpy as _np

from . import _convert as C
from . import _core
from . import _dtypes as D
from . import _fallback as F
from . import _fromnumeric

Array = _core.Array


def _nt():
    return sys.modules['ndtile']


def ix_(*args):
    nt = _nt()
    out = []
    nd = len(args)
    for k, new in enumerate(args):
        x = nt.asarray(new)
        if x.ndim != 1:
            raise ValueError("Cross index must be 1 dimensional")
        if x.size == 0 and not isinstance(new, Array):
            x = x.astype(_np.intp)
        if x.dtype == _np.bool_:
            (x,) = nt.nonzero(x)
        out.append(x.reshape((1,) * k + (x.size,) + (1,) * (nd - k - 1)))
    return tuple(out)


def diag_indices(n, ndim=2):
    idx = _nt().arange(n)
    return (idx,) * ndim


def diag_indices_from(arr):
    a = _nt().asarray(arr)
    if a.ndim < 2:
        raise ValueError("input array must be at least 2-d")
    if len(set(a.shape)) != 1:
        raise ValueError("All dimensions of input must be of equal length")
    return diag_indices(a.shape[0], a.ndim)


def fill_diagonal(a, val, wrap=False):
    if a.ndim < 2:
        raise ValueError("array must be at least 2-d")
    if a.ndim == 2:
        step = a.shape[1] + 1
        end = None if wrap else a.shape[1] * a.shape[1]
    else:
        if len(set(a.shape)) != 1:
            raise ValueError("All dimensions of input must be of equal length")
        step = 1 + int(_np.cumprod(a.shape[:-1]).sum())
        end = None
    if isinstance(a, _core.Array) and not a._flags & 0x400:
        raise ValueError("underlying array is read-only")    # NumPy's a.flat[...] = val
    # NumPy's own write: the value converted (and refused) even where the
    # diagonal is empty, repeated over the positions
    a.flat[:end:step] = val


def _is_complex_step(step):
    return isinstance(step, (complex, _np.complexfloating))


# ---- mgrid / ogrid ------------------------------------------------------------


class _Grid:
    """NumPy's nd_grid: grid[start:stop:step, ...]; an imaginary step Nj
    means N points from start to stop inclusive (linspace)."""

    def __init__(self, sparse):
        self.sparse = sparse

    def __getitem__(self, key):
        nt = _nt()
        if isinstance(key, slice):
            return self._one(key)
        if not isinstance(key, tuple):
            key = (key,)
        sizes = []
        nums = [0]
        for k in key:
            if not isinstance(k, slice):
                # NumPy's error: it reads each entry's .step
                raise AttributeError(f"'{type(k).__name__}' object has no attribute 'step'")
            start = 0 if k.start is None else k.start
            step = 1 if k.step is None else k.step
            stop = k.stop
            if _is_complex_step(step):
                sizes.append(int(abs(step)))
                step = abs(step)
            else:
                sizes.append(int(math.ceil((stop - start) / (step * 1.0))))
            nums += [start, stop, step]
        typ = _np.result_type(*nums)
        if self.sparse:
            grids = [nt.arange(n, dtype=typ) for n in sizes]
        else:
            grids = list(nt.indices(sizes, typ)) if sizes else []
        for i, k in enumerate(key):
            start = 0 if k.start is None else k.start
            step = 1 if k.step is None else k.step
            if _is_complex_step(step):
                step = int(abs(step))
                if step != 1:
                    step = (k.stop - start) / float(step - 1)
            grids[i] = grids[i] * step + start
        if self.sparse:
            n = len(sizes)
            return tuple(g.reshape((1,) * i + (-1,) + (1,) * (n - i - 1))
                         for i, g in enumerate(grids))
        if not grids:
            return nt.zeros((0,), typ)      # mgrid[()]: NumPy's empty result
        return nt.stack(grids)

    def _one(self, key):
        nt = _nt()
        start = 0 if key.start is None else key.start
        step = key.step
        if _is_complex_step(step):
            length = int(abs(step))
            typ = _np.result_type(start, key.stop, abs(step))
            st = (key.stop - start) / float(length - 1) if length != 1 else length
            return nt.arange(0, length, 1, dtype=typ) * st + start
        return nt.arange(start, key.stop, step)

    def __len__(self):
        return 0


mgrid = _Grid(False)
ogrid = _Grid(True)


# ---- r_ / c_ -----------------------------------------------------------------


class _Concat:
    """NumPy's AxisConcatenator: r_[...] and c_[...]."""

    def __init__(self, axis=0, ndmin=1, trans1d=-1, numpy_obj=None):
        self.axis = axis
        self.ndmin = ndmin
        self.trans1d = trans1d
        self._numpy = numpy_obj

    def __getitem__(self, key):
        nt = _nt()
        if isinstance(key, str):
            # a matrix of the caller's names (r_['a, b; c, d']): NumPy's
            # bmat(key, globals, locals) of the caller's frame, which
            # NumPy's AxisConcatenator takes as its own caller (here: a
            # NameError for the user's local names)
            f = F.user_frame()[1]
            return nt.bmat(key, f.f_globals, f.f_locals)
        if isinstance(key, tuple) and key and isinstance(key[0], str) and key[0] in ('r', 'c'):
            # matrix results ('r', 'c', a string of a matrix): NumPy's matrix class
            return C.from_np_tree(self._numpy[C.to_np_tree(key)])
        if not isinstance(key, tuple):
            key = (key,)
        axis, ndmin, trans1d = self.axis, self.ndmin, self.trans1d
        objs = []
        rtypes = []
        for k, item in enumerate(key):
            scalar = False
            if isinstance(item, slice):
                start = 0 if item.start is None else item.start
                step = 1 if item.step is None else item.step
                if _is_complex_step(step):
                    new = nt.linspace(start, item.stop, num=int(abs(step)))
                else:
                    new = nt.arange(start, item.stop, step)
                if ndmin > 1:
                    new = nt.array(new, copy=None, ndmin=ndmin)
                    if trans1d != -1:
                        new = new.swapaxes(-1, trans1d)
            elif isinstance(item, str):
                if k != 0:
                    raise ValueError("special directives must be the first entry.")
                if ',' in item:
                    vec = item.split(',')
                    try:
                        axis, ndmin = [int(x) for x in vec[:2]]
                        if len(vec) == 3:
                            trans1d = int(vec[2])
                        continue
                    except Exception as e:
                        raise ValueError(f"unknown special directive {item!r}") from e
                try:
                    axis = int(item)
                    continue
                except (ValueError, TypeError) as e:
                    raise ValueError("unknown special directive") from e
            elif type(item) in _np.ScalarType:
                scalar = True
                new = item
            else:
                item_ndim = nt.ndim(item)
                new = nt.array(item, copy=None, subok=True, ndmin=ndmin)
                if trans1d != -1 and item_ndim < ndmin:
                    k2 = ndmin - item_ndim
                    k1 = trans1d if trans1d >= 0 else trans1d + k2 + 1
                    dax = list(range(ndmin))
                    new = new.transpose(dax[:k1] + dax[k2:] + dax[k1:k2])
            objs.append(new)
            rtypes.append(item if scalar else new.dtype)
        if rtypes:
            final = _np.result_type(*rtypes)
            objs = [nt.array(o, copy=None, subok=True, ndmin=ndmin, dtype=final) for o in objs]
        return nt.concatenate(tuple(objs), axis=axis)

    def __len__(self):
        return 0


r_ = _Concat(0, numpy_obj=_np.r_)
c_ = _Concat(-1, ndmin=2, trans1d=0, numpy_obj=_np.c_)


# ---- unravel_index ------------------------------------------------------------


def unravel_index(indices, shape, order='C'):
    """NumPy's unravel_index: the coordinates of flat indices in an array of
    the given shape, C or F order, with NumPy's errors."""
    nt = _nt()
    if isinstance(shape, (int, _np.integer)):
        shape = (shape,)
    dims = tuple(operator.index(d) for d in shape)
    if order not in ('C', 'F'):
        if order is None or not isinstance(order, str):
            raise TypeError("order must be str")      # NumPy's
        raise ValueError("only 'C' or 'F' order is permitted")
    for d in dims:
        if d < 0:
            raise ValueError("dimensions must be non-negative")
    size = math.prod(dims)
    if size > _np.iinfo(_np.intp).max:
        raise ValueError("dimensions are too large; arrays and shapes with a total size "
                         "greater than 'intp' are not supported.")
    walk = range(len(dims) - 1, -1, -1) if order == 'C' else range(len(dims))
    if isinstance(indices, (int, _np.integer)) and not isinstance(indices, (bool, _np.bool_)):
        i = operator.index(indices)
        if i < 0 or i >= size:
            raise ValueError(f"index {i} is out of bounds for array with size {size}")
        out = [0] * len(dims)
        for k in walk:
            out[k] = _np.intp(i % dims[k]) if dims[k] else _np.intp(0)
            i = i // dims[k] if dims[k] else i
        return tuple(out)
    x = C.asarray(indices)
    if isinstance(indices, (list, tuple)) and x.size == 0 and x.dtype.kind == 'f':
        raise TypeError("indices must be integral: the provided empty sequence was inferred "
                        "as float. Wrap it with 'np.array(indices, dtype=np.intp)'")
    if not isinstance(x, Array) or D.KIND[x._dt] not in 'iu':
        if isinstance(x, Array) and D.KIND[x._dt] == 'b':
            x = x.astype(_np.intp)
        else:
            raise TypeError("only int indices permitted")     # NumPy's
    # (a NumPy array's own layout gives NumPy's order of checking it)
    x0 = indices if isinstance(indices, _np.ndarray) and indices.dtype.kind in 'iu' else x
    if x.dtype != _np.intp:
        x = x.astype(_np.intp)
    if x.size:
        lo = int(nt.min(x))
        hi = int(nt.max(x))
        if lo < 0 or hi >= size:
            # NumPy names the first bad index it meets, in the order of the
            # indices' strides (each axis in its own direction): found on
            # this path only
            flat = _fromnumeric._in_check_order(x0, 'S')
            if flat.dtype != _np.intp:
                flat = flat.astype(_np.intp)
            bad = int(flat[int(nt.argmax(nt.logical_or(flat < 0, flat >= size)))])
            raise ValueError(f"index {bad} is out of bounds for array with size {size}")
    if not dims and x.ndim:
        raise ValueError("multiple indices are not supported for 0d arrays")
    out = [None] * len(dims)
    rest = x
    for k in walk:
        if dims[k] == 0:
            out[k] = nt.zeros(x.shape, _np.intp)
            continue
        out[k] = nt.remainder(rest, dims[k])
        rest = nt.floor_divide(rest, dims[k])
    return tuple(out)


def ravel_multi_index(multi_index, dims, mode='raise', order='C'):
    """NumPy's ravel_multi_index: the flat indices of coordinate arrays in an
    array of shape dims, with NumPy's modes, orders and errors. Coordinates
    that are ndtile arrays are computed on; host data (lists, scalars,
    NumPy arrays) go to NumPy's function."""
    nt = _nt()
    if isinstance(multi_index, Array):
        items = list(multi_index) if multi_index.ndim else None
    elif isinstance(multi_index, (list, tuple)):
        items = list(multi_index)
    else:
        items = None
    if items is None or not any(isinstance(m, Array) for m in items) or \
            any(isinstance(m, (list, tuple)) and len(m) == 0 for m in items):
        # (an empty list: NumPy's TypeError for its float dtype)
        r = _np.ravel_multi_index(C.to_np_tree(multi_index), C.to_np_tree(dims), mode, order)
        return C.asarray(r) if isinstance(r, _np.ndarray) else r
    xs = [C.asarray(m) for m in items]
    if not all(isinstance(x, Array) for x in xs):
        return F.call("ravel_multi_index (dtype)", _np.ravel_multi_index,
                      (multi_index, dims, mode, order), {})
    try:
        bshape = _np.broadcast_shapes(*[x.shape for x in xs])
    except ValueError:
        raise ValueError("operands could not be broadcast together with shapes " +
                         ''.join(C.shape_str(x.shape) + ' ' for x in xs)) from None
    # NumPy's checks of dims, mode, order, the number and dtypes of the
    # coordinate arrays, on one-element stand-ins (none: empty coordinates
    # take dims with zeros)
    n = 1 if math.prod(bshape) else 0
    _np.ravel_multi_index(tuple(_np.zeros(n, x.dtype) for x in xs), C.to_np_tree(dims),
                          mode, order)
    modes = [mode] * len(xs) if isinstance(mode, str) else list(mode)
    if any(m not in ('raise', 'wrap', 'clip') for m in modes) or order not in ('C', 'F', None):
        # (NumPy's other spellings of these)
        return F.call("ravel_multi_index (mode)", _np.ravel_multi_index,
                      (multi_index, dims, mode, order), {})
    dims = C.to_np_tree(dims)
    shape = tuple(operator.index(d) for d in (dims if _np.iterable(dims) else (dims,)))
    xs = nt.broadcast_arrays(*xs)
    out = None
    stride = 1
    walk = range(len(shape) - 1, -1, -1) if order != 'F' else range(len(shape))
    for k in walk:
        x = xs[k] if xs[k].dtype == _np.intp else xs[k].astype(_np.intp)
        d = shape[k]
        if modes[k] == 'raise':
            if x.size and (int(nt.min(x)) < 0 or int(nt.max(x)) >= d):
                raise ValueError("invalid entry in coordinates array")
        elif modes[k] == 'wrap':
            x = nt.remainder(x, d)
        else:
            x = nt.clip(x, 0, d - 1)
        term = x if stride == 1 else nt.multiply(x, stride)
        out = term if out is None else nt.add(out, term)
        stride *= d
    if out.ndim == 0:
        return _np.intp(out.item())     # NumPy's scalar
    return out.copy() if any(out is x for x in xs) else out


# ---- Python functions over arrays ----------------------------------------------


class vectorize(_np.vectorize):
    """NumPy's vectorize (the function runs per element in NumPy's loop);
    array arguments may be ndtile arrays and array results are ndtile
    arrays (of the class of a subclass argument, as NumPy's)."""

    def __call__(self, *args, **kwargs):
        r = C.from_np_tree(super().__call__(*C.to_np_tree(args), **C.to_np_tree(kwargs)))
        return C.wrap_by_inputs(args + tuple(kwargs.values()), r)


class _PyUfunc:
    """frompyfunc's ufunc: NumPy's (object loops) on NumPy copies of ndtile
    arguments. Its results are object arrays, which stay NumPy arrays."""

    def __init__(self, u):
        self._u = u

    def __getattr__(self, name):
        return getattr(self._u, name)

    def __repr__(self):
        return repr(self._u)

    def _run(self, f, args, kwargs):
        return F.run_numpy(f, args, kwargs)

    def __call__(self, *args, **kwargs):
        return self._run(self._u, args, kwargs)

    def reduce(self, *args, **kwargs):
        return self._run(self._u.reduce, args, kwargs)

    def accumulate(self, *args, **kwargs):
        return self._run(self._u.accumulate, args, kwargs)

    def outer(self, *args, **kwargs):
        return self._run(self._u.outer, args, kwargs)

    def reduceat(self, *args, **kwargs):
        return self._run(self._u.reduceat, args, kwargs)

    def at(self, *args, **kwargs):
        F.MUTATES.setdefault('frompyfunc.at', (0, 'a'))
        return F.run_numpy(self._u.at, args, kwargs, 'frompyfunc.at')


def frompyfunc(func, /, nin, nout, *, identity=_np._NoValue):
    # identity=None is not the default: NumPy then reduces over several axes
    # (reorderable, no identity); without it, one axis at most
    kw = {} if identity is _np._NoValue else {'identity': identity}
    return _PyUfunc(_np.frompyfunc(func, nin, nout, **kw))


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """NumPy's apply_along_axis: func1d on each 1-d line along axis (an
    ndtile view), the results stacked where the axis was."""
    nt = _nt()
    arr = nt.asanyarray(arr)
    nd = arr.ndim
    axis = _np.lib.array_utils.normalize_axis_index(axis, nd)
    moved = nt.moveaxis(arr, axis, -1)
    outer = moved.shape[:-1]
    if math.prod(outer) == 0:
        raise ValueError("Cannot apply_along_axis when any iteration dimensions are 0")
    # each index ends in Ellipsis, as NumPy's: a line is a view, and a value
    # is written through a view (an object array's element is then the
    # value, not a 0-d array holding it)
    it = (ind + (Ellipsis,) for ind in _np.ndindex(outer))
    first = next(it)
    res = nt.asanyarray(func1d(moved[first], *args, **kwargs))
    if isinstance(res, Array):
        buff = nt.empty(outer + res.shape, res.dtype)
    else:
        # a NumPy result (object, strings, a masked array): NumPy's buffer,
        # zeros wrapped by the result's class
        buff = _np.zeros(outer + res.shape, res.dtype)
        if type(res) is not _np.ndarray and not isinstance(res, _np.matrix):
            buff = res.__array_wrap__(buff)
    buff[first] = res
    for ind in it:
        buff[ind] = nt.asanyarray(func1d(moved[ind], *args, **kwargs))
    dims = list(range(buff.ndim))
    perm = dims[:axis] + dims[buff.ndim - res.ndim:] + dims[axis:buff.ndim - res.ndim]
    out = buff.transpose(perm)
    if isinstance(res, _np.matrix):
        return res.__array_wrap__(out)
    if type(res) is not C.ND and isinstance(res, Array) and isinstance(out, Array):
        # NumPy wraps the stacked result with the first result's class
        return C.subclass_like(out, res)
    return out
