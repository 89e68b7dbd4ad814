"""Reductions: sum, prod, min, max, any, all, mean, var, std, arg*, nan*.

A reduction to a single value returns a NumPy scalar, as NumPy does (this
waits for the data); every other result is an ndtile array.
"""
import builtins
import operator

import numpy as _np

from . import _core
from . import _dtypes as D
from . import _convert as C
from . import _fallback as F

Array = _core.Array
_NoValue = _np._NoValue
_RED = {n: i for i, n in enumerate(_core.REDUCE_NAMES)}

UFUNC_REDUCTIONS = {'add': 'sum', 'multiply': 'prod', 'minimum': 'min', 'maximum': 'max',
                    'logical_and': 'all', 'logical_or': 'any', 'fmin': 'nanmin',
                    'fmax': 'nanmax'}
# value used for masked-out elements (where=) by reductions with an identity
_WHERE_FILL = {'sum': 0, 'nansum': 0, 'prod': 1, 'nanprod': 1, 'any': False, 'all': True}
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
            out._assign(res, 4)
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


def _shape_text(shape):
    """NumPy's spelling of a shape in iterator errors: no spaces, a negative
    entry (an axis the operand lacks) as newaxis and dropped when leading."""
    k = 0
    while k < len(shape) and shape[k] < 0:
        k += 1
    if k == len(shape):
        return "()"
    parts = [str(shape[k])] + ["newaxis" if v < 0 else str(v) for v in shape[k + 1:]]
    return "(" + ",".join(parts) + ("," if len(shape) == 1 else "") + ")"


