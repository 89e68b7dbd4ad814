"""The ufunc methods that call the array library: ufunc.reduce,
accumulate, reduceat and at, gcd.reduce and vecdot's call (NumPy runs them in
C inside its ufunc objects). They sit above the library modules they use
(_methods, _multiarray, _fromnumeric, _indexing) and are installed on the
classes of _umath at import (the end of this module), so _umath, the
bottom module, imports none of them."""

import operator
import warnings

import numpy as _np

from . import _convert as C
from . import _core
from . import _dtypes as D
from . import _fallback as F
from . import _fromnumeric
from . import _function_base
from . import _indexing
from . import _methods
from . import _multiarray
from . import _numeric
from . import _umath
from ._umath import (
    POWER, UFUNCS, _CORE_INDEX, _Unsupported, _gcd_lcm, _override_kw, _split_out,
    _subclass_operand, _vecdot, ufunc)

Array = _core.Array
_NoValue = _np._NoValue


def _at_broadcastable(bv, shape):
    """NumPy's at error for a b that does not broadcast to the indexing
    result's shape."""
    try:
        if tuple(_core.broadcast_shapes([tuple(bv.shape), shape])) != shape:
            raise ValueError
    except ValueError:
        raise ValueError("array is not broadcastable to correct shape") from None


def _small_flat_index(a, key):
    """(flat int64 positions, indexing shape) for at's usual small case - a
    1-d target and one integer index array of at most the inline size -
    checked and wrapped on the host (NumPy's IndexError), cheaper than the
    general path's reductions; None otherwise."""
    if a.ndim != 1 or not isinstance(key, (Array, _np.ndarray)) or \
            key.size > 32768:      # the default inline size (NDTILE_INLINE_ELEMS)
        return None
    if key.dtype.kind not in 'iu':
        return None
    k = C.to_numpy(key) if isinstance(key, Array) else key
    n = a.shape[0]
    if k.size:
        lo, hi = int(k.min()), int(k.max())
        if hi >= n or lo < -n:
            # NumPy names the first bad index in memory order (its
            # MapIterCheckIndices), a 1-d intp array's in its own order
            bad = _fromnumeric._first_out_of_bounds(key, n, 'K')[1]
            raise IndexError(f"index {bad} is out of bounds for axis 0 with size {n}")
        if lo < 0:
            k = k.astype(_np.int64)     # (-1 + n of int8 indices may not fit int8)
            k = _np.where(k < 0, k + n, k)
    return C.from_numpy(_np.ascontiguousarray(k, dtype=_np.int64).reshape(-1)), k.shape


def _take_rows(x, idx, ax):
    """x taken at the (valid) int64 NumPy indices idx along axis ax: shape
    x.shape[:ax] + idx.shape + x.shape[ax+1:]. A view where idx is an
    arithmetic progression along its first axis and unit steps along the
    second (the usual reduceat segments), else one gather (no bounds checks:
    reduceat checked them)."""
    st = x._estrides
    if idx.ndim == 2 and idx.shape[1] > 1 and not (_np.diff(idx, axis=1) == 1).all():
        pass
    elif idx.size and x.size:
        col = idx[:, 0] if idx.ndim == 2 else idx
        d = int(col[1] - col[0]) if len(col) > 1 else 1
        if len(col) == 1 or (_np.diff(col) == d).all():
            shape = tuple(x.shape[:ax]) + idx.shape + tuple(x.shape[ax + 1:])
            strides = tuple(st[:ax]) + (d * st[ax],) + ((st[ax],) if idx.ndim == 2 else ()) + \
                tuple(st[ax + 1:])
            return _core.as_strided(x, x._offset + int(col[0]) * st[ax], shape, strides)
    shape = tuple(x.shape[:ax]) + idx.shape + tuple(x.shape[ax + 1:])
    if 0 in shape:
        return _multiarray.empty(shape, x.dtype)
    # the other axes as slices and the indices below their maximum: each
    # task reads only the rows of x its block of the result reaches
    ix = C.from_numpy(_np.ascontiguousarray(idx, dtype=_np.int64))
    ix = ix._reshape((1,) * ax + idx.shape + (1,) * (x.ndim - ax - 1))._broadcast_to(shape)
    parts = [ix if k == ax else (k if k < ax else k + idx.ndim - 1, 0, 1) for k in range(x.ndim)]
    hi = [int(idx.max()) + 1 if k == ax else x.shape[k] for k in range(x.ndim)]
    return _core.gather(x, parts, shape, hi)


