"""The reduction machinery under NumPy's reductions (NumPy's _core._methods):
axes as the core's bit mask, out= checks, one reduction task per call
(reduce_nd), scans (cumsum/cumprod), ufunc.reduce's entry (ufunc_reduce) and
max/min, which the index clipping of take needs."""

import builtins
import math
import operator

import numpy as _np

from . import _convert as C
from . import _core
from . import _dtypes as D
from . import _fallback as F
from . import _multiarray
from . import _reduce_where
from ._multiarray import _shape_text
from . import _umath
from ._umath import _fallback_kw

Array = _core.Array
_NoValue = _np._NoValue
_RED = {n: i for i, n in enumerate(_core.REDUCE_NAMES)}

UFUNC_REDUCTIONS = {'add': 'sum', 'multiply': 'prod', 'minimum': 'min', 'maximum': 'max',
                    'logical_and': 'all', 'logical_or': 'any', 'fmin': 'nanmin',
                    'fmax': 'nanmax'}
# the core's reductions named after their ufuncs (no NumPy function is
# theirs): exact and associative, so the tiled fold gives NumPy's bits
_BITWISE = ('bitwise_and', 'bitwise_or', 'bitwise_xor', 'logical_xor')
UFUNC_REDUCTIONS.update((n, n) for n in _BITWISE)


# value used for masked-out elements (where=) by reductions with an identity
# (the bitwise ops' are made in the loop's dtype: reduce_nd)
_WHERE_FILL = {'sum': 0, 'nansum': 0, 'prod': 1, 'nanprod': 1, 'any': False, 'all': True,
               'logical_xor': False}
_NEEDS_INITIAL = ('min', 'max', 'nanmin', 'nanmax')
_SEEDED = frozenset(('sum', 'nansum', 'prod', 'nanprod'))


# reductions that are not ufunc reductions in NumPy (axis 0 of a 0-d array is
# an AxisError for them)
_NOT_UFUNC = frozenset(('mean', 'var', 'std'))


def axes_mask(axis, ndim, zero_d=False):
    """NumPy's axis argument (None, int or tuple, negatives allowed) as a
    bit mask of reduced axes; None means all. NumPy's C axis parser takes
    no bools and no lists. zero_d: the reduction is a ufunc reduction, which
    takes axis 0 or -1 of a 0-d array (a single int, not a tuple) as all."""
    if axis is None:
        return None
    if isinstance(axis, tuple):
        axes = axis
    elif isinstance(axis, list):
        raise TypeError("'list' object cannot be interpreted as an integer")
    else:
        axes = (axis,)
        if zero_d and ndim == 0 and type(axis) is not bool and \
                operator.index(axis) in (0, -1):
            return None
    mask = 0
    for ax in axes:
        # a bool axis: ufuncs refuse it at once; mean/var/std check the
        # bounds (as the int it is) first
        isbool = isinstance(ax, (bool, _np.bool_))
        if isbool and zero_d:
            raise TypeError("an integer is required")
        if not zero_d and not isinstance(ax, (int, _np.integer)):
            # mean/var/std count items by normalize_axis_index: its errors
            _np.lib.array_utils.normalize_axis_index(ax, builtins.max(ndim, 1))
        ax = operator.index(ax)
        if ax < -ndim or ax >= ndim:
            raise _np.exceptions.AxisError(ax, ndim)
        if isbool:
            raise TypeError("an integer is required")
        if ax < 0:
            ax += ndim
        if mask >> ax & 1:
            raise ValueError("duplicate value in 'axis'")
        mask |= 1 << ax
    return mask


def _mask_count(mask, ndim):
    return ndim if mask is None else bin(mask).count('1')


def _reduced_size(x, mask):
    n = 1
    for k, s in enumerate(x.shape):
        if mask is None or mask >> k & 1:
            n *= s
    return n


def finish(res, out):
    """The value to return: out, a NumPy scalar for 0-d, or the array."""
    if out is not None:
        if isinstance(out, Array):
            if isinstance(res, Array) and D.KIND[res._dt] == 'c':
                # a complex result cast into a real out: NumPy's ComplexWarning
                _core.warn_complex_cast(res._dt, out._dt)
            out._assign(res, _core.CASTING_UNSAFE)
        else:
            _np.copyto(out, C.to_numpy(res), casting='unsafe')
        return out
    if res.ndim == 0:
        return res._scalar()
    return res


# the ufunc whose reduce NumPy runs (its name is in NumPy's out= errors)
_OUT_OP = {'sum': 'add', 'nansum': 'add', 'mean': 'add', 'var': 'add', 'std': 'add',
           'nanmean': 'add', 'nanvar': 'add', 'nanstd': 'add', 'prod': 'multiply',
           'nanprod': 'multiply', 'max': 'maximum', 'min': 'minimum', 'ptp': 'maximum',
           'nanmax': 'fmax', 'nanmin': 'fmin', 'any': 'logical_or', 'all': 'logical_and'}
_OUT_OP.update((n, n) for n in _BITWISE)