def check_out(name, xs, axis, keepdims, out):
    """NumPy's errors for a reduction's out= of the wrong type or shape (the
    reduction iterator's, in its order), before any work is done; xs is
    the operand's shape."""
    if out is None:
        return
    if not isinstance(out, (Array, _np.ndarray)):
        raise TypeError("return arrays must be of ArrayType")
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
    raised by NumPy on empty stand-ins."""
    if out is None or not isinstance(out, (Array, _np.ndarray)):
        return
    o = _np.empty(0, out.dtype)
    if name in ('std', 'nanstd'):
        _np.sqrt(o, out=o)
    elif name == 'ptp':
        _np.subtract(o, _np.empty(0, x.dtype), out=o)


def _fallback_kw(axis, dtype, out, keepdims, initial=_NoValue, where=True, **extra):
    kw = dict(axis=axis)
    if dtype is not None:
        kw['dtype'] = dtype
    if out is not None:
        kw['out'] = out
    if keepdims:
        kw['keepdims'] = keepdims
    if initial is not _NoValue:
        kw['initial'] = initial
    if where is not True:
        kw['where'] = where
    kw.update(extra)
    return kw


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
    return x, dtc


def reduce_nd(name, x, axis, dtc, keepdims, initial=_NoValue, where=True, ddof=0):
    """The reduction as an ndtile array (0-d for a full reduction)."""
    from . import _ufunc as U
    mask = axes_mask(axis, x.ndim, name not in _NOT_UFUNC)
    if initial is None:
        initial = _NoValue           # NumPy: initial=None is no initial
    if where is not True:
        # NumPy checks where='s shape first, then initial= and the identity
        w = U.operand(where)
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
    if initial is not _NoValue and name in _NEEDS_INITIAL:
        initial = _initial_as(initial, x._dt if dtc == D.DEFAULT else dtc)
    if where is not True:
        fill = _WHERE_FILL.get(name)
        if fill is None:
            if name in _NEEDS_INITIAL and initial is _NoValue:
                raise ValueError(f"reduction operation '{_np_name(name)}' does not have an "
                                 f"identity, so to use a where mask one has to specify "
                                 f"'initial'")
            fill = initial
        fv = fill if isinstance(fill, (bool, int, float, complex)) else U.operand(fill)
        x = _core.apply(U.WHERE, [w, x, fv if not isinstance(fv, Array) else fv._astype(x._dt, 4)])
    if initial is not _NoValue and name in _NEEDS_INITIAL and _reduced_size(x, mask) == 0:
        shape = tuple(1 if (mask is None or mask >> k & 1) else s for k, s in enumerate(x.shape)) \
            if keepdims else tuple(s for k, s in enumerate(x.shape)
                                   if not (mask is None or mask >> k & 1))
        r = _core.full(shape, x._dt if dtc == D.DEFAULT else dtc, _py(initial))
        return r
    r = _core.reduce(_RED[name], x, mask, bool(keepdims), dtc, int(ddof))
    if initial is not _NoValue:
        op = {'sum': 'add', 'nansum': 'add', 'prod': 'multiply', 'nanprod': 'multiply',
              'min': 'minimum', 'max': 'maximum', 'nanmin': 'fmin', 'nanmax': 'fmax'}.get(name)
        if op is not None:
            if name not in _NEEDS_INITIAL:
                initial = _initial_as(initial, r._dt)
            # initial first: NumPy's fold starts from it (maximum(x, y)
            # gives y on ties, so the signed zero NumPy keeps is r's)
            r = U.UFUNCS[op](initial, r)
            if not isinstance(r, Array):
                r = C.asnd(r)
    return r


def _initial_as(v, c):
    """initial= in the reduction's dtype (code c), as NumPy converts it:
    OverflowError out of range, 1.5 -> 1 for ints, TypeError for complex into
    reals; a Python scalar of that value."""
    t = _np.empty((), dtype=D.DTYPES[c])
    t[()] = _py(v)      # NumPy's conversion: initial=[2, 3] a TypeError for ints
    return t.item()


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


def _seeded_inexact(name, x, dtc, initial, where):
    """True for a float or complex sum or product that NumPy
    folds from an initial value (initial=, or the identity under where=):
    its accumulator starts at that value, so neither combining the value
    after the reduction nor filling masked elements with the identity gives
    NumPy's bits (prod(initial=0) of values that overflow is NaN, not 0;
    sum(initial=-0.0) keeps the sign). NumPy computes these (a copy to the
    host: the core's reductions take no seed yet)."""
    if initial is _NoValue or initial is None:
        # under where= alone a product folds from 1 (exact), a sum from 0
        # then pairwise (not x[0] then pairwise, as the core does)
        if where is True or name not in ('sum', 'nansum'):
            return False
    elif name not in _SEEDED:
        return False
    t = x._dt if dtc == D.DEFAULT else dtc
    return D.KIND[t] in 'fc'


def _generic(name, a, axis, dtype, out, keepdims, initial=_NoValue, where=True):
    # the fast path takes a plain array only; a subclass's method is checked
    # for after it, off the plain path
    if out is None and dtype is None and initial is _NoValue and where is True and \
            type(a) is C.ND and name in _FAST:
        r = _core.reduce(_RED[name], a, _fast_mask(axis, a.ndim, name), bool(keepdims), -1, 0)
        return r._scalar() if r.ndim == 0 else r
    if type(a) is not C.ND and isinstance(a, Array):     # NumPy calls a subclass's method
        kw = dict(axis=axis, out=out, keepdims=keepdims, where=where)
        if name not in ('any', 'all'):
            kw.update(dtype=dtype, initial=initial)
        return C.subclass_method(name, (a,), kw)
    p = _prepare(a, dtype)
    if p is None:
        return F.call(f"{name} (dtype)", getattr(_np, name), (a,),
                      _fallback_kw(axis, dtype, out, keepdims, initial, where))
    x, dtc = p
    check_out(name, x.shape, axis, keepdims, out)
    if name in ('nansum', 'nanprod') and dtc != D.DEFAULT and D.KIND[dtc] not in 'fc' and \
            D.KIND[x._dt] in 'fc':
        # NumPy replaces the NaNs before the sum casts them to dtype=int
        from . import _ufunc as U
        from . import _manip as M
        x = M.where(U.UFUNCS['isnan'](x), 0 if name == 'nansum' else 1, x)
        name = name[3:]
    if _seeded_inexact(name, x, dtc, initial, where):
        return F.call(f"{name} (initial)", getattr(_np, name), (a,),
                      _fallback_kw(axis, dtype, out, keepdims, initial, where))
    return finish(reduce_nd(name, x, axis, dtc, keepdims, initial, where), out)


def sum(a, axis=None, dtype=None, out=None, keepdims=False, initial=_NoValue, where=True):
    return _generic('sum', a, axis, dtype, out, keepdims, initial, where)


def prod(a, axis=None, dtype=None, out=None, keepdims=False, initial=_NoValue, where=True):
    return _generic('prod', a, axis, dtype, out, keepdims, initial, where)


def nansum(a, axis=None, dtype=None, out=None, keepdims=False, initial=_NoValue, where=True):
    return _generic('nansum', a, axis, dtype, out, keepdims, initial, where)


def nanprod(a, axis=None, dtype=None, out=None, keepdims=False, initial=_NoValue, where=True):
    return _generic('nanprod', a, axis, dtype, out, keepdims, initial, where)


def _minmax(name, a, axis, out, keepdims, initial, where):
    if out is None and initial is _NoValue and where is True and type(a) is C.ND and \
            name in _FAST:
        r = _core.reduce(_RED[name], a, _fast_mask(axis, a.ndim, name), bool(keepdims), -1, 0)
        return r._scalar() if r.ndim == 0 else r
    if type(a) is not C.ND and isinstance(a, Array):     # NumPy calls a subclass's method
        return C.subclass_method(name, (a,), dict(axis=axis, out=out, keepdims=keepdims,
                                                  initial=initial, where=where))
    p = _prepare(a, None)
    if p is None:
        return F.call(f"{name} (dtype)", getattr(_np, name), (a,),
                      _fallback_kw(axis, None, out, keepdims, initial, where))
    x, _ = p
    check_out(name, x.shape, axis, keepdims, out)
    return finish(reduce_nd(name, x, axis, D.DEFAULT, keepdims, initial, where), out)


def max(a, axis=None, out=None, keepdims=False, initial=_NoValue, where=True):
    return _minmax('max', a, axis, out, keepdims, initial, where)


def min(a, axis=None, out=None, keepdims=False, initial=_NoValue, where=True):
    return _minmax('min', a, axis, out, keepdims, initial, where)


amax = max
amin = min


def nanmax(a, axis=None, out=None, keepdims=False, initial=_NoValue, where=True):
    return _minmax('nanmax', a, axis, out, keepdims, initial, where)


def nanmin(a, axis=None, out=None, keepdims=False, initial=_NoValue, where=True):
    return _minmax('nanmin', a, axis, out, keepdims, initial, where)


def any(a, axis=None, out=None, keepdims=False, *, where=True):
    return _generic('any', a, axis, None, out, keepdims, _NoValue, where)


def all(a, axis=None, out=None, keepdims=False, *, where=True):
    return _generic('all', a, axis, None, out, keepdims, _NoValue, where)


def _meanlike(name, a, axis, dtype, out, keepdims, where, ddof=0, extra=None):
    if out is None and dtype is None and where is True and not extra and type(a) is C.ND \
            and type(ddof) is int:
        r = _core.reduce(_RED[name], a, _fast_mask(axis, a.ndim, name), bool(keepdims), -1,
                         ddof)
        return r._scalar() if r.ndim == 0 else r
    if type(a) is not C.ND and isinstance(a, Array):     # NumPy calls a subclass's method
        kw = dict(axis=axis, dtype=dtype, out=out, keepdims=keepdims, where=where)
        if name != 'mean':
            kw.update(ddof=ddof, **(extra or {}))
        return C.subclass_method(name, (a,), kw)
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


def _meanlike_steps(name, x, axis, dtc, keepdims, ddof):
    """mean/var/std in NumPy's own steps (numpy/_core/_methods.py), for the
    dtype= arguments where those steps give what the core's fused kernels do
    not: integer and bool dtypes (the sums and the quotients cast back to
    that dtype: mean(ints, dtype=int64) is an int64), and complex dtypes for
    var/std (NumPy's var is then complex)."""
    from . import _ufunc as U
    mask = axes_mask(axis, x.ndim)
    n = _reduced_size(x, mask)
    s = reduce_nd('sum', x, axis, dtc, keepdims if name == 'mean' else True)
    # NumPy divides by an intp count array (a strong int64: complex64 sums
    # are divided in complex128), then casts back
    m = U.UFUNCS['true_divide'](s, _core.scalar(n, D.INT64, False))
    if m._dt != s._dt:
        m = m._astype(s._dt, 4)
    if name == 'mean':
        return m
    d = U.UFUNCS['subtract'](x, m)
    sq = U.UFUNCS['multiply'](d, d if D.KIND[x._dt] != 'c' else U.UFUNCS['conjugate'](d))
    if D.KIND[x._dt] == 'c':
        sq = sq._real()
    ret = reduce_nd('sum', sq, axis, dtc, keepdims)
    dof = builtins.max(n - ddof, 0)
    v = U.UFUNCS['true_divide'](ret, _core.scalar(dof, D.FLOAT64 if type(dof) is float
                                                  else D.INT64, False))
    if v._dt != ret._dt:
        v = v._astype(ret._dt, 4)
    if name == 'var':
        return v
    if v.ndim:
        return U.UFUNCS['sqrt'](v, out=v)     # NumPy's casting error for ints
    r = U.UFUNCS['sqrt'](v)
    if not isinstance(r, Array):        # NumPy's float16 result for small ints
        return C.from_numpy(_np.asarray(r).astype(D.DTYPES[v._dt]))
    return r._astype(v._dt, 4) if r._dt != v._dt else r


def mean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    return _meanlike('mean', a, axis, dtype, out, keepdims, where)


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True,
        mean=_NoValue, correction=_NoValue):
    if correction is not _NoValue:
        if ddof != 0:
            raise ValueError("ddof and correction can't be provided simultaneously.")
        ddof = correction
    extra = {'mean': mean} if mean is not _NoValue else None
    return _meanlike('var', a, axis, dtype, out, keepdims, where, ddof, extra)