def _reduceat_identity(name, dt):
    """A 0-d array of dtype dt that leaves op's reduction unchanged (the
    padding of reduceat's classes of segments)."""
    k = dt.kind
    if name == 'add':
        v = -0.0 if k in 'fc' else 0       # -0.0 + x is x for every x
    elif name == 'multiply':
        v = 1
    elif name in ('maximum', 'fmax', 'minimum', 'fmin'):
        if k in 'fc' and name in ('fmax', 'fmin'):
            v = _np.nan        # fmax(x, nan) is x
        elif k in 'fc':
            v = -_np.inf if name == 'maximum' else _np.inf
        elif k == 'b':
            v = name in ('minimum', 'fmin')
        else:
            info = _np.iinfo(dt)
            v = info.min if name in ('maximum', 'fmax') else info.max
    elif name in ('logical_or', 'logical_xor'):
        v = 0
    elif name == 'logical_and':
        v = 1
    else:
        raise _Unsupported(name)
    return C.from_numpy(_np.asarray(v).astype(dt))


def _bool_scalar(k):
    return isinstance(k, (bool, _np.bool_)) or \
        (isinstance(k, (Array, _np.ndarray)) and k.ndim == 0 and k.dtype == _np.bool_)


def _reduce_type_error(self, array, axis, dtype, out=None, keepdims=False):
    """Raises NumPy's TypeError (its class and message) when NumPy's reduce
    refuses this dtype (or dtype=, out='s dtype): found on a one-element
    array of the same dtype and dimensions."""
    if not isinstance(array, (Array, _np.ndarray)):
        return
    try:
        x = _np.zeros((1,) * array.ndim, array.dtype)
        kw = {}
        if isinstance(out, (Array, _np.ndarray)):
            kw['out'] = _np.zeros(_np.zeros(x.shape).sum(axis=axis, keepdims=keepdims).shape,
                                  out.dtype)
        self._np.reduce(x, axis=axis, dtype=dtype, keepdims=keepdims, **kw)
    except TypeError as e:
        raise e from None
    except Exception:
        pass


def _no_initial(self, array, axis, where):
    """initial=None of a ufunc with an identity: no initial value (NumPy's
    errors for an empty reduction or a where= mask; else the values of the
    default initial)."""
    if where is not True:
        raise ValueError(f"reduction operation '{self.__name__}' does not have an identity, "
                         f"so to use a where mask one has to specify 'initial'")
    shape = _np.shape(array) if not isinstance(array, (Array, _np.ndarray)) else array.shape
    nd = len(shape)
    try:
        axes = range(nd) if axis is None else \
            [_umath._norm_axis(k, nd) for k in (axis if isinstance(axis, tuple) else (axis,))]
    except (TypeError, _np.exceptions.AxisError):
        return      # (the reduction's own error)
    if any(shape[k] == 0 for k in axes) or (nd == 0 and axis is not None and axis != ()):
        raise ValueError(f"zero-size array to reduction operation {self.__name__} which has "
                         f"no identity")