# NumPy's words for a read-only out=, which are those of the machinery that
# writes it: a ufunc's (reductions, scans, gufuncs, choose, percentile), a
# WRITEBACKIFCOPY copy of out (take, compress, argmax, argmin), einsum's
# iterator. (A copy or assignment into an array, a[...] = v, says
# "assignment destination is read-only".)
RO_UFUNC = "output array is read-only"
RO_WRITEBACK = "WRITEBACKIFCOPY base is read-only"
RO_ITER = "operand array with iterator write flag set is read-only"


def check_out_writeable(out, words=RO_UFUNC):
    """NumPy's ValueError for a read-only out=, before any work, in the words
    of the NumPy machinery that writes it (flags.num: no FutureWarning for
    a broadcast_arrays result)."""
    if isinstance(out, (Array, _np.ndarray)) and not out.flags.num & 0x400:
        raise ValueError(words)


def check_scan_out(shape, out):
    """NumPy's errors for a cumulative sum's or product's out= (not an
    array, read-only, not of the result's shape), before any work. (Where
    NumPy's accumulation needs its iterator, a cast or several dimensions,
    NumPy words a wrong shape as the iterator does; the ValueError is the
    same.)"""
    if out is None:
        return
    if not isinstance(out, (Array, _np.ndarray)):
        raise TypeError("output must be an array")
    check_out_writeable(out)
    if tuple(out.shape) != (tuple(shape) or (1,)):
        raise ValueError("provided out is the wrong size for the accumulation.")


def check_out(name, xs, axis, keepdims, out):
    """NumPy's errors for a reduction's out= of the wrong type or shape (the
    reduction iterator's, in its order), before any work is done; xs is
    the operand's shape."""
    if out is None:
        return
    if not isinstance(out, (Array, _np.ndarray)):
        raise TypeError("return arrays must be of ArrayType")
    check_out_writeable(out)      # NumPy's first check of out
    xs = tuple(xs)
    nd = len(xs)
    mask = axes_mask(axis, nd, name not in _NOT_UFUNC)
    red = [mask is None or bool(mask >> k & 1) for k in range(nd)]
    want = nd if keepdims else nd - builtins.sum(red)
    if out.ndim != want:
        raise ValueError(f"output parameter for reduction operation {_OUT_OP[name]} has the "
                         f"wrong number of dimensions: Found {out.ndim} but expected {want}"
                         + (" (must match the operand's when keepdims=True)" if keepdims
                            else ""))
    if keepdims:
        mapped = list(out.shape)
    else:
        it = iter(out.shape)
        mapped = [-1 if red[k] else next(it) for k in range(nd)]
    if builtins.any(o >= 0 and o != i and o != 1 and i != 1 for o, i in zip(mapped, xs)):
        raise ValueError(f"operands could not be broadcast together with remapped shapes "
                         f"[original->remapped]: {_shape_text(out.shape)}->"
                         f"{_shape_text(mapped)} {_shape_text(xs)} ")
    # the iterator walks the axes last to first; an error names out's axis
    outax = list(range(nd)) if keepdims else \
        [builtins.sum(1 for j in range(k) if not red[j]) for k in range(nd)]
    for k in range(nd - 1, -1, -1):
        o, i = mapped[k], xs[k]
        if o < 0:
            continue
        if o > 1 and i == 1:
            full = tuple(m if (m > 1 and n == 1) else n for m, n in zip(mapped, xs))
            raise ValueError(f"non-broadcastable operand with shape {_shape_text(xs)} doesn't "
                             f"match the broadcast shape {_shape_text(full)}")
        if red[k] and o > 1:
            raise ValueError(f"operand was set up as a reduction along axis {k}, but the "
                             f"length of the axis is {o} (it has to be 1)")
        if not red[k] and o == 1 and i != 1:
            raise ValueError(f"output operand requires a reduction along dimension {outax[k]}, "
                             f"but the reduction is not enabled. The dimension size of 1 does "
                             f"not match the expected output shape.")


def check_out_cast(name, x, out):
    """std and ptp end in a ufunc that writes out= under 'same_kind'
    (sqrt(var, out=out), subtract(max, min, out)): NumPy's casting error,
    raised by NumPy on empty stand-ins before any work (a refused call
    leaves no deferred work whose errors would surface later)."""
    if out is None or not isinstance(out, (Array, _np.ndarray)):
        return
    o = _np.empty(0, out.dtype)
    if name in ('std', 'nanstd'):
        _np.sqrt(o, out=o)
    elif name == 'ptp':
        _np.subtract(o, _np.empty(0, x.dtype), out=o)


def _prepare(a, dtype):
    """(ndtile array, dtype code) or None when NumPy must do it."""
    x = C.asarray(a)
    if not isinstance(x, Array):
        return None
    dtc = D.DEFAULT
    if dtype is not None:
        dtc = D.code_of(dtype)
        if dtc is None:
            return None
        if D.KIND[x._dt] == 'c':
            # NumPy's reduction loop runs in dtype: its cast of complex
            # inputs to a real dtype warns (even of no elements)
            _core.warn_complex_cast(x._dt, dtc)
    return x, dtc


# the ufunc whose loop each reduction and scan runs (NumPy's: sum is
# add.reduce, max maximum.reduce, nanmax fmax.reduce, cumsum add.accumulate)
_LOOP_UFUNC = dict(_OUT_OP, cumsum='add', cumprod='multiply', nancumsum='add',
                   nancumprod='multiply')