def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True,
        mean=_NoValue, correction=_NoValue):
    if correction is not _NoValue:
        if ddof != 0:
            raise ValueError("ddof and correction can't be provided simultaneously.")
        ddof = correction
    extra = {'mean': mean} if mean is not _NoValue else None
    return _meanlike('std', a, axis, dtype, out, keepdims, where, ddof, extra)


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
        if not _np.can_cast(out.dtype, _np.intp, 'safe'):
            what = 'scalar' if r.ndim == 0 else 'array data'
            raise TypeError(f"Cannot cast {what} from {out.dtype!r} to dtype('int64') according "
                            f"to the rule 'safe'")
    return finish(r, out)


def argmax(a, axis=None, out=None, *, keepdims=False):
    return _arg('argmax', a, axis, out, keepdims)


def argmin(a, axis=None, out=None, *, keepdims=False):
    return _arg('argmin', a, axis, out, keepdims)


def count_nonzero(a, axis=None, *, keepdims=False):
    p = _prepare(a, None)
    if p is None:
        return F.call("count_nonzero (dtype)", _np.count_nonzero, (a,),
                      {'axis': axis, 'keepdims': keepdims})
    x, _ = p
    r = _core.reduce(_RED['count_nonzero'], x, axes_mask(axis, x.ndim, True), bool(keepdims),
                     D.DEFAULT, 0)
    return finish(r, None)