def reduce(self, array, axis=0, dtype=None, *args, out=_umath._NO_OUT, keepdims=False,
           initial=_NoValue, where=True):
    if args:
        # (out, keepdims, initial, where) given by position: out=... only by keyword
        if len(args) > 4:
            raise TypeError(f"reduce() takes from 1 to 7 positional arguments but "
                            f"{len(args) + 3} were given")
        if out is not _umath._NO_OUT:
            raise TypeError("argument for reduce() given by name ('out') and position (4)")
        if args[0] is Ellipsis:
            raise TypeError(_umath._OUT_ELLIPSIS_POS)
        out = args[0]
        if len(args) > 1:
            keepdims = args[1]
        if len(args) > 2:
            initial = args[2]
        if len(args) > 3:
            where = args[3]
    elif out is _umath._NO_OUT:
        out = None
    elif out is Ellipsis:
        r = reduce(self, array, axis, dtype, None, keepdims, initial, where)
        return _umath._as_array_result(r)
    if type(out) is tuple and any(o is Ellipsis for o in out):
        raise TypeError(_umath._OUT_ELLIPSIS_TUPLE)
    if type(out) is tuple:
        # out=(array,), as NumPy takes it (another length is its ValueError;
        # (None,) stays its TypeError, below)
        if len(out) != 1:
            raise ValueError("The 'out' tuple must have exactly one entry per ufunc output")
        if out[0] is not None:
            out = out[0]
    if where is _NoValue:
        # NumPy's reduce reads it as a mask (an object: True), so a ufunc
        # without an identity wants initial= (maximum's ValueError)
        where = _np.True_
    _umath._check_where_dtype(where)
    if initial is None and self.identity is not None and self.nin == 2:
        _no_initial(self, array, axis, where)
        initial = _NoValue
    if _umath._FOREIGN((array, out, where), None):
        return _umath.run_foreign(self, 'reduce', (array,),
                                  _override_kw(axis, dtype, out, keepdims, initial, where))
    if _subclass_operand((array,), out):
        return _umath._SUBCLASS_CALL(self, 'reduce', (array,),
                              _override_kw(axis, dtype, out, keepdims, initial, where))
    if out is None and _umath.needs_array_wrap((array,)):
        # an object with __array__ and __array_wrap__: the latter wraps the
        # result, as NumPy's reduce does (no context)
        w = _umath.array_wrap_of((array,))
        r = reduce(self, _umath.wrap_input(array), axis, dtype, None, keepdims, initial, where)
        return r if w is None else _umath.apply_array_wrap(w, r, None)
    name = _methods.UFUNC_REDUCTIONS.get(self.__name__)
    if name is None or self._op is None:
        kw = {'axis': axis, 'dtype': dtype, 'out': out, 'keepdims': keepdims}
        if initial is not _NoValue:
            kw['initial'] = initial
        if where is not True:
            kw['where'] = where
        return F.call(self.__name__ + '.reduce', self._np.reduce, (array,), kw)
    if dtype is not None or (out is not None and name in _methods._BITWISE):
        # (NumPy refuses a dtype= it has no loop for: logical_or.reduce(x,
        # dtype=float); and an out= of a dtype whose loop with the input's
        # is not bitwise: bitwise_and.reduce(ints, out=float64 array))
        _reduce_type_error(self, array, axis, dtype,
                           out if name in _methods._BITWISE else None, keepdims)
    if name in ('all', 'any', 'logical_xor') and initial is not _NoValue:
        # logical_and/or/xor from initial (cast to bool): the reduction, then
        # initial folded in
        r = reduce(self, array, axis, dtype, None, keepdims, _NoValue, where)
        r = self(r, initial)
        if out is None:
            return r
        return _methods.finish(C.asarray(r), out)
    try:
        return _methods.ufunc_reduce(self, name, array, axis, dtype, out, keepdims, initial,
                                     where)
    except TypeError:
        _reduce_type_error(self, array, axis, dtype, out, keepdims)
        raise


def _one_axis(axis, ndim, what):
    """accumulate's and reduceat's axis, normalized, with NumPy's errors in
    its order: each axis of a tuple checked (AxisError), an int 0 or -1 of a
    0-d array taken as no axis; then a 0-d array is a TypeError and other
    than one axis (None of a 2-d array, a tuple of two) a ValueError."""
    if axis is None:
        naxes, ax = ndim, 0
    elif type(axis) is tuple:
        axes = [_np.lib.array_utils.normalize_axis_index(operator.index(a), ndim) for a in axis]
        naxes, ax = len(axes), (axes[0] if axes else 0)
    else:
        ax = operator.index(axis)
        if ndim == 0 and ax in (0, -1):
            naxes = 0
        else:
            ax = _np.lib.array_utils.normalize_axis_index(ax, ndim)
            naxes = 1
    if ndim == 0:
        raise TypeError(f"cannot {what} on a scalar")
    if naxes != 1:
        raise ValueError(f"{what} does not allow multiple axes")
    return ax


def accumulate(self, array, axis=0, dtype=None, out=None):
    if _umath._FOREIGN((array, out), None):
        return _umath.run_foreign(self, 'accumulate', (array,), _override_kw(axis, dtype, out))
    if _subclass_operand((array,), out):
        return _umath._SUBCLASS_CALL(self, 'accumulate', (array,), _override_kw(axis, dtype, out))
    if out is None and _umath.needs_array_wrap((array,)):
        w = _umath.array_wrap_of((array,))
        r = accumulate(self, _umath.wrap_input(array), axis, dtype, None)
        return r if w is None else _umath.apply_array_wrap(w, r, None)
    if self.__name__ in ('add', 'multiply') and out is None:
        # (cumsum takes a 0-d array as 1-d and flattens for axis=None;
        # NumPy's accumulate does neither)
        axis = _one_axis(axis, _np.ndim(array), 'accumulate')
        f = _fromnumeric.cumsum if self.__name__ == 'add' else _fromnumeric.cumprod
        return f(array, axis=axis, dtype=dtype)
    r = _accumulate_native(self, array, axis, dtype, out)
    if r is not None:
        return r
    return F.call(self.__name__ + '.accumulate', self._np.accumulate, (array,),
                  {'axis': axis, 'dtype': dtype, 'out': out})