# the reductions whose result initial= is folded into after the reduction,
# by their loop's ufunc (any/all take it through their ufunc: _umath_methods)
_FOLDS_INITIAL = frozenset(('sum', 'nansum', 'prod', 'nanprod', 'min', 'max', 'nanmin',
                            'nanmax') + _BITWISE[:3])


def out_loop(ufunc_name, x, dtc, out):
    """The loop dtype code of a reduction or scan of x (ufunc_name's) into
    out: without dtype=, NumPy's reduction loop is the ufunc's for (out's
    dtype, x's) where that is one dtype (the core's resolution, which is
    NumPy's for these): sum of uint8 into a bool out adds in uint8 (128 +
    128 is 0: False), into int16 in int16, of uint64 into float32 in
    float64; max of uint8 into int8 compares in int16. dtc otherwise
    (dtype= given, no out=, out of x's dtype, or no such loop: the logical
    ops' are bool), whose results cast into out are the default's. Warns
    NumPy's ComplexWarning for a complex out= and a real loop."""
    oc = out_code(out)
    if oc is None:
        return dtc
    c = dtc
    if dtc == D.DEFAULT and oc != x._dt:
        try:
            loop, _ = _core.ufunc_resolve(_umath.UFUNCS[ufunc_name]._op, [oc, x._dt], [0, 0])
            if loop[0] == loop[1] == loop[2]:
                c = loop[0]
        except TypeError:
            pass        # (NumPy's error, if any, comes from the checks)
    warn_out_read(oc, c if c != D.DEFAULT else
                  D.BOOL if ufunc_name.startswith('logical') else x._dt)
    return c


def warn_out_read(oc, lc):
    """NumPy's ComplexWarning where a reduction's or scan's out= is complex
    (dtype code oc) and its loop real (code lc; not bool): NumPy's iterator
    reads out into the loop's dtype (the accumulator starts there), even
    for an empty input."""
    if oc is not None and D.KIND[oc] == 'c':
        _core.warn_complex_cast(oc, lc)


def out_code(out):
    """out='s dtype code (None: no out=, or one the core lacks)."""
    if isinstance(out, Array):
        return out._dt
    return D.code(out.dtype) if isinstance(out, _np.ndarray) else None


def reduce_nd(name, x, axis, dtc, keepdims, initial=_NoValue, where=True, ddof=0, through=None):
    """The reduction as an ndtile array (0-d for a full reduction). through:
    the dtype code of out= (None: none), where NumPy's accumulator lives:
    where it is not the loop's dtype, the value the fold starts from
    (initial=, or the first element of a reduction without identity) passes
    through it (_start_as, _first_through)."""
    mask = axes_mask(axis, x.ndim, name not in _NOT_UFUNC)
    if initial is None:
        initial = _NoValue           # NumPy: initial=None is no initial
    if where is not True:
        # NumPy checks where='s shape first, then initial= and the identity
        w = _umath.operand(where)
        if not isinstance(w, Array):
            w = _core.scalar(bool(w), D.BOOL, False)
        # where= broadcasts to the input, never the input to where=
        if w.ndim > x.ndim:
            raise ValueError("input operand has more dimensions than allowed by the axis "
                             "remapping")
        try:
            full = _np.broadcast_shapes(tuple(w.shape), tuple(x.shape))
        except ValueError:
            raise ValueError(f"operands could not be broadcast together with remapped shapes "
                             f"[original->remapped]: {_shape_text(x.shape)} "
                             f"{_shape_text(w.shape)} ") from None
        if full != tuple(x.shape):
            raise ValueError(f"non-broadcastable operand with shape {_shape_text(x.shape)} "
                             f"doesn't match the broadcast shape {_shape_text(full)}")
        if name in _NEEDS_INITIAL and initial is _NoValue:
            raise ValueError(f"reduction operation '{_np_name(name)}' does not have an "
                             f"identity, so to use a where mask one has to specify "
                             f"'initial'")
    if name in _NEEDS_INITIAL:
        # no identity: NumPy's loop compares in its dtype, the input cast
        # to it first (the core's kernels take the input's)
        lc = x._dt if dtc == D.DEFAULT else dtc
        if initial is _NoValue and where is True and through not in (None, lc) and \
                _reduced_size(x, mask):
            return _first_through(name, x, mask, keepdims, lc, through)
        if initial is not _NoValue:
            if through not in (None, lc) and _reduced_size(x, mask) == 0:
                # the start as out holds it: no round trip through the loop's dtype
                return _core.full(_kept_shape(x.shape, mask, keepdims), through,
                                  _cast_value(_initial_as(initial, lc), lc, through))
            initial = _start_as(initial, lc, through)
        if lc != x._dt:
            x = x._astype(lc, _core.CASTING_UNSAFE)
        dtc = D.DEFAULT
    if where is not True:
        fill = _WHERE_FILL.get(name)
        if name in _BITWISE[:3]:
            # the identity in the loop's dtype (bitwise_and's all bits set:
            # uint8's 255 cast to int16 would clear the high bits; a Python
            # 0 would make a bool input int)
            if dtc != D.DEFAULT and dtc != x._dt:
                with _umath.fp_named('reduce'):      # (NumPy casts inside its reduce)
                    x = x._astype(dtc, _core.CASTING_UNSAFE)
            fill = _np.asarray(-1 if name == 'bitwise_and' else 0).astype(D.DTYPES[x._dt])
        elif fill is None:
            fill = initial
        fv = fill if isinstance(fill, (bool, int, float, complex)) else _umath.operand(fill)
        x = _core.apply(_umath.WHERE, [w, x, fv if not isinstance(fv, Array) else fv._astype(x._dt, _core.CASTING_UNSAFE)])
    if initial is not _NoValue and name in _NEEDS_INITIAL and _reduced_size(x, mask) == 0:
        return _core.full(_kept_shape(x.shape, mask, keepdims), x._dt,
                          _initial_as(initial, x._dt))
    if initial is not _NoValue and _seeds_in_core(name, x, dtc, where, through):
        # NumPy's accumulator starts from initial=: so does the core's fold
        seed = _initial_array(initial, _acc_code(x, dtc)).tobytes()
        return _core.reduce(_RED[name], x, mask, bool(keepdims), dtc, 0, seed)
    r = _core.reduce(_RED[name], x, mask, bool(keepdims), dtc, int(ddof))
    if name == 'bitwise_and' and initial is _NoValue and through not in (None, r._dt):
        # NumPy's fold starts from the identity as out holds it: all bits
        # set in a narrower out= (or True in a bool one) are fewer
        initial = _np.asarray(-1).astype(D.DTYPES[r._dt]).item()
    if initial is not _NoValue:
        op = _LOOP_UFUNC[name] if name in _FOLDS_INITIAL else None
        if op is not None:
            if name not in _NEEDS_INITIAL:
                initial = _start_as(initial, r._dt, through)
            # initial first: NumPy's fold starts from it (maximum(x, y)
            # gives y on ties, so the signed zero NumPy keeps is r's)
            r = _umath.UFUNCS[op]._arrays(initial, r)
    return r