def nanmean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    p = _prepare(a, dtype)
    if p is None or where is not True:
        return F.call("nanmean", _np.nanmean, (a,),
                      _fallback_kw(axis, dtype, out, keepdims, where=where))
    x, dtc = p
    if D.KIND[x._dt] not in 'fc':
        # NumPy: no NaN to skip, np.mean (whose dtype= rules differ)
        return mean(x, axis, dtype, out, keepdims)
    _nan_dtype_check(dtype, out)
    check_out('nanmean', x.shape, axis, keepdims, out)
    from . import _ufunc as U
    s = reduce_nd('nansum', x, axis, dtc, keepdims)
    notnan = U.UFUNCS['logical_not'](U.UFUNCS['isnan'](x))
    n = reduce_nd('sum', notnan, axis, D.DEFAULT, keepdims)
    r = _core.apply(U._CORE_INDEX['divide'], [s, n], None,
                    s._dt if D.KIND[s._dt] in 'fc' else D.FLOAT64)
    return finish(r, out)


def _nan_dtype_check(dtype, out):
    """NumPy's nanmean/nanvar/nanstd checks for an inexact input."""
    if dtype is not None and D.KIND[D.code_of(dtype)] not in 'fc':
        raise TypeError("If a is inexact, then dtype must be inexact")
    if out is not None and out.dtype.kind not in 'fc':
        raise TypeError("If a is inexact, then out must be inexact")