# the ufuncs whose accumulate is a core scan (ndt_scan_op, include/ndtile.h)
_ACCUMULATE_OPS = {'add': 0, 'multiply': 1, 'maximum': 4, 'minimum': 5, 'fmax': 6, 'fmin': 7,
                   'logical_and': 8, 'logical_or': 9, 'logical_xor': 10, 'bitwise_and': 11,
                   'bitwise_or': 12, 'bitwise_xor': 13, 'subtract': 14}


def _accumulate_native(self, array, axis, dtype, out):
    """accumulate as a core scan, or None where NumPy must run it (a dtype
    the core lacks, an out= that is not an ndtile array of the result's
    shape). The loop dtype is NumPy's: the result's (dtype= or the
    default) without out=; with out= and no dtype=, the loop NumPy's
    resolution picks for (out's dtype, the input's) where it is one dtype
    (maximum of int8 into uint8 out runs in int16), else the default; the
    result is cast into out unsafely, as NumPy's accumulate does. NumPy's
    own errors come from a run on one element."""
    op = _ACCUMULATE_OPS.get(self.__name__)
    if op is None or type(self) is not ufunc:
        return None
    if isinstance(out, tuple) and len(out) == 1:
        out = out[0]
    if out is not None and not isinstance(out, Array):
        return None
    x = C.asarray(array) if not isinstance(array, _np.ndarray) else array
    if not isinstance(x, Array):
        return None
    if out is not None and not out._flags & 0x400:
        raise ValueError("output array is read-only")     # (NumPy's first check)
    ax = _one_axis(axis, x.ndim, 'accumulate')
    if dtype is None and out is None:
        # the core's default loop is NumPy's (the input's dtype; bool for
        # the logical ops): no probe, whose run costs more than a small
        # scan; where the core has no loop, the probe raises NumPy's error
        try:
            return _core.scan(op, x, ax, D.DEFAULT)
        except TypeError:
            pass
    one = _np.zeros(1, x.dtype)
    pout = None if out is None else _np.zeros(1, out.dtype)
    if D.KIND[x._dt] == 'c':
        with warnings.catch_warnings():
            # (only its errors: the ComplexWarning comes from the run itself)
            warnings.simplefilter('ignore', _np.exceptions.ComplexWarning)
            probe = self._np.accumulate(one, dtype=dtype, out=pout)
    else:
        probe = self._np.accumulate(one, dtype=dtype, out=pout)
    if dtype is not None or out is None:
        lt = probe.dtype if dtype is None else _np.dtype(dtype)
    else:
        c = _methods.out_loop(self.__name__, x, D.DEFAULT, out)
        lt = D.DTYPES[c] if c != D.DEFAULT else self._np.accumulate(one).dtype
    dtc = D.code_of(lt)
    if dtc is None:
        return None
    if out is not None and tuple(out.shape) != tuple(x.shape):
        if x.ndim == 1 and dtc == x._dt == out._dt and (out.ndim == 0 or (out.size and x.size)):
            # NumPy's loop over one axis without casts (no iterator) checks
            # out itself (a 0-d out= crashes NumPy 2.4 there: ndtile raises
            # the same error)
            raise ValueError("provided out is the wrong size for the accumulation.")
        return None     # (NumPy's iterator: its broadcasting of out, and its errors)
    if D.KIND[x._dt] == 'c' and D.KIND[dtc] != 'c':
        _core.warn_complex_cast(x._dt, dtc)
    r = _core.scan(op, x, ax, dtc)
    if out is None:
        return r
    return _methods.finish(r, out)