def _kept_shape(shape, mask, keepdims):
    """A reduction's result shape: the reduced axes (mask, None: all) as
    1s, or dropped."""
    red = [mask is None or bool(mask >> k & 1) for k in range(len(shape))]
    if keepdims:
        return tuple(1 if r else s for r, s in zip(red, shape))
    return tuple(s for r, s in zip(red, shape) if not r)


def _initial_as(v, c):
    """initial= in the reduction's dtype (code c), as NumPy converts it:
    a Python int out of range an OverflowError, 1.5 -> 1 for ints, a Python
    complex into reals a TypeError; a Python scalar of that value."""
    return _initial_array(v, c).item()


def _initial_array(v, c):
    """_initial_as's value as a 0-d NumPy array of dtype code c."""
    t = _np.empty((), dtype=D.DTYPES[c])
    # NumPy's conversion: initial=[2, 3] a TypeError for ints, a NumPy
    # scalar cast as it is (np.complex128(2-1j) into ints: 2, a ComplexWarning)
    t[()] = v if isinstance(v, _np.generic) else _py(v)
    return t


def _acc_code(x, dtc):
    """The dtype code a sum or product of x accumulates in (dtype= code
    dtc, or the default: int64 for bools and signed ints, uint64 for
    unsigned ones, else x's)."""
    if dtc != D.DEFAULT:
        return dtc
    k = D.KIND[x._dt]
    return D.INT64 if k in 'bi' else D.UINT64 if k == 'u' else x._dt


def _seeds_in_core(name, x, dtc, where, through):
    """True where the core's fold takes initial= as its start (a sum or
    product without where=, into no out= or one of the accumulator's
    dtype): NumPy's bits, float ones included (initial + pw(x), not
    pw(x) + initial)."""
    return name in _SEEDED and where is True and through in (None, _acc_code(x, dtc))


def _start_as(v, c, through):
    """The value a reduction's fold starts from, initial= v: in the loop's
    dtype (code c), then, where out= is of another dtype (code through),
    cast into out and back, as NumPy's accumulator starts in out: max of
    int64 [5] into an int8 out from initial=200 starts at -56 (its max is
    5, not int8(200))."""
    v = _initial_as(v, c)
    if through is None or through == c:
        return v
    return _cast_value(_cast_value(v, c, through), through, c)


def _cast_value(v, frm, to):
    """The Python value v of dtype code frm cast (unsafe) to code to's."""
    return _np.asarray(v, D.DTYPES[frm]).astype(D.DTYPES[to]).item()