def ptp(a, axis=None, out=None, keepdims=False):
    p = _prepare(a, None)
    if p is None:
        return F.call("ptp (dtype)", _np.ptp, (a,), {'axis': axis, 'out': out,
                                                     'keepdims': keepdims})
    x, _ = p
    check_out('ptp', x.shape, axis, keepdims, out)
    check_out_cast('ptp', x, out)
    hi = reduce_nd('max', x, axis, D.DEFAULT, keepdims)
    lo = reduce_nd('min', x, axis, D.DEFAULT, keepdims)
    if D.KIND[x._dt] == 'b':
        _np.subtract(_np.True_, _np.True_)    # NumPy's boolean-subtract TypeError
    from ._ufunc import UFUNCS
    return finish(UFUNCS['subtract'](hi, lo), out)     # NumPy's ptp: subtract(max, min)


def average(a, axis=None, weights=None, returned=False, *, keepdims=False):
    """NumPy's average: sum(a * w) / sum(w) in NumPy's result dtype."""
    import ndtile as nt
    x = C.asarray(a)
    w = None if weights is None else C.asarray(weights)
    if not isinstance(x, Array) or (w is not None and not isinstance(w, Array)):
        return F.call("average (dtype)", _np.average, (a,),
                      {'axis': axis, 'weights': weights, 'returned': returned,
                       'keepdims': keepdims})
    if axis is not None:
        # NumPy's average normalises the axis in Python (bools and lists
        # are taken as ints)
        axis = _np.lib.array_utils.normalize_axis_tuple(axis, x.ndim, argname="axis")
    if w is None:
        avg = mean(x, axis=axis, keepdims=keepdims)
        if not returned:
            return avg
        size = int(_np.prod(_np.shape(avg)))
        scl = avg.dtype.type(x.size / size if size else _np.nan)
        return avg, (nt.full(avg.shape, scl, dtype=avg.dtype) if _np.ndim(avg) else scl)
    if x.dtype.kind in 'biu':
        rt = _np.result_type(x.dtype, w.dtype, 'f8')
    else:
        rt = _np.result_type(x.dtype, w.dtype)
    if tuple(x.shape) != tuple(w.shape):
        if axis is None:
            raise TypeError("Axis must be specified when shapes of a and weights differ.")
        axes = tuple(_np.atleast_1d(axis))
        if w.ndim != len(axes):
            raise ValueError("Shape of weights must be consistent with shape of a along "
                             "specified axis.")
        axes = tuple(_np.lib.array_utils.normalize_axis_index(int(k), x.ndim) for k in axes)
        if tuple(x.shape[k] for k in axes) != tuple(w.shape):
            raise ValueError("Shape of weights must be consistent with shape of a along "
                             "specified axis.")
        # move the weights' axes to where they are in a
        order = sorted(range(len(axes)), key=lambda k: axes[k])
        w = nt.transpose(w, order) if order != list(range(len(axes))) else w
        shape = [1] * x.ndim
        for k in sorted(axes):
            shape[k] = x.shape[k]
        w = w.reshape(tuple(shape))
        w = nt.broadcast_to(w, tuple(x.shape))
    scl = nt.sum(w, axis=axis, dtype=rt, keepdims=keepdims)
    if bool(nt.any(scl == 0.0)):
        raise ZeroDivisionError("Weights sum to zero, can't be normalized")
    avg = nt.sum(nt.multiply(x, w, dtype=rt), axis=axis, keepdims=keepdims) / scl
    if returned:
        if tuple(scl.shape) != tuple(avg.shape):
            scl = nt.broadcast_to(scl, avg.shape).copy()
        return avg, scl
    return avg


_SCAN_OPS = {'cumsum': 0, 'cumprod': 1, 'nancumsum': 2, 'nancumprod': 3}


def _scan(name, a, axis, dtype, out):
    if type(a) is not C.ND and isinstance(a, Array):     # NumPy calls a subclass's method
        return C.subclass_method(name, (a,), dict(axis=axis, dtype=dtype, out=out))
    p = _prepare(a, dtype)
    if p is None:
        return F.call(name, getattr(_np, name), (a,), {'axis': axis, 'dtype': dtype, 'out': out})
    x, dtc = p
    op = _SCAN_OPS[name]
    if op >= 2 and dtc != D.DEFAULT and D.is_inexact(x._dt):
        # NumPy replaces NaN before casting to the requested dtype
        import ndtile
        x = ndtile.where(ndtile.isnan(x), 1 if op == 3 else 0, x)
        op -= 2
    if axis is None:
        ax = None   # the flattened array
    else:
        ax = D.int_axis(axis)
        nd = x.ndim if x.ndim else 1
        if ax < -nd or ax >= nd:
            raise _np.exceptions.AxisError(ax, nd)
    return finish(_core.scan(op, x, ax, dtc), out)