def reduceat(self, array, indices, axis=0, dtype=None, out=None):
    """NumPy's reduceat: out[i] = reduce(array[indices[i]:indices[i+1]])
        along axis where indices[i] < indices[i+1], else array[indices[i]];
        the last runs to the end. Natively: ndt_reduceat (each line from
        its first element, the rest folded in by the reduction kernel, as
        NumPy's loop does). Where the core has no kernel for the dtype:
        segments of one length are
        gathered into one (..., count, length, ...) array and reduced along
        the length axis in NumPy's order (each line: its first element,
        then the reduction of the rest), one gather and one reduction per
        distinct length, then put in place by one more gather."""
    name = self.__name__ + '.reduceat'

    def numpy():
        return F.call(name, self._np.reduceat, (array, indices),
                      {'axis': axis, 'dtype': dtype, 'out': out})
    if self.nin != 2:
        raise ValueError("reduceat only supported for binary functions")
    x = C.asarray(array) if not isinstance(array, _np.ndarray) else array
    if isinstance(out, tuple) and len(out) == 1:
        out = out[0]
    _methods.check_out_writeable(out)     # (the ufunc's first check of out=)
    if out is not None:
        # computed, then written into out (NumPy's shape and cast checks)
        if not isinstance(out, Array):
            return numpy()
        if dtype is None and isinstance(x, Array):
            # NumPy's loop, where dtype= is not given, is the one for (out's
            # dtype, the input's): add of float64 into int64 out sums in
            # float64, add of int8 into int64 out in int64; no loop is its
            # error (from a run on one element)
            with warnings.catch_warnings():
                # (only its errors: finish warns of a complex result's cast)
                warnings.simplefilter('ignore', _np.exceptions.ComplexWarning)
                self._np.reduceat(_np.zeros(1, x.dtype), [0], out=_np.zeros(1, out.dtype))
            c = _methods.out_loop(self.__name__, x, D.DEFAULT, out)
            if c != D.DEFAULT:
                r = self.reduceat(array, indices, axis, D.DTYPES[c])
            else:
                # (logical_and's loops give bool: the input's own loop, cast)
                try:
                    r = self.reduceat(array, indices, axis, out.dtype)
                except TypeError:
                    r = self.reduceat(array, indices, axis)
        else:
            r = self.reduceat(array, indices, axis, dtype)
            if isinstance(r, Array):
                _methods.warn_out_read(out._dt, r._dt)
        if tuple(out.shape) != tuple(r.shape):
            raise ValueError(f"operands could not be broadcast together with remapped "
                             f"shapes [original->remapped]: out {tuple(out.shape)}, "
                             f"result {tuple(r.shape)}")
        return _methods.finish(r, out)
    if not isinstance(x, Array) or self._op is None or \
            _methods.UFUNC_REDUCTIONS.get(self.__name__) is None or type(self) is not ufunc:
        return numpy()
    ax = _one_axis(axis, x.ndim, 'reduceat')
    idx = indices if isinstance(indices, _np.ndarray) else _np.asarray(C.to_np_tree(indices))
    if idx.size == 0 and idx.ndim == 1 and not isinstance(indices, _np.ndarray):
        idx = idx.astype(_np.intp)      # [] is an empty index list
    n = x.shape[ax]
    if idx.ndim != 1 or idx.dtype.kind not in 'iu' or (idx.dtype.kind == 'u' and
                                                       idx.dtype.itemsize == 8):
        # NumPy's errors, or its conversion of odd index types, from a
        # run on a stand-in line of zeros
        self._np.reduceat(_np.zeros(n, x.dtype), C.to_np_tree(indices), dtype=dtype)
        idx = idx.astype(_np.intp)
    for v in idx.tolist():
        if not 0 <= v < n:
            raise IndexError(f"index {v} out-of-bounds in {name} [0, {n})")
    # the result dtype and NumPy's TypeErrors, from a one-element probe
    rdt = self._np.reduceat(_np.zeros(1, x.dtype), _np.zeros(1, _np.intp),
                            dtype=dtype).dtype
    rc = D.code(rdt)
    if rc is None:
        return numpy()
    m = len(idx)
    if m == 0:
        return _multiarray.empty(x.shape[:ax] + (0,) + x.shape[ax + 1:], rdt)
    starts = idx.astype(_np.int64)
    # the core's reduceat: every line folded in NumPy's order, one task
    # per block of the result
    xc = x if x._dt == rc else x._astype(rc, _core.CASTING_UNSAFE)
    try:
        return _core.reduceat(xc, ax, C.from_numpy(starts),
                              _methods._RED[_methods.UFUNC_REDUCTIONS[self.__name__]])
    except TypeError:
        pass        # no such kernel for this dtype: composed below
    ends = _np.empty_like(starts)
    ends[:-1] = starts[1:]
    ends[-1] = n
    lens = _np.where(ends > starts, ends - starts, 1)
    pieces = []
    order = []
    ulens = _np.unique(lens)
    if len(ulens) <= 8:
        classes = [_np.flatnonzero(lens == L) for L in ulens.tolist()]
    else:
        # many lengths: segments in classes of lengths within a factor
        # of two, each padded with the op's identity to its longest (at
        # most twice the data, log2(n) classes; a class of one length is
        # reduced as it is, a padded float sum may differ from NumPy's
        # pairwise order in the last bits)
        cls = _np.frexp((lens - 1).astype(_np.float64))[1]
        classes = [_np.flatnonzero(cls == k) for k in _np.unique(cls).tolist()]
    pw = self.__name__ == 'add'
    for pos in classes:
        s0 = starts[pos]
        Ls = lens[pos]
        L = int(Ls.max())
        if L == 1:
            r = _take_rows(x, s0, ax)
            if r._dt != rc:
                r = r._astype(rc, _core.CASTING_UNSAFE)
        else:
            # NumPy's loop starts each line from the segment's first
            # element and folds the rest in along the line (pairwise for
            # float sums): the rest is gathered, its axis moved last and
            # made contiguous, reduced, and combined with the first
            # (sums; other reductions fold in order from the first)
            off = int(pw)
            if len(s0) == 1 and ax == x.ndim - 1:
                # one segment along the last axis: a slice, no gather
                b0 = int(s0[0]) + off
                rest = x[(slice(None),) * ax + (slice(b0, b0 + L - off),)]
                r = self.reduce(rest, axis=ax, dtype=rdt, keepdims=True)
            else:
                steps = _np.arange(off, L, dtype=_np.int64)
                gi = s0[:, None] + steps
                valid = None
                if int(Ls.min()) != L:
                    valid = steps < Ls[:, None]
                    gi = _np.where(valid, gi, s0[:, None])
                rest = _take_rows(x, gi, ax)
                if valid is not None:
                    mask = C.from_numpy(valid.reshape(valid.shape + (1,) * (x.ndim - ax - 1)))
                    rest = _multiarray.where(mask, rest, _reduceat_identity(self.__name__, x.dtype))
                if ax + 1 != rest.ndim - 1:
                    rest = _numeric.moveaxis(rest, ax + 1, -1)._copy()
                r = self.reduce(rest, axis=-1, dtype=rdt)
            if pw:
                first = _take_rows(x, s0, ax)
                r = self(first if first._dt == rc else first._astype(rc, _core.CASTING_UNSAFE), r)
            if r._dt != rc:
                r = r._astype(rc, _core.CASTING_UNSAFE)
        pieces.append(r)
        order.append(pos)
    if len(pieces) == 1:
        return pieces[0]
    r = _multiarray.concatenate(pieces, axis=ax)
    inv = _np.argsort(_np.concatenate(order), kind='stable')
    return _fromnumeric.take(r, C.from_numpy(inv.astype(_np.int64)), axis=ax)