def _first_through(name, x, mask, keepdims, c, through):
    """A reduction without identity (max, min, fmax, fmin) into an out= of
    another dtype than its loop's (code c), as NumPy's loop runs it: the
    accumulator starts as the first element along the reduced axes copied
    into out (cast from x's dtype into out's, code through), and the other
    elements fold in, in the loop's dtype: op(c(out(x0)), op(the rest)).
    The rest is one view per reduced axis (that axis from 1, the ones
    before it at 0), each reduced with keepdims. (max of uint8 [250, 3]
    into int8 starts at -6 and is 3.)"""
    nd = x.ndim
    red = [k for k in range(nd) if mask is None or mask >> k & 1]
    r = x._view_index(tuple(slice(0, 1) if k in red else slice(None) for k in range(nd)))
    _core.warn_complex_cast(x._dt, through)
    r = r._astype(through, _core.CASTING_UNSAFE)._astype(c, _core.CASTING_UNSAFE)
    op = _umath.UFUNCS[_np_name(name)]
    # (all of x cast to the loop's dtype, as NumPy's buffers cast it: the
    # first elements' cast errors too)
    xc = x if x._dt == c else x._astype(c, _core.CASTING_UNSAFE)
    for j, k in enumerate(red):
        v = xc._view_index(tuple(slice(0, 1) if kk in red[:j] else slice(1, None) if kk == k
                                 else slice(None) for kk in range(nd)))
        if v.size:
            r = op._arrays(r, _core.reduce(_RED[name], v, mask, True, D.DEFAULT, 0))
    if not keepdims:
        r = r._reshape(_kept_shape(r.shape, mask, False))
    return r


def _py(v):
    if isinstance(v, Array):
        return C.to_numpy(v)
    return v.item() if isinstance(v, _np.generic) else v


def _np_name(name):
    return {'min': 'minimum', 'max': 'maximum', 'nanmin': 'fmin', 'nanmax': 'fmax'}.get(name, name)


_FAST = frozenset(('sum', 'prod', 'min', 'max', 'any', 'all', 'mean', 'var', 'std'))


def _fast_mask(axis, nd, name):
    if axis is None:
        return None
    if type(axis) is int and -nd <= axis < nd:
        return 1 << (axis + nd if axis < 0 else axis)
    return axes_mask(axis, nd, name not in _NOT_UFUNC)


def _seeded_inexact(name, x, dtc, initial, where, through):
    """True for a float or complex sum or product that NumPy folds from an
    initial value (initial=, or the identity under where=) that the core's
    seeded fold (_seeds_in_core) does not take: under where= (NumPy adds
    each run of unmasked elements, pairwise, to the running value), or into
    an out= of another dtype (NumPy's accumulator lives in out). Neither
    combining the value after the reduction nor filling masked elements with
    the identity gives NumPy's bits (prod(initial=0) of values that overflow
    is NaN, not 0; sum(initial=-0.0) keeps the sign). NumPy computes these
    (a copy to the host). Under where= the layouts _reduce_where takes (a
    C-contiguous input and mask of one shape) do not come here."""
    if initial is _NoValue or initial is None:
        # under where= alone a product folds from 1 (exact), a sum from 0
        # then pairwise over each run
        if where is True or name not in ('sum', 'nansum'):
            return False
    elif name not in _SEEDED or _seeds_in_core(name, x, dtc, where, through):
        return False
    t = x._dt if dtc == D.DEFAULT else dtc
    return D.KIND[t] in 'fc'


def _sum_where(name, x, axis, dtc, keepdims, initial, where, out):
    """A float or complex sum under where= in NumPy's order (_reduce_where),
    or None where that path does not give NumPy's bits."""
    mask = axes_mask(axis, x.ndim, True)
    return _reduce_where.sum_where(name, x, mask, dtc, bool(keepdims), initial, where,
                                   out_code(out), _initial_array)


def _generic(name, a, axis, dtype, out, keepdims, initial=_NoValue, where=True):
    # the fast path takes a plain array only; a subclass's method is checked
    # for after it, off the plain path
    if out is None and dtype is None and initial is _NoValue and where is True and \
            type(a) is C.ND and name in _FAST:
        r = _core.reduce(_RED[name], a, _fast_mask(axis, a.ndim, name), bool(keepdims), -1, 0)
        return r._scalar() if r.ndim == 0 else r
    if type(a) is not C.ND and isinstance(a, Array):     # NumPy calls a subclass's method
        if name in ('nansum', 'nanprod'):
            # (no such method: NumPy sums the instance, NaNs replaced, into
            # a result of its class)
            r = _generic(name, a._view(), axis, dtype, out, keepdims, initial, where)
            return C.subclass_like(C.asarray(r), a) if out is None else r
        # NumPy's _wrapreduction: axis and out, dtype unless None, and the
        # keywords whose default its signature leaves unset only when given
        kw = dict(axis=axis, out=out)
        if dtype is not None and name not in ('any', 'all'):
            kw['dtype'] = dtype
        if keepdims is not False:
            kw['keepdims'] = keepdims
        if where is not True:
            kw['where'] = where
        if initial is not _NoValue and name not in ('any', 'all'):
            kw['initial'] = initial
        return C.subclass_method(name, (a,), kw)
    p = _prepare(a, dtype)
    if p is None:
        return F.call(f"{name} (dtype)", getattr(_np, name), (a,),
                      _fallback_kw(axis, dtype, out, keepdims, initial, where))
    x, dtc = p
    check_out(name, x.shape, axis, keepdims, out)
    dtc = out_loop(_LOOP_UFUNC[name], x, dtc, out)
    if name in ('nansum', 'nanprod') and dtc != D.DEFAULT and D.KIND[x._dt] in 'fc' and \
            D.KIND[dtc] not in ('fc' if D.KIND[x._dt] == 'f' else 'c'):
        # NumPy replaces the NaNs before the sum casts them to dtype=int
        # (or complex ones to a real dtype=: inf+nanj is a NaN, not inf)
        x = _multiarray.where(_umath.UFUNCS['isnan']._arrays(x), 0 if name == 'nansum' else 1, x)
        name = name[3:]
    if where is not True and name in ('sum', 'nansum'):
        r = _sum_where(name, x, axis, dtc, keepdims, initial, where, out)
        if r is not None:
            return finish(r, out)
    if _seeded_inexact(name, x, dtc, initial, where, out_code(out)):
        # (x: a nansum's NaNs replaced above)
        return F.call(f"{name} (initial)", getattr(_np, name), (x,),
                      _fallback_kw(axis, dtype, out, keepdims, initial, where))
    return finish(reduce_nd(name, x, axis, dtc, keepdims, initial, where, through=out_code(out)),
                  out)