def cumsum(a, axis=None, dtype=None, out=None):
    return _scan('cumsum', a, axis, dtype, out)


def cumprod(a, axis=None, dtype=None, out=None):
    return _scan('cumprod', a, axis, dtype, out)


def nancumsum(a, axis=None, dtype=None, out=None):
    return _scan('nancumsum', a, axis, dtype, out)


def nancumprod(a, axis=None, dtype=None, out=None):
    return _scan('nancumprod', a, axis, dtype, out)


def ufunc_reduce(u, name, array, axis, dtype, out, keepdims, initial, where):
    """ufunc.reduce for the ufuncs that map onto a core reduction."""
    p = _prepare(array, dtype)
    if p is None:
        kw = _fallback_kw(axis, dtype, out, keepdims, initial, where)
        return F.call(u.__name__ + '.reduce (dtype)', u._np.reduce, (array,), kw)
    x, dtc = p
    if name in ('min', 'max', 'nanmin', 'nanmax') and dtc not in (D.DEFAULT, x._dt):
        x = x._astype(dtc, 4)
        dtc = D.DEFAULT
    check_out(name, x.shape, axis, keepdims, out)
    return finish(reduce_nd(name, x, axis, dtc, keepdims, initial, where), out)


def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """NumPy's median from the core's sort: the mean of the middle one or two
    elements of each sorted line; NaN where a line holds a NaN. Several
    axes are moved to the end and merged into one line."""
    x = C.asarray(a)
    if not isinstance(x, Array) or x.size == 0:
        return F.call("median", _np.median, (a,), dict(axis=axis, out=out,
                      overwrite_input=overwrite_input, keepdims=keepdims))
    from . import _manip as M
    nd = x.ndim
    if axis is not None:
        _np.lib.array_utils.normalize_axis_tuple(axis, nd)    # NumPy's errors for axis
    if isinstance(axis, (tuple, list)):
        axes = tuple(sorted(_np.lib.array_utils.normalize_axis_index(int(k), nd)
                            for k in axis))
        if len(set(axes)) != len(axes):
            raise ValueError("duplicate value in 'axis'")
        keep = [k for k in range(nd) if k not in axes]
        y = M.transpose(x, keep + list(axes))
        y = M.reshape(y, tuple(x.shape[k] for k in keep) + (-1,))
        res = median(y, axis=-1)
        if keepdims:
            res = M.reshape(res, tuple(1 if k in axes else x.shape[k] for k in range(nd)))
        return M.to_out(res, out)
    if axis is None:
        s, ax = M.sort(M.ravel(x)), 0
    else:
        ax = operator.index(axis)
        if not -nd <= ax < nd:
            raise _np.exceptions.AxisError(ax, nd)
        ax %= nd
        s = M.sort(x, axis=ax)
    n = s.shape[ax]
    if out is not None and not keepdims:
        # NumPy: mean(middle elements, axis, out=out): mean's out= errors for
        # an operand of 1 or 2 elements along the axis
        shp = list(s.shape)
        shp[ax] = 1 if n % 2 else 2
        check_out('mean', shp, ax, False, out)

    def along(sl):
        key = [slice(None)] * s.ndim
        key[ax] = sl
        return s[tuple(key)]

    mid = along(slice((n - 1) // 2, n // 2 + 1))
    res = mean(mid, axis=ax, keepdims=True)
    if x.dtype.kind in 'fc':
        from ._ufunc import UFUNCS
        last = along(slice(n - 1, n))
        res = M.where(UFUNCS['isnan'](last), _np.nan, res).astype(res.dtype)
    if axis is None:
        res = M.reshape(res, (1,) * nd) if keepdims else res.reshape(())
    elif not keepdims:
        res = M.squeeze(res, axis=ax)
    if out is not None:
        M.copyto(out, res, casting='unsafe')     # as mean writes out=
        return out
    return res[()] if res.ndim == 0 else res