def at(self, a, indices, b=None, /):
    """NumPy's unbuffered in-place ufunc.at: a[indices] = op(a[indices], b)
        with repeated indices applied one after the other, in C order of the
        indexing result. Natively: the index becomes flat positions (NumPy's
        indexing rules and IndexErrors), b is broadcast to the indexing
        result and cast to the loop's dtype (b counts as an array, as in
        NumPy: a Python float makes a float64 loop), and ndt_put_op updates
        each element in index order, converting through the loop dtype
        (unsafe casts back into a, as NumPy's at does)."""
    name = self.__name__ + '.at'
    if isinstance(a, _np.ndarray) and not isinstance(a, Array):
        rest = C.to_np_tree((indices,) if b is None else (indices, b))
        return self._np.at(a, *rest)
    if _umath._FOREIGN((a, indices, b), None):
        # an object with its own __array_ufunc__: its at (NumPy's protocol)
        return _umath.run_foreign(self, 'at', (a, indices) if b is None else (a, indices, b), {})
    if not isinstance(a, Array):
        raise TypeError("first operand must be array")
    if self.nout != 1:
        raise ValueError("Only single output ufuncs supported at this time")
    if self.nin == 2 and b is None:
        raise ValueError("second operand needed for ufunc")
    if self.nin == 1 and b is not None:
        raise ValueError("second operand provided when ufunc is unary")

    def numpy(why=None):
        F.notify(name if why is None else f"{name} ({why})")
        na = C.to_numpy(a)
        rest = C.to_np_tree((indices,) if b is None else (indices, b))
        self._np.at(na, *rest)
        a._assign(C.from_numpy(na), _core.CASTING_UNSAFE)
        return None
    if self._op is None or self._op < 0 or self.nin not in (1, 2) or \
            type(self) not in (ufunc, _gcd_lcm):
        return numpy()
    bv = None
    if b is not None:
        bv = C.asarray(b)
        if not isinstance(bv, Array):
            return numpy('dtype')
        if bv._is_weak():       # NumPy's at takes b as an array: strong
            bv = bv._astype(bv._dt, _core.CASTING_UNSAFE)
    try:
        loop, flags = _core.ufunc_resolve(self._op, [a._dt] + ([bv._dt] if bv is not None else []),
                                          [False] * self.nin)
    except TypeError:
        return numpy('dtype')      # NumPy's TypeError (or its own loop)
    if flags & _core.RESOLVE_HALF:
        return numpy('float16')    # NumPy's float16 loop (hypot of uint8), its rounding
    if self._op == POWER and D.KIND[loop[0]] in 'iu':
        return numpy()      # integer powers: NumPy's negative-exponent error
    if not a._flags & 0x400:
        raise ValueError("output array is read-only")
    if a.ndim == 0:
        key = indices if isinstance(indices, tuple) else (indices,)
        # a 0-d array takes (), ..., None and bool scalars (True: its one
        # element, False: none); any other index is NumPy's IndexError
        bools = [bool(k) for k in key if _bool_scalar(k)]
        n = sum(1 for k in key if k is not None and k is not Ellipsis and not _bool_scalar(k))
        if n:
            raise IndexError(f"too many indices for array: array is 0-dimensional, but {n} "
                             f"were indexed")
        if not all(bools):
            return None
        a._view_index(tuple(k for k in key if not _bool_scalar(k)))
        flat = _core.scalar(0, D.INT64, False)._reshape((1,))
        shape = ()
    else:
        key = indices
        if isinstance(key, list):
            # a list is one index array (an empty one an integer array)
            key = C.asarray(key, _np.int64) if len(key) == 0 else C.asarray(key)
        key, basic, _ = _indexing.normalize(key)
        if basic:
            key = key if isinstance(key, tuple) else (key,)
            if not any(k is Ellipsis for k in key):
                key += (Ellipsis,)      # (a view, never a scalar)
            v = a._view_index(key)      # basic: each element at most once
            return self._at_view(a, v, bv, loop)
        small = _small_flat_index(a, key)
        r = small if small is not None else _indexing._index_arrays(a, key)
        if small is not None:
            flat, shape = small
        elif r is None:
            try:
                a[key]      # NumPy's IndexError for an invalid index
            except IndexError as e:
                if 'integer (or boolean) type' not in str(e):
                    raise
                raise IndexError(      # what NumPy's at says for these
                    "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis "
                    "(`None`) and integer or boolean arrays are valid indices") from None
            return numpy('index')
        else:
            arrays, shape = r
            flat = None
            stride = 1
            for i in range(a.ndim - 1, -1, -1):
                term = arrays[i] if stride == 1 else UFUNCS['multiply']._arrays(arrays[i], stride)
                flat = term if flat is None else UFUNCS['add']._arrays(flat, term)
                stride *= a.shape[i]
            flat = flat._copy()._reshape((-1,))
    vals = None
    if bv is not None:
        _at_broadcastable(bv, shape)
    if flat.size == 0:
        return None
    with _umath.fp_named(_at_name(self, a, bv, loop, True)):
        if bv is not None:
            if bv._dt != loop[1]:
                bv = bv._astype(loop[1], _core.CASTING_UNSAFE)
            vals = bv._broadcast_to(shape)._copy()._reshape((-1,))
        _core.put_op(a, flat, vals, self._op, tuple(loop))
    return None