def _minmax(name, a, axis, out, keepdims, initial, where):
    if out is None and initial is _NoValue and where is True and type(a) is C.ND and \
            name in _FAST:
        r = _core.reduce(_RED[name], a, _fast_mask(axis, a.ndim, name), bool(keepdims), -1, 0)
        return r._scalar() if r.ndim == 0 else r
    sub = type(a) is not C.ND and isinstance(a, Array)
    if sub and name not in ('nanmin', 'nanmax'):     # NumPy calls a subclass's method
        return C.subclass_method(name, (a,), dict(axis=axis, out=out, keepdims=keepdims,
                                                  initial=initial, where=where))
    p = _prepare(a if not sub else a._view(), None)
    if p is None:
        return F.call(f"{name} (dtype)", getattr(_np, name), (a,),
                      _fallback_kw(axis, None, out, keepdims, initial, where))
    x, _ = p
    check_out(name, x.shape, axis, keepdims, out)
    r = reduce_nd(name, x, axis, out_loop(_LOOP_UFUNC[name], x, D.DEFAULT, out), keepdims,
                  initial, where, through=out_code(out))
    if name in ('nanmin', 'nanmax') and D.KIND[r._dt] in 'fc' and \
            bool(reduce_nd('any', _umath.UFUNCS['isnan']._arrays(r), None, D.DEFAULT, False)):
        # NumPy's words: its array path says slice, its path for anything
        # else (a list, a scalar) axis
        what = 'slice' if type(a) in (C.ND, _np.ndarray) else 'axis'
        F.warn(f"All-NaN {what} encountered", RuntimeWarning)
    if sub and out is None:
        # a subclass has no nanmin method: NumPy reduces the instance (its
        # min/max), so the result is of its class
        return C.subclass_like(r, a)
    return finish(r, out)


def _no_elements_warning(name, x, axis, ddof):
    """NumPy's RuntimeWarning for a mean of no elements, or a var/std with
    no degrees of freedom (ddof >= the count), before the result's NaN."""
    try:
        n = x.size if axis is None else math.prod(
            x.shape[k] for k in _np.lib.array_utils.normalize_axis_tuple(axis, x.ndim))
        bad = n == 0 if name == 'mean' else ddof >= n
    except Exception:          # NumPy's errors for axis and ddof come later
        return
    if bad:
        F.warn("Mean of empty slice" if name == 'mean' else
               "Degrees of freedom <= 0 for slice", RuntimeWarning)


def _mean_where(p, axis, out, keepdims, where):
    """mean under where= as NumPy's _mean takes it: the masked sum (NumPy's
    order, _sum_where), divided by the count of True (intp) in the dtype
    the two promote to, cast back; None where the sum has no native path
    (a cast sum: integers, float16, dtype= or out= of another dtype)."""
    x, dtc = p
    if (dtc != D.DEFAULT and dtc != x._dt) or out_code(out) not in (None, x._dt):
        return None
    check_out('mean', x.shape, axis, keepdims, out)
    mask = axes_mask(axis, x.ndim, True)
    s = _reduce_where.sum_where('sum', x, mask, D.DEFAULT, bool(keepdims), _NoValue, where,
                                None, _initial_array)
    if s is None:
        return None
    cnt = _reduce_where.count_where(_reduce_where._mask_of(where, x), mask, keepdims)
    if bool(reduce_nd('any', _umath.UFUNCS['equal']._arrays(cnt, 0), None, D.DEFAULT, False)):
        F.warn("Mean of empty slice", RuntimeWarning)
    r = _umath.UFUNCS['true_divide']._arrays(s, cnt)
    if r._dt != x._dt:
        r = r._astype(x._dt, _core.CASTING_UNSAFE)
    return finish(r, out)


def _meanlike(name, a, axis, dtype, out, keepdims, where, ddof=0, extra=None):
    if out is None and dtype is None and where is True and not extra and type(a) is C.ND \
            and type(ddof) is int:
        if ddof or not a.size:
            _no_elements_warning(name, a, axis, ddof)
        r = _core.reduce(_RED[name], a, _fast_mask(axis, a.ndim, name), bool(keepdims), -1,
                         ddof)
        return r._scalar() if r.ndim == 0 else r
    if type(a) is not C.ND and isinstance(a, Array):     # NumPy calls a subclass's method
        kw = dict(axis=axis, dtype=dtype, out=out, keepdims=keepdims, where=where)
        if name != 'mean':
            kw.update(ddof=ddof, **(extra or {}))
        return C.subclass_method(name, (a,), kw)
    p = _prepare(a, dtype)
    if name == 'mean' and p is not None and where is not True and not extra:
        r = _mean_where(p, axis, out, keepdims, where)
        if r is not None:
            return r
    p = _prepare(a, dtype)
    if p is None or where is not True or extra:
        kw = _fallback_kw(axis, dtype, out, keepdims, where=where)
        if name != 'mean':
            kw['ddof'] = ddof
        if extra:
            kw.update(extra)
        why = f"{name} (dtype)" if p is None else f"{name} (where=/mean=)"
        return F.call(why, getattr(_np, name), (a,), kw)
    x, dtc = p
    check_out(name, x.shape, axis, keepdims, out)
    check_out_cast(name, x, out)
    if not isinstance(ddof, (int, float, _np.integer, _np.floating)):
        ddof >= _np.intp(0)      # NumPy's error for a ddof it cannot compare
    _no_elements_warning(name, x, axis, ddof)
    if out is not None and out_code(out) != _moment_code(name, x, dtc):
        # NumPy's last sum accumulates in out, the quotient taken there
        if isinstance(ddof, (float, _np.floating)):
            ddof = float(ddof)      # (NumPy's count is then a float)
        if dtc == D.DEFAULT and D.KIND[x._dt] in 'biu':
            dtc = D.FLOAT64      # (NumPy's dtype for the sums of integers)
        return _meanlike_steps(name, x, axis, dtc, keepdims, ddof, out)
    if isinstance(ddof, (float, _np.floating)) and ddof != int(ddof):
        # a fractional ddof: NumPy's steps (the core's kernels take an int);
        # NumPy sums integers in float64
        if dtc == D.DEFAULT and D.KIND[x._dt] in 'biu':
            dtc = D.FLOAT64
        return finish(_meanlike_steps(name, x, axis, dtc, keepdims, float(ddof)), out)
    if dtc != D.DEFAULT and (D.KIND[dtc] in 'biu' or (
            name != 'mean' and D.KIND[dtc] == 'c')):
        return finish(_meanlike_steps(name, x, axis, dtc, keepdims, ddof), out)
    return finish(reduce_nd(name, x, axis, dtc, keepdims, ddof=ddof), out)


def _moment_code(name, x, dtc):
    """The dtype code of mean's, var's or std's result without out=: dtype=,
    else float64 for integers and bools, x's for mean of floats, the real
    one of x's for var and std."""
    c = dtc if dtc != D.DEFAULT else D.FLOAT64 if D.KIND[x._dt] in 'biu' else x._dt
    if name == 'mean' or dtc != D.DEFAULT or D.KIND[c] != 'c':
        return c
    return D.code(D.SCALARS[c](0).real.dtype)


def _meanlike_steps(name, x, axis, dtc, keepdims, ddof, out=None):
    """mean/var/std in NumPy's own steps (numpy/_core/_methods.py), for the
    dtype= arguments where those steps give what the core's fused kernels do
    not: integer and bool dtypes (the sums and the quotients cast back to
    that dtype: mean(ints, dtype=int64) is an int64), complex dtypes for
    var/std (NumPy's var is then complex), and an out= of another dtype
    than the result's, where NumPy's last sum accumulates (its loop for
    out's dtype, _generic's) and the quotient and std's square root are
    taken in place (mean of int32 into a uint8 out sums into uint8)."""
    mask = axes_mask(axis, x.ndim)
    n = _reduced_size(x, mask)
    if name == 'std' and out is None and D.KIND[dtc] in 'biu' and \
            len(_kept_shape(x.shape, mask, keepdims)):
        # NumPy's sqrt(var, out=var) of an integer var: its casting error,
        # raised before any work (a refused call leaves no deferred work
        # whose errors would surface later)
        o = _np.empty(0, D.DTYPES[dtc])
        _np.sqrt(o, out=o)
    if name != 'mean':
        s = reduce_nd('sum', x, axis, dtc, True)
        d = _umath.UFUNCS['subtract']._arrays(x, _quotient(s, n))
        if D.KIND[x._dt] == 'c':
            # NumPy: re * re + im * im, each product rounded (the real part of
            # d * conj(d) may be one fused multiply-add)
            re, im = d._real(), d._imag()
            x = _umath.UFUNCS['add']._arrays(_umath.UFUNCS['multiply']._arrays(re, re),
                                             _umath.UFUNCS['multiply']._arrays(im, im))
        else:
            x = _umath.UFUNCS['multiply']._arrays(d, d)
        n = builtins.max(n - ddof, 0)
    if out is not None:
        r = _generic('sum', x, axis, None if dtc == D.DEFAULT else D.DTYPES[dtc], out, keepdims)
        r = _quotient(r, n)
        return _umath.UFUNCS['sqrt'](r, out=r) if name == 'std' else r
    v = _quotient(reduce_nd('sum', x, axis, dtc, keepdims), n)
    if name != 'std':
        return v
    if v.ndim:
        return _umath.UFUNCS['sqrt'](v, out=v)     # NumPy's casting error for ints
    r = _umath.UFUNCS['sqrt']._arrays(v)
    if not isinstance(r, Array):        # NumPy's float16 result for small ints
        return C.from_numpy(_np.asarray(r).astype(D.DTYPES[v._dt]))
    return r._astype(v._dt, _core.CASTING_UNSAFE) if r._dt != v._dt else r