# NumPy's indexed loops for ufunc.at (the kinds of dtype each has): they
# report errors under the ufunc's name; every other at reports "at"
_AT_INDEXED = {'add': 'iufc', 'subtract': 'iufc', 'multiply': 'iufc', 'divide': 'f',
               'floor_divide': 'iuf', 'maximum': 'iuf', 'minimum': 'iuf', 'fmax': 'iuf',
               'fmin': 'iuf'}


def _at_name(self, a, bv, loop, one):
    """"at", the name NumPy's at reports its errors (its loop's and its
    casts') under, unless its indexed loop runs (None: the ufunc's name): a
    1-d, one index array or integer (one), b of at most one dimension, a and
    b of the loop's own dtype, for the ufuncs and kinds that have one."""
    kinds = _AT_INDEXED.get(self.__name__)
    indexed = kinds and one and a.ndim == 1 and bv is not None and bv.ndim <= 1 and \
        a._dt == loop[0] == loop[1] == bv._dt and D.KIND[a._dt] in kinds
    return None if indexed else 'at'


def _at_view(self, a, v, bv, loop):
    """at over a basic index: every element once, so one in-place pass
        through the loop dtype (NumPy's unsafe cast back into a)."""
    if bv is not None:
        _at_broadcastable(bv, tuple(v.shape))
    if v.size == 0:
        return None
    with _umath.fp_named(_at_name(self, a, bv, loop, v.ndim == 0)):   # (an integer: one)
        x = v if v._dt == loop[0] else v._astype(loop[0], _core.CASTING_UNSAFE)
        ops = [x] if bv is None else \
            [x, bv if bv._dt == loop[1] else bv._astype(loop[1], _core.CASTING_UNSAFE)]
        r = _core.apply(self._op, ops)
        if v.ndim == 0:
            # NumPy's ufunc.at warns for a broadcast_arrays result (its
            # WARN_ON_WRITE) over slices, not for one element by integers
            v._set_warn_on_write(False)
        v._assign(r, _core.CASTING_UNSAFE)
    return None