def _quotient(s, n):
    """s /= n (casting='unsafe'), as NumPy's _methods divide by the count:
    an intp (a strong int64: complex64 sums are divided in complex128; a
    float for a fractional ddof)."""
    q = _core.scalar(n, D.FLOAT64 if type(n) is float else D.INT64, False)
    return _umath.UFUNCS['true_divide'](s, q, out=s, casting='unsafe')


def _arg(name, a, axis, out, keepdims):
    if type(a) is not C.ND and isinstance(a, Array):     # NumPy calls a subclass's method
        return C.subclass_method(name, (a,), dict(axis=axis, out=out, keepdims=keepdims))
    p = _prepare(a, None)
    if p is None:
        kw = {'axis': axis, 'out': out}
        if keepdims:
            kw['keepdims'] = keepdims
        return F.call(f"{name} (dtype)", getattr(_np, name), (a,), kw)
    x, _ = p
    if axis is None:
        r = _core.reduce(_RED[name], x, None, bool(keepdims), D.DEFAULT, 0)
    else:
        ax = D.int_axis(axis)
        if x.ndim == 0 and not -1 <= ax < 1:
            raise _np.exceptions.AxisError(ax, 1)    # NumPy ravels a 0-d input
        mask = axes_mask(ax, x.ndim, True)
        r = _core.reduce(_RED[name], x, mask, bool(keepdims), D.DEFAULT, 0)
    if out is not None:
        # NumPy: out must have the result's shape, and its dtype must cast
        # safely to intp (NumPy passes it to the C loop as one)
        if tuple(_np.shape(out)) != tuple(r.shape):
            raise ValueError(f"output array does not match result of np.{name}.")
        check_out_writeable(out, RO_WRITEBACK)
        if not _np.can_cast(out.dtype, _np.intp, 'safe'):
            what = 'scalar' if r.ndim == 0 else 'array data'
            raise TypeError(f"Cannot cast {what} from {out.dtype!r} to dtype('int64') according "
                            f"to the rule 'safe'")
    return finish(r, out)


_SCAN_OPS = {'cumsum': 0, 'cumprod': 1, 'nancumsum': 2, 'nancumprod': 3}


def _scan(name, a, axis, dtype, out):
    if type(a) is not C.ND and isinstance(a, Array):     # NumPy calls a subclass's method
        if name in ('nancumsum', 'nancumprod'):          # (none: as _generic's nansum)
            r = _scan(name, a._view(), axis, dtype, out)
            return C.subclass_like(r, a) if out is None else r
        return C.subclass_method(name, (a,), dict(axis=axis, dtype=dtype, out=out))
    p = _prepare(a, dtype)
    if p is None:
        return F.call(name, getattr(_np, name), (a,), {'axis': axis, 'dtype': dtype, 'out': out})
    x, dtc = p
    if axis is None:
        ax = None   # the flattened array
    else:
        ax = D.int_axis(axis)
        nd = x.ndim if x.ndim else 1
        if ax < -nd or ax >= nd:
            raise _np.exceptions.AxisError(ax, nd)
    check_scan_out(x.shape if axis is not None else (x.size,), out)
    dtc = out_loop(_LOOP_UFUNC[name], x, dtc, out)
    op = _SCAN_OPS[name]
    if op >= 2 and dtc != D.DEFAULT and D.is_inexact(x._dt):
        # NumPy replaces NaN before casting to the requested dtype
        x = _multiarray.where(_umath.UFUNCS['isnan']._arrays(x), 1 if op == 3 else 0, x)
        op -= 2
    return finish(_core.scan(op, x, ax, dtc), out)


def ufunc_reduce(u, name, array, axis, dtype, out, keepdims, initial, where):
    """ufunc.reduce for the ufuncs that map onto a core reduction."""
    p = _prepare(array, dtype)
    if p is None:
        kw = _fallback_kw(axis, dtype, out, keepdims, initial, where)
        return F.call(u.__name__ + '.reduce (dtype)', u._np.reduce, (array,), kw)
    x, dtc = p
    # NumPy's loop for (out's dtype, the input's), as for accumulate and
    # reduceat
    dtc = out_loop(u.__name__, x, dtc, out)
    check_out(name, x.shape, axis, keepdims, out)
    if where is not True and name == 'sum':
        r = _sum_where(name, x, axis, dtc, keepdims, initial, where, out)
        if r is not None:
            return finish(r, out)
    if _seeded_inexact(name, x, dtc, initial, where, out_code(out)):
        # a float sum in another layout (or a seeded one into another
        # dtype's out=): NumPy's order is NumPy's to compute, as for sum
        kw = _fallback_kw(axis, dtype, out, keepdims, initial, where)
        return F.call(u.__name__ + '.reduce (where)', u._np.reduce, (x,), kw)
    return finish(reduce_nd(name, x, axis, dtc, keepdims, initial, where, through=out_code(out)),
                  out)