def _gcd_reduce(self, array, axis=0, dtype=None, out=None, keepdims=False, initial=_NoValue,
           where=True):
    x = C.asarray(array)
    dtc = D.DEFAULT if dtype is None else D.code_of(dtype)
    if self.__name__ != 'gcd' or not isinstance(x, Array) or where is not True or \
            dtc is None or \
            x.ndim == 0 or (out is not None and not (
                isinstance(out, Array) and out._dt == (x._dt if dtc == D.DEFAULT else dtc))):
        # (an out= of another dtype: NumPy's loop for it, and its errors)
        return ufunc.reduce(self, array, axis, dtype, out, keepdims, initial, where)
    try:
        if dtc != D.DEFAULT and dtc != x._dt:
            _core.result_type(self._op, [x, x], dtc)
            x = x._astype(dtc, _core.CASTING_UNSAFE)
        _core.result_type(self._op, [x, x])      # NumPy's TypeError for bool/floats
    except TypeError:
        _reduce_type_error(self, x, axis, dtype, out, keepdims)
        raise
    nd = x.ndim
    mask = _methods.axes_mask(axis, nd)
    axes = [k for k in range(nd) if mask is None or mask >> k & 1]
    r = x
    for k in reversed(axes):
        r = self._tree(r, k)
    if r is x:
        r = _core.apply(_CORE_INDEX['positive'], [x])    # a copy, never a view
    if initial is not _NoValue:
        r = self(r, initial, out=r)
    if not keepdims:
        r = r._reshape(tuple(n for k, n in enumerate(r.shape) if k not in axes))
    if out is not None and tuple(out.shape) != tuple(r.shape):
        return ufunc.reduce(self, array, axis, dtype, out, keepdims, initial, where)
    return _methods.finish(r, out)


def _gcd_tree(self, r, k):
    n = r.shape[k]
    pre = (slice(None),) * k

    def part(a, b):
        return r[pre + (slice(a, b),)]

    if n == 0:      # gcd's identity, 0
        return _multiarray.zeros(r.shape[:k] + (1,) + r.shape[k + 1:], r.dtype)
    while n > 1:
        h = n // 2
        m = self(part(0, h), part(n - h, n))
        if n & 1:
            m = _multiarray.concatenate([m, part(h, h + 1)], axis=k)
        r, n = m, h + (n & 1)
    return r


def _vecdot_call(self, *args, out=None, axis=_NoValue, **kwargs):
    args, out = _split_out(args, 2, out)
    if len(args) != 2 or kwargs or not (out is None or isinstance(out, Array)):
        kw = dict(kwargs)
        if axis is not _NoValue:      # (NumPy: axis= and axes= not both)
            kw['axis'] = axis
        if out is not None:
            kw['out'] = out
        return self._numpy(args, kw)
    if _subclass_operand(args, out):
        # subclass operands: NumPy's override and wrapping protocol
        kw = {} if axis is _NoValue else {'axis': axis}
        if out is not None:
            kw['out'] = out
        return _umath._SUBCLASS_CALL(self, '__call__', args, kw)
    if any(isinstance(x, _np.ndarray) and not isinstance(x, Array) and x.dtype == object
           for x in args):
        # object arrays: NumPy's loop (it conjugates each element by its method)
        kw = {} if axis is _NoValue else {'axis': axis}
        if out is not None:
            kw['out'] = out
        return self._numpy(args, kw, why='dtype')
    return _function_base.vecdot(args[0], args[1], out=out, axis=-1 if axis is _NoValue else axis)


_METHODS = (
    (ufunc, 'reduce', reduce),
    (ufunc, 'accumulate', accumulate),
    (ufunc, 'reduceat', reduceat),
    (ufunc, 'at', at),
    (ufunc, '_at_view', _at_view),
    (_gcd_lcm, 'reduce', _gcd_reduce),
    (_gcd_lcm, '_tree', _gcd_tree),
    (_vecdot, '__call__', _vecdot_call),
)
for _cls, _name, _f in _METHODS:
    _f.__name__ = _name
    _f.__qualname__ = _cls.__name__ + '.' + _name
    setattr(_cls, _name, _f)
