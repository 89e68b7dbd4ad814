"""The bottom of ndtile's Python layer: the ufunc objects (NumPy's _core.umath)
and the helpers every other module calls the core with.

Each NumPy ufunc has an ndtile ufunc of the same name (UFUNCS) whose call
converts the operands (operand, the weak Python scalars of NEP 50), resolves
the loop dtype from the core's tables and records one elementwise task
(_core.apply), or runs NumPy's ufunc where the core has no loop. The
helpers below them turn arguments into the core's (axes, arrays, a plain
view of a subclass instance). This module imports only _core, NumPy, the
standard library and the leaf modules (_dtypes, _convert, _fallback, _errstate);
the ufunc methods that need the array library (reduce, accumulate,
reduceat, at) are defined in _umath_methods, above it, and installed on
these classes there."""

import contextlib
import operator
import sys as _sys
import warnings as _warnings

import numpy as _np
from numpy._core._exceptions import UFuncTypeError, _UFuncOutputCastingError

from . import _convert as C
from . import _core
from . import _dtypes as D
from . import _errstate
from . import _fallback as F

Array = _core.Array
_NoValue = _np._NoValue


_generic = _np.generic
_CORE_INDEX = {n: i for i, n in enumerate(_core.UFUNC_NAMES)}
_CORE_INDEX.pop('where', None)
_CORE_INDEX.pop('clip', None)
WHERE = _core.UFUNC_NAMES.index('where')
POWER = _CORE_INDEX['power']
_ANY = _core.REDUCE_NAMES.index('any')
_ARGMAX = _core.REDUCE_NAMES.index('argmax')
COMPARISONS = frozenset(_CORE_INDEX[n] for n in (
    'equal', 'not_equal', 'less', 'less_equal', 'greater', 'greater_equal'))
LOGICAL = frozenset(_CORE_INDEX[n] for n in ('logical_and', 'logical_or', 'logical_xor'))
_SMALL = frozenset((D.BOOL, D.INT8, D.UINT8, D.INT16, D.UINT16))
_F16 = _np.dtype(_np.float16)


# ufuncs whose float16 result is not their float32 result rounded to float16
_F16_NATIVE = frozenset(('nextafter', 'spacing'))


# ufunc objects by numpy ufunc object and by name
BY_NP = {}
BY_NAME = {}


# set by _ndarray: the plain array class (the fast path takes exactly it)
# and the override/wrap protocol for operands of its subclasses
_ND = None
_SUBCLASS_CALL = None


# set by __init__: _foreign.foreign (other people's arrays go to NumPy)
_FOREIGN = None


def _subclass_operand(args, out):
    for a in args:
        if type(a) is not _ND and isinstance(a, Array):
            return True
    if out is not None:
        for o in (out if isinstance(out, tuple) else (out,)):
            if type(o) is not _ND and isinstance(o, Array):
                return True
    return False


def _override_kw(axis, dtype, out, keepdims=False, initial=_NoValue, where=True):
    """The keywords NumPy passes an __array_ufunc__ override of reduce or
    accumulate: the arguments given (_reduce._fallback_kw's), axis=0 left out."""
    kw = _fallback_kw(axis, dtype, out, keepdims, initial, where)
    if axis == 0 and type(axis) is int:
        del kw['axis']
    return kw


class _Unsupported(Exception):
    """An operand's dtype is not one the core holds."""


def operand(x):
    """x as a ufunc operand: an ndtile array, or an exact Python scalar
    (weak, NEP 50). Raises _Unsupported for dtypes the core lacks."""
    if isinstance(x, Array):
        return x
    t = type(x)
    if t is float or t is int or t is bool or t is complex:
        return x
    if isinstance(x, _generic):
        c = D.code(x.dtype)
        if c is None:
            raise _Unsupported(x.dtype)
        return _core.scalar(x.item(), c, False)
    if isinstance(x, bool):
        return bool(x)
    if isinstance(x, int):
        return int(x)
    if isinstance(x, float):
        return float(x)
    if isinstance(x, complex):
        return complex(x)
    r = C.asarray(x)
    if isinstance(r, Array):
        return r
    raise _Unsupported(r.dtype)


def strong_type(ops):
    """The promoted dtype code of the ndtile arrays among ops (None if none)."""
    st = None
    for o in ops:
        if isinstance(o, Array):
            st = o._dt if st is None else _core.promote(st, 0, o._dt, 0)
    return st


def fix_ints(op, ops, inexact=False):
    """Applies NumPy's rules for Python ints (NEP 50) that the core cannot:
    values outside the loop's integer range. inexact: the op computes in
    floating point whatever the inputs."""
    st = strong_type(ops)
    for i, o in enumerate(ops):
        if type(o) is not int:
            continue
        if op in LOGICAL:
            # NumPy converts to a C long, then only the truth value matters
            if not -2**63 <= o < 2**63:
                raise OverflowError("Python int too large to convert to C long")
            ops[i] = bool(o)
            continue
        if st is None:
            lt = D.INT64
        else:
            lt = _core.promote(D.INT64, 1, st, 0)
        if D.is_int(lt):
            lo, hi = D.int_range(lt)
            if lo <= o <= hi:
                if o > 2**63 - 1:
                    ops[i] = _core.scalar(o, D.UINT64, True)
                continue
            # ops whose loop is inexact for integer inputs (divide, sqrt, ...)
            probe = list(ops)
            probe[i] = 0
            try:
                inexact = inexact or (op not in COMPARISONS and
                                      D.is_inexact(_core.result_type(op, probe)))
            except (ValueError, TypeError):
                pass
            if inexact:
                # the loop is floating point: the value converts to it
                if -2**63 <= o < 2**63:
                    pass
                elif 0 <= o < 2**64:
                    ops[i] = _core.scalar(o, D.UINT64, True)
                else:
                    ops[i] = _core.scalar(float(o), D.FLOAT64, True)
                continue
            if op in COMPARISONS and st is not None and st != D.BOOL:
                # NumPy compares the exact values: beyond an integer dtype's
                # range the int behaves like an infinity
                ops[i] = float('inf') if o > hi else float('-inf')
                continue
            if op in COMPARISONS or not -2**63 <= o < 2**63:
                # (NumPy's words for an int no C long holds, in any dtype)
                raise OverflowError("Python int too large to convert to C long")
            raise OverflowError(f"Python integer {o} out of bounds for {D.NAMES[lt]}")
        elif not (-2**63 <= o < 2**63):
            ops[i] = float(o)
    return ops


def fix_gufunc_ints(args):
    """fix_ints for a gufunc's operands (matmul, matvec, vecmat, vecdot):
    NumPy converts a Python int by the other operand's dtype (NEP 50) before
    it looks at core dimensions, so `int8 array @ 300` is its OverflowError,
    not the 0-d operand's ValueError. The multiply loop stands for the
    gufunc's (the same type resolution)."""
    if any(type(x) is int for x in args):
        args = fix_ints(_CORE_INDEX['multiply'], list(args))
    return args


_res_cache = {}
_AGREE = -1
_F16_ROUND = -2     # compute in float32, round to float16 (NumPy's half loops do)
_F16_NUMPY = -3     # NumPy's float16 loop differs: let NumPy do it
_NO_LOOP = -4       # no loop for these types: NumPy's TypeError (not the fast path's)
_PY_WEAK = {bool: (D.BOOL, False), int: (D.INT64, True), float: (D.FLOAT64, True),
            complex: (D.COMPLEX128, True)}


def _resolution(u, ops):
    """How the core runs these operand types (cached): _AGREE, _F16_* where
    NumPy's loop is float16 (the core runs float32), or the loop dtype code
    to force where an operand stands for a Python int the core holds in
    another dtype (fix_ints: a weak float64 for ints beyond uint64, which
    NumPy resolves as Python ints)."""
    key = (u,) + tuple((('w', o._dt) if o.ndim == 0 and o._is_weak() else o._dt)
                       if isinstance(o, Array) else type(o) for o in ops)
    r = _res_cache.get(key)
    if r is None:
        r = _AGREE
        try:
            if _CORE_INDEX.get(u.__name__) == u._op:
                codes = [k if type(k) is int else D.INT64 if type(k) is tuple else
                         _PY_WEAK[k][0] for k in key[1:]]
                weak = [type(k) is tuple or (type(k) is type and _PY_WEAK[k][1])
                        for k in key[1:]]
                loop, flags = _core.ufunc_resolve(u._op, codes, weak)
                half = flags & _core.RESOLVE_HALF
                if not half and any(type(k) is tuple and k[1] != D.INT64 for k in key[1:]):
                    held = [k[1] if type(k) is tuple else c for k, c in zip(key[1:], codes)]
                    if _core.ufunc_resolve(u._op, held, weak)[0][-1] != loop[-1] and \
                            all(c == loop[0] for c in loop[:u.nin]):
                        r = loop[0]
            else:
                # a NumPy ufunc built on another core op (fabs on absolute,
                # float_power on power): its own loops say
                dts = tuple(D.DTYPES[k] if type(k) is int else int if type(k) is tuple else
                            D.DTYPES[D.BOOL] if k is bool else k for k in key[1:])
                half = u._np.resolve_dtypes(dts + (None,) * u._np.nout)[-1] == _F16
            if half:
                r = _F16_NUMPY if u.__name__ in _F16_NATIVE else _F16_ROUND
        except TypeError:
            r = _NO_LOOP
        except Exception:
            r = _AGREE
        _res_cache[key] = r
    return r


_COMPARISONS = frozenset(('equal', 'not_equal', 'less', 'less_equal', 'greater',
                          'greater_equal'))


class _NoOut:
    """out= not given (NumPy warns for where= without out=; out=None is quiet)."""

    def __repr__(self):
        return 'None'


_NO_OUT = _NoOut()
_WHERE_NO_OUT = ("'where' used without 'out', expect unitialized memory in output. "
                 "If this is intentional, use out=None.")
_OUT_ELLIPSIS_POS = "out=... is only allowed as a keyword argument."
_OUT_ELLIPSIS_TUPLE = "must use `...` as `out=...` and not per-operand/in a tuple"


# NumPy 2.4's warning for out= given positionally to maximum and minimum
_EXTREMUM_3_ARGS = (
    "Passing more than 2 positional arguments to np.maximum and np.minimum is deprecated. "
    "If you meant to use the third argument as an output, use the `out` keyword argument "
    "instead. If you hoped to work with more than 2 inputs, combine them into a single "
    "array and get the extrema for the relevant axis.")


def _out_given(args, nin, out, where):
    """out= as the call gave it, and whether it was out=...: NumPy's checks
    of `...` (a keyword, alone) and its UserWarning for where= (anything but
    True itself) with no out at all."""
    if out is _NO_OUT:
        if len(args) > nin:
            if any(a is Ellipsis for a in args[nin:]):
                raise TypeError(_OUT_ELLIPSIS_POS)
        elif where is not True:
            F.warn(_WHERE_NO_OUT, UserWarning)
        return None, False
    if out is Ellipsis:
        return None, True
    if type(out) is tuple and any(o is Ellipsis for o in out):
        raise TypeError(_OUT_ELLIPSIS_TUPLE)
    return out, False


def scalar_result(r):
    """A ufunc's result without out=, as NumPy returns it: a 0-d array
    (ndtile's, or NumPy's own: a float16 result) as its NumPy scalar, each
    of a tuple's too. A subclass instance stays as its class's wrap made it."""
    t = type(r)
    if t is _ND or t is _np.ndarray:
        return r[()] if r.ndim == 0 else r
    if t is tuple:
        return tuple(scalar_result(x) for x in r)
    return r


def _as_array_result(r):
    """out=...: an array result (NumPy's scalar results as 0-d arrays)."""
    if isinstance(r, tuple):
        return tuple(_as_array_result(x) for x in r)
    if isinstance(r, (Array, _np.ndarray)):
        return r
    return C.asarray(r)


def _check_where_dtype(where):
    """NumPy casts a where= array (ndtile's or NumPy's) to bool under
    casting='safe': an int mask array is a TypeError."""
    if isinstance(where, (Array, _np.ndarray)) and where.dtype != _np.bool_:
        what = 'array data' if where.ndim else 'scalar'
        raise TypeError(f"Cannot cast {what} from {where.dtype!r} to dtype('bool') "
                        "according to the rule 'safe'")


def _where_mask(where):
    """where= as a bool array (_check_where_dtype); anything but an array
    (lists, Python and NumPy scalars) converted to bool."""
    if isinstance(where, (Array, _np.ndarray)):
        _check_where_dtype(where)
        return operand(where)
    m = _np.asarray(C.to_np_tree(where), dtype=_np.bool_)
    if m.ndim == 0:
        return _core.scalar(bool(m), D.BOOL, False)
    return C.from_numpy(m)


def _warn_complex_inputs(ops, dtc):
    """dtype= of a real dtype: NumPy's loop casts each complex input (an
    array or a Python complex) to it, warning ComplexWarning for each."""
    for o in ops:
        if type(o) is complex:
            _core.warn_complex_cast(D.COMPLEX128, dtc)
        elif isinstance(o, Array) and D.KIND[o._dt] == 'c':
            _core.warn_complex_cast(o._dt, dtc)


def _multi_out(args, nin, nout, out):
    """(inputs, outputs) of a ufunc of several outputs by NumPy's rules:
    positional outputs (the missing ones None), or out= a tuple of one entry
    per output (out=None or one array is a TypeError); None for no output
    array. (_out_given checked `...` first.)"""
    if len(args) > nin:
        if out is not _NO_OUT:
            raise TypeError("cannot specify 'out' as both a positional and keyword argument")
        out = tuple(args[nin:]) + (None,) * (nin + nout - len(args))
        args = args[:nin]
        if any(isinstance(o, tuple) for o in out):
            raise TypeError("return arrays must be of ArrayType")     # NumPy's words
    elif out is _NO_OUT:
        return args, None
    elif not isinstance(out, tuple):
        raise TypeError("'out' must be a tuple of arrays")
    elif len(out) != nout:
        raise ValueError("The 'out' tuple must have exactly one entry per ufunc output")
    if all(o is None for o in out):
        return args, None
    return args, out


def _split_out(args, nin, out, nout=1):
    if len(args) > nin:
        if out is not None:
            raise TypeError("cannot specify 'out' as both a positional and keyword argument")
        out = args[nin:]
        args = args[:nin]
        if any(isinstance(o, tuple) for o in out):
            raise TypeError("return arrays must be of ArrayType")     # NumPy's words
    if isinstance(out, tuple):
        if len(out) != nout:
            raise ValueError("The 'out' tuple must have exactly one entry per ufunc output")
        if len(out) == 1:
            out = out[0]
        elif all(o is None for o in out):
            out = None
    return args, out


def _has_array(args):
    """Whether an operand is more than a Python or NumPy scalar (else the
    call is NumPy's scalar call): arrays, sequences, and objects with
    __array__ (which may return an ndtile array, which NumPy's own ufunc
    would refuse)."""
    for a in args:
        if isinstance(a, (Array, _np.ndarray, list, tuple)) or \
                (not isinstance(a, _generic) and hasattr(type(a), '__array__')):
            return True
    return False


_SCALAR_TYPES = frozenset((int, float, complex, bool))
_NO_WRAP = object()


def array_wrap_of(args):
    """NumPy's choice of the __array_wrap__ that wraps a ufunc's result, for
    inputs that are neither ndtile arrays nor their subclasses (those take
    the override protocol): among the inputs that bring an __array_wrap__
    (objects with __array__, say), the one of highest __array_priority__
    (the first among equals; an exact array counts as priority 0 without
    one, a scalar as -1e6, so an object of priority 0 still wins over them).
    None when no input brings one (the result stays as it is)."""
    wrap = None
    prio = 0.0
    for a in args:
        t = type(a)
        if t is _ND or t is _np.ndarray or isinstance(a, Array):
            if wrap is None or prio < 0.0:
                wrap, prio = _NO_WRAP, 0.0
        elif t in _SCALAR_TYPES or isinstance(a, _generic):
            if wrap is None or prio < -1e6:
                wrap, prio = _NO_WRAP, -1e6
        else:
            w = _own_wrap(a)
            if w is None:
                continue
            try:
                p = float(getattr(a, '__array_priority__', 0.0))
            except (TypeError, ValueError):
                p = 0.0
            if wrap is None or prio < p or (p == 0.0 and wrap is _NO_WRAP):
                wrap, prio = w, p
    return None if wrap is _NO_WRAP else wrap


def _own_wrap(a):
    """a's own __array_wrap__ when a is not an array, a scalar, a list or a
    tuple (an object with __array__, say); None otherwise."""
    t = type(a)
    if t is _ND or t in _SCALAR_TYPES or t is list or t is tuple or \
            isinstance(a, (Array, _np.ndarray, _generic)):
        return None
    return getattr(a, '__array_wrap__', None)


def duck_of(a):
    """Whether NumPy's fromnumeric functions ask a for its own method of
    their name (or, lacking one, for its __array_wrap__): a is no array
    (ndtile's, its subclasses', NumPy's), scalar, string, list or tuple."""
    t = type(a)
    return not (t is _ND or t in _SCALAR_TYPES or t is list or t is tuple or t is str or
                a is None or isinstance(a, (Array, _np.ndarray, _generic)))


def wrapfunc(name, args, kwargs):
    """NumPy's fromnumeric._wrapfunc for an object a = args[0] of duck_of
    (for another a, _NO_WRAP):
    a's own method of that name (its TypeError, a signature unlike NumPy's,
    falls through), else, where a brings an __array_wrap__, the method of
    a's array with the result wrapped by it (return_scalar False: _wrapit);
    _NO_WRAP when a has neither (the caller goes on as for any array-like)."""
    a = args[0]
    if not duck_of(a):
        return _NO_WRAP
    m = getattr(a, name, None)
    if m is not None:
        try:
            return m(*args[1:], **kwargs)
        except TypeError:
            pass
    w = _own_wrap(a)
    if w is None:
        return _NO_WRAP
    r = getattr(C.asarray(a), name)(*args[1:], **kwargs)
    return apply_array_wrap(w, r, None, False)


def needs_array_wrap(args):
    """Whether an input may bring its own __array_wrap__ (array_wrap_of)."""
    return any(_own_wrap(a) is not None for a in args)


def wrap_input(a):
    """An input whose __array_wrap__ wraps the result, as an array."""
    return a if _own_wrap(a) is None else C.asarray(a)


def apply_array_wrap(w, r, context, return_scalar=None):
    """w(r, context, return_scalar), as NumPy calls an input's __array_wrap__
    (return_scalar: by default a 0-d result, which NumPy would return as a
    scalar); a wrap that refuses these (TypeError) is called as NumPy
    retries it, with (r, context), then (r), and NumPy's DeprecationWarning
    follows the call that succeeds."""
    if not isinstance(r, Array):
        if isinstance(r, (_generic, int, float, complex, bool)) and \
                D.code(_np.asarray(r).dtype) is not None:
            r = C.asarray(r)
        elif not isinstance(r, _np.ndarray):
            return r
    try:
        return w(r, context, r.ndim == 0 if return_scalar is None else return_scalar)
    except TypeError:
        pass
    try:
        res = w(r, context)
    except TypeError:
        res = w(r)
    F.warn("__array_wrap__ must accept context and return_scalar arguments "
           "(positionally) in the future. (Deprecated NumPy 2.0)",
           DeprecationWarning)
    return res


class _Signature:
    """ufunc.__signature__: NumPy's ufunc's (inspect.signature(np.add):
    positional-only inputs, out, the keyword-only where/casting/... with
    their defaults); None on the class itself."""

    def __get__(self, obj, cls=None):
        return None if obj is None else obj._np.__signature__


@contextlib.contextmanager
def fp_named(name):
    """The floating-point errors of the work inside reported under name (as
    one operation's: a loop and its casts), or as they are when name is None."""
    if name is None:
        yield
        return
    _core.fp_group_begin(_sys.intern(name))
    try:
        yield
    finally:
        _core.fp_group_end()


def _agrees(uf, args):
    """Whether args are ndtile arrays (one at least) and small Python scalars
    whose type resolution for ufunc uf is cached as agreeing with NumPy's:
    the fast paths of ufunc.__call__."""
    key = [uf]
    arrays = False
    for a in args:
        if type(a) is _ND:
            key.append(a._dt)
            arrays = True
            continue
        t = type(a)
        if t is float or t is bool or t is complex or (t is int and 0 <= a <= 127):
            key.append(t)
        else:
            return False
    return arrays and _res_cache.get(tuple(key)) == _AGREE

def _stand_ins(ops):
    """ops with each (non-weak) array replaced by an empty one of its dtype:
    a loop's dtypes and cast errors resolved before any element is seen."""
    return [_core.empty((0,), x._dt) if isinstance(x, Array) and not x._is_weak() else x
            for x in ops]


def _without_fp_error(run):
    """run()'s result when it meets no floating-point error under 'raise'
    (or every error is ignored: run() as it is); None when it met one."""
    if all(v == 'ignore' for v in _np.geterr().values()):
        return run()
    try:
        with _np.errstate(all='raise'):
            return run()
    except FloatingPointError:
        return None


class ufunc:
    """An ndtile ufunc: NumPy's interface, the core's elementwise op."""

    _inexact = False
    _out_index = 0      # (frexp's and modf's halves: their output's operand index)

    def __init__(self, npu, op):
        self._np = npu
        self._op = op
        # the fast path of __call__: plain core ufuncs (power needs a look at
        # integer exponents)
        self._fast = op is not None and type(self) is ufunc and npu.__name__ != 'power'
        self.__name__ = npu.__name__
        self.__qualname__ = npu.__name__
        self.__doc__ = npu.__doc__
        self.nin = npu.nin
        self.nout = npu.nout
        self.nargs = npu.nargs

    def __repr__(self):
        return f"<ufunc '{self.__name__}'>"

    @property
    def identity(self):
        return self._np.identity

    @property
    def ntypes(self):
        return self._np.ntypes

    @property
    def types(self):
        return self._np.types

    @property
    def signature(self):
        return self._np.signature

    def resolve_dtypes(self, *args, **kwargs):
        return self._np.resolve_dtypes(*args, **kwargs)

    __signature__ = _Signature()

    def __reduce__(self):
        # pickled by name (ndtile.NAME, as NumPy pickles its ufuncs): the
        # same object when loaded
        return self.__name__

    # -- calling -----------------------------------------------------------
    def _arrays(self, *args, **kwargs):
        """self(*args, **kwargs) with a 0-d result as a 0-d array, not
        NumPy's scalar (out=...): for ndtile's own code, which goes on
        with the result as an array."""
        return self(*args, out=..., **kwargs)

    def _numpy(self, args, kwargs, why=None):
        name = self.__name__ if why is None else f"{self.__name__} ({why})"
        return F.call(name, self._np, args, kwargs)

    def __call__(self, *args, out=_NO_OUT, where=True, casting='same_kind', order='K',
                 dtype=None, subok=True, **kwargs):
        if (out is _NO_OUT or out is None or out is Ellipsis) and where is True and \
                dtype is None and not kwargs and casting == 'same_kind' and order == 'K' and \
                len(args) == self.nin and self._fast:
            # the common case: ndtile arrays and small Python scalars whose
            # type resolution is known to agree with NumPy's (a 0-d result
            # is NumPy's scalar, an array for out=...)
            if _agrees(self, args):
                return _core.apply(self._op, args, None, D.DEFAULT, out is not Ellipsis)
        elif type(out) is _ND and where is True and dtype is None and not kwargs and \
                casting == 'same_kind' and order == 'K' and len(args) == self.nin and \
                self._fast and self.nout == 1 and out._flags & 0x400:
            # out= a plain writeable ndtile array, inputs as in the case above:
            # the general path's steps for them (_compute with _AGREE)
            if _agrees(self, args):
                out._before_write()
                try:
                    return _core.apply(self._op, args, out, D.DEFAULT)
                except TypeError:
                    self._numpy_type_error(list(args), D.DEFAULT, out, casting)
                    raise
        if len(args) > 2 and self.nin == 2 and self.__name__ in ('maximum', 'minimum'):
            F.warn(_EXTREMUM_3_ARGS, DeprecationWarning)
        out, ellipsis = _out_given(args, self.nin, out, where)
        if ellipsis:
            # out=...: NumPy's way to ask for arrays (ndtile's own code asks so)
            return _as_array_result(self._call(args, None, where, casting, order, dtype,
                                               subok, kwargs, False))
        return self._call(args, out, where, casting, order, dtype, subok, kwargs, True)

    def _call(self, args, out, where, casting, order, dtype, subok, kwargs, scalars):
        """__call__ past its fast paths and out=... (scalars: a 0-d result
        without out= as its NumPy scalar, as NumPy returns it)."""
        if len(args) > self.nin + self.nout:
            raise TypeError(f"{self.__name__}() takes from {self.nin} to "
                            f"{self.nin + self.nout} positional arguments but {len(args)} "
                            f"were given")
        if len(args) < self.nin:
            return self._np(*C.to_np_tree(args))   # NumPy's TypeError, before out='s
        if dtype is not None and self.__name__ in _COMPARISONS and D.as_dtype(dtype) == _np.bool_:
            # NumPy: dtype=bool of a comparison is its output's dtype only; the
            # inputs compare in their own types (not cast to bool first)
            dtype = None
        args, out = _split_out(args, self.nin, out, self.nout)
        if _FOREIGN(args, None) or ((out is not None or where is not True) and
                                    _FOREIGN((out, where), None)):
            # other people's arrays (masked arrays, matrix, __array_ufunc__
            # objects): NumPy's ufunc and its dispatch (_foreign)
            kw = dict(kwargs)
            self._kw(kw, out, where, casting, order, dtype, subok)
            return run_foreign(self, '__call__', args, kw)
        # subclass operands: NumPy's override and wrapping protocol (inline
        # checks: this path also serves plain arrays with out=, dtype=, ...)
        sub = out is not None and type(out) is not _ND and (
            isinstance(out, Array) or (type(out) is tuple and _subclass_operand(out, None)))
        for a in args:
            if type(a) is not _ND and isinstance(a, Array):
                sub = True
        if where is not True and type(where) is not _ND and isinstance(where, Array):
            sub = True      # (NumPy looks for overrides in where= too)
        if sub:
            kw = dict(kwargs)
            self._kw(kw, out, where, casting, order, dtype, subok)
            if where is True:
                return _SUBCLASS_CALL(self, '__call__', args, kw)
            with _warnings.catch_warnings():
                # (NumPy's warning for where= without out= was given here, not
                # again where the protocol calls the ufunc on plain views)
                _warnings.filterwarnings('ignore', _WHERE_NO_OUT, UserWarning)
                return _SUBCLASS_CALL(self, '__call__', args, kw)
        if len(args) != self.nin:
            return self._np(*C.to_np_tree(args))   # NumPy's TypeError
        if out is None and subok and needs_array_wrap(args):
            # an input with its own __array_wrap__ (not an array: an object
            # with __array__) wraps the result, as in NumPy
            w = array_wrap_of(args)
            r = self(*[wrap_input(a) for a in args], out=..., where=where, casting=casting,
                     order=order, dtype=dtype, subok=subok, **kwargs)
            if w is None:
                return r
            if isinstance(r, tuple):
                return tuple(apply_array_wrap(w, x, (self, args, i)) for i, x in enumerate(r))
            return apply_array_wrap(w, r, (self, args, 0))
        if casting != 'same_kind':
            D.check_casting(casting)
        if order != 'K':
            C.ravel_order(order)      # NumPy's TypeError/ValueError for a bad order
        if casting not in ('unsafe', 'same_kind') or dtype is not None:
            # (dtype= casts the inputs too: add(int64, 1, dtype=uint16) is
            # NumPy's UFuncTypeError under same_kind; and NumPy refuses a
            # dtype= it has no loop for, sqrt(x, dtype=int8), whatever casting)
            self._numpy_cast_check(args, out, dtype, casting)
        if self._op is None or kwargs or isinstance(out, tuple):
            kw = dict(kwargs)
            self._kw(kw, out, where, casting, order, dtype, subok)
            return self._numpy(args, kw)
        if out is None and not _has_array(args):
            # scalars only: NumPy's scalar result (a where= array as NumPy's:
            # an ndtile one would send NumPy's ufunc back here)
            kw = {}
            self._kw(kw, out, where if where is True else C.to_np_tree(where), casting, order,
                     dtype, subok)
            return _errstate.numpy_call(self._np, *C.to_np_tree(args), **kw)
        if isinstance(out, Array) and not out._flags & 0x400:
            # NumPy's first check, before the operands' values are converted
            raise ValueError("output array is read-only")
        if isinstance(out, Array):
            out._before_write()     # NumPy's warning for a broadcast_arrays result
        try:
            ops = [operand(a) for a in args]
            dtc = D.DEFAULT
            if dtype is not None:
                dtc = D.code_of(dtype)
                if dtc is None:
                    raise _Unsupported(dtype)
            fix_ints(self._op, ops, self._inexact)
            if out is not None and not isinstance(out, Array):
                if not isinstance(out, _np.ndarray) or D.code(out.dtype) is None:
                    raise _Unsupported('out')
        except _Unsupported:
            kw = {}
            self._kw(kw, out, where, casting, order, dtype, subok)
            return self._numpy(args, kw, why='dtype')
        if dtc != D.DEFAULT and self.nout == 1:
            dtc = self._loop_input(ops, dtc, casting)
        if dtc != D.DEFAULT and D.KIND[dtc] in 'iuf':
            _warn_complex_inputs(ops, dtc)
            if casting == 'unsafe':
                # (the core refuses complex inputs to a real loop; NumPy's
                # unsafe cast drops the imaginary part, warned above)
                ops = [o._astype(dtc, _core.CASTING_UNSAFE)
                       if isinstance(o, Array) and D.KIND[o._dt] == 'c' else o for o in ops]
        if out is not None and not isinstance(out, Array):
            # a NumPy array out: compute here, then copy into it
            tmp = C.from_numpy(out) if where is not True else None
            res = self._compute(ops, tmp, where, 'unsafe' if tmp is None else casting, dtc,
                                args)
            _np.copyto(out, C.to_numpy(res) if isinstance(res, Array) else res,
                       casting=casting)
            return out
        res = self._compute(ops, out, where, casting, dtc, args)
        return scalar_result(res) if out is None and scalars else res

    def _loop_input(self, ops, dtc, casting):
        """dtype= names the loop's output dtype (NumPy: signature=(None, ...,
        dtype)), and NumPy's loop for it can take inputs of another dtype:
        absolute(complex128, dtype=float64) is its complex128 -> float64
        loop, not a cast of the input to float64. The core's loop code is
        the inputs' dtype where NumPy's loop has one dtype for all of them
        (dtc itself otherwise, or where NumPy finds no loop: its error comes
        from the checks)."""
        ins = tuple(D.DTYPES[o._dt] if isinstance(o, Array) else
                    _np.dtype(bool) if type(o) is bool else type(o) for o in ops)
        try:
            loop = self._np.resolve_dtypes(ins + (None,), casting=casting,
                                           signature=(None,) * self.nin + (D.DTYPES[dtc],))
        except Exception:
            return dtc
        c = D.code(loop[0])
        if c is None or c == dtc or any(t != loop[0] for t in loop[1:self.nin]):
            return dtc
        return c

    def _kw(self, kw, out, where, casting, order, dtype, subok):
        if out is not None:
            kw['out'] = out
        if where is not True:
            kw['where'] = where
            # (NumPy's warning for where= without out= was given here)
            kw.setdefault('out', None if self.nout == 1 else (None,) * self.nout)
        if casting != 'same_kind':
            kw['casting'] = casting
        if order != 'K':
            kw['order'] = order
        if dtype is not None:
            kw['dtype'] = dtype
        if subok is not True:
            kw['subok'] = subok

    def _core_apply(self, ops, out, dtc):
        return _core.apply(self._op, ops, out, dtc)

    def _compute(self, ops, out, where, casting, dtc, args=None):
        if where is not True:
            return self._masked(ops, out, where, casting, dtc)
        how = _AGREE
        if dtc == D.DEFAULT:
            how = _resolution(self, ops)
            if how >= 0:
                dtc = how
            elif how == _F16_NUMPY:
                if out is None:
                    return self._numpy(ops if args is None else args, {}, why='float16')
                # NumPy's float16 loop (spacing, nextafter of bool, int8,
                # uint8): its float16 result, cast into out
                res = _np.asarray(self._compute(ops, None, True, casting, dtc, args))
                _check_cast(self.__name__, res.dtype, out.dtype, casting, self._out_index)
                out._assign(C.from_numpy(res.astype(_np.float32)), _core.CASTING_UNSAFE)
                return out
        if out is not None and (casting != 'same_kind' or how == _F16_ROUND):
            # computed apart, then cast into out; NumPy's loop is float16
            # for _F16_ROUND, so the float32 result is rounded to float16
            # on the way (exp(int8, out=float64) holds float16 values)
            # NumPy resolves the loop and refuses the output's cast before
            # its loop runs (no warning of it): the loop's dtype from empty
            # stand-ins
            try:
                frm = _F16 if how == _F16_ROUND else \
                    self._core_apply(_stand_ins(ops), None, dtc).dtype
            except TypeError:
                self._numpy_type_error(ops, dtc)     # NumPy's: no loop for the inputs
                raise
            _check_cast(self.__name__, frm, out.dtype, casting, self._out_index)
            if self._op == POWER and type(self) is ufunc:
                _check_int_power(ops, dtc)
            # the cast into out is the loop's: its errors are the ufunc's
            # (sqrt of -1 into an int out: "invalid value encountered in sqrt")
            with fp_named(self.__name__):
                res = self._core_apply(ops, None, dtc)
                if how == _F16_ROUND:
                    res = C.from_numpy(self._to_half(res).astype(_np.float32))
                out._assign(res, _core.CASTING_UNSAFE)
            return out
        if self._op == POWER and type(self) is ufunc:
            _check_int_power(ops, dtc, out)
        try:
            res = self._core_apply(ops, out, dtc)
        except TypeError:
            self._numpy_type_error(ops, dtc, out, casting)
            raise
        if how == _F16_ROUND and out is None:
            return self._to_half(res)
        return res

    def _to_half(self, res):
        """The float32 result rounded to float16, as NumPy's half loop rounds
        it: its overflow and underflow are the op's (exp2(int8(127)) is
        "overflow encountered in exp2"), not a cast's."""
        seen = []
        with _np.errstate(all='call', call=lambda what, flags: seen.append(flags)):
            r = C.to_numpy(res).astype(_F16)
        flags = 0
        for f in seen:
            flags |= f
        if flags:
            _errstate.report([(self.__name__, flags, None)])
        return r

    def _numpy_cast_check(self, args, out, dtype, casting):
        """casting='no'/'equiv'/'safe', or dtype=, checks the inputs' casts as well as
        the output's: NumPy checks them, on empty arrays of the same dtypes
        (Python scalars as they are), and raises its own error."""
        def probe(x):
            if x is None or isinstance(x, (bool, int, float, complex)):
                return x
            dt = x.dtype if isinstance(x, (Array, _np.ndarray, _generic)) else \
                _np.asarray(C.to_np_tree(x)).dtype
            return _np.empty(0, dt)
        kw = {'casting': casting}
        if dtype is not None:
            kw['dtype'] = dtype
        if out is not None:
            kw['out'] = tuple(probe(o) for o in out) if isinstance(out, tuple) else probe(out)
        try:
            with _warnings.catch_warnings():
                # (only its errors: the call itself gives NumPy's warnings)
                _warnings.simplefilter('ignore', _np.exceptions.ComplexWarning)
                self._np(*[probe(a) for a in args], **kw)
        except (TypeError, OverflowError) as e:
            raise e from None
        except Exception:
            pass

    def _numpy_type_error(self, ops, dtc, out=None, casting='same_kind'):
        """Raises NumPy's own exception (its class and message) when NumPy
        refuses these operand types (or this out='s dtype) too: found on
        empty arrays of the operands' dtypes, after the core refused them
        (its out= cast error names the core's op and loop: fabs runs on
        absolute, float16 loops in float32)."""
        def empty(o):
            return _np.empty(0, o.dtype) if isinstance(o, (Array, _np.ndarray)) else o
        probe = [empty(o) for o in ops]
        kw = {} if dtc == D.DEFAULT else {'dtype': D.DTYPES[dtc]}
        if isinstance(out, tuple) and any(isinstance(o, Array) for o in out):
            kw['out'] = tuple(empty(o) for o in out)     # (divmod's, frexp's outputs)
            kw['casting'] = casting
        elif isinstance(out, Array):
            kw['out'] = _np.empty(0, out.dtype)
            kw['casting'] = casting
        try:
            self._np(*probe, **kw)
        except TypeError as e:
            raise e from None
        except Exception:
            pass

    def _masked(self, ops, out, where, casting, dtc):
        try:
            return self._masked_call(ops, out, where, casting, dtc)
        except FloatingPointError:
            if out is None:
                raise
            # NumPy's loop writes every selected element, then raises the
            # error of the 'raise' state: out= holds them too
            with _np.errstate(all='ignore'):
                self._masked_call(ops, out, where, casting, dtc)
            raise

    def _masked_call(self, ops, out, where, casting, dtc):
        mask = _where_mask(where)
        if out is not None:
            # the output's cast error first (NumPy resolves the loop before
            # its loop sees an element, and warns of none): from empty
            # stand-ins
            r0 = self._compute(_stand_ins(ops), None, True, casting, dtc)
            if r0.dtype != out.dtype:
                with _warnings.catch_warnings():
                    # (its error only: the ComplexWarning comes with the cast)
                    _warnings.simplefilter('ignore', _np.exceptions.ComplexWarning)
                    _check_cast(self.__name__, r0.dtype, out.dtype, casting, self._out_index)
        if self._op == POWER and type(self) is ufunc and len(ops) == 2:
            # NumPy's integer power refuses a negative exponent only where
            # where= selects the element: the others' exponents become 0
            # (their results are not kept)
            e = ops[1]
            if isinstance(e, Array) and D.KIND[e._dt] == 'i':
                ops = (ops[0], UFUNCS['multiply']._arrays(e, mask))
            elif type(e) is int and e < 0 and \
                    not bool(_core.reduce(4, mask, None, False, D.DEFAULT, 0)._item()):
                ops = (ops[0], 0)
        res = self._masked_values(ops, mask, casting, dtc)
        if not isinstance(res, Array):
            # a float16 result (NumPy's loop for bool, int8, uint8 inputs):
            # NumPy's array, or its values cast into out
            res = _np.asarray(res)
            m = C.to_numpy(mask) if isinstance(mask, Array) else _np.asarray(mask)
            if out is None:
                r = _np.zeros(_np.broadcast_shapes(res.shape, m.shape), res.dtype)
                _np.copyto(r, res, where=m)
                return r
            _check_cast(self.__name__, res.dtype, out.dtype, casting, self._out_index)
            res = C.from_numpy(res.astype(_np.float32))._astype(out._dt, _core.CASTING_UNSAFE)
            return _core.apply(WHERE, [mask, res, out], out)
        if out is None:
            shape = _core.broadcast_shapes([res.shape, mask.shape])
            out = _core.empty(shape, res._dt)
            out._assign(res, _core.CASTING_UNSAFE)
            return out
        if out._dt != res._dt:
            # NumPy's output cast: its casting rule and ComplexWarning (made
            # for the masked elements too)
            _check_cast(self.__name__, res.dtype, out.dtype, casting, self._out_index)
            res = self._masked_cast(res, mask, out._dt)
        return _core.apply(WHERE, [mask, res, out], out)

    def _masked_cast(self, res, mask, dt):
        """res cast (unsafely) to dt for where= (mask): the cast is NumPy's
        loop's, so its floating-point errors are those of the elements mask
        selects (1e300 left out by where= is no 'overflow' into float32),
        named for the ufunc. Tried under 'raise' first; where that finds an
        error, the left-out elements become 0 and the cast runs again in the
        caller's error state."""
        r = _without_fp_error(lambda: res._astype(dt, _core.CASTING_UNSAFE))
        if r is not None:
            return r
        shape = _core.broadcast_shapes([res.shape, mask.shape])
        mb = mask._broadcast_to(shape) if mask.shape != shape else mask
        zero = _core.empty((), res._dt)
        zero._assign(0, _core.CASTING_UNSAFE)
        res = _core.apply(WHERE, [mb, res, zero])
        with fp_named(self.__name__):
            return res._astype(dt, _core.CASTING_UNSAFE)

    def _masked_values(self, ops, mask, casting, dtc):
        """The ufunc of ops for where= (mask), its floating-point errors those
        of the elements mask selects: NumPy's loop skips the others (0/0
        where where= is False is no 'invalid value'). Run on all elements
        under 'raise' first; where that finds an error, run again with each
        left-out element's operands replaced by those of one selected
        element, in the caller's error state (values there are not kept)."""
        r = _without_fp_error(lambda: self._compute(ops, None, True, casting, dtc))
        if r is not None:
            return r
        shape = _core.broadcast_shapes([x.shape for x in ops if isinstance(x, Array)] +
                                       [mask.shape])
        mb = mask._broadcast_to(shape) if mask.shape != shape else mask
        if not mb.size or not bool(_core.reduce(_ANY, mb, None, False, D.DEFAULT, 0)._item()):
            with _np.errstate(all='ignore'):     # nothing selected
                return self._compute(ops, None, True, casting, dtc)
        at = _np.unravel_index(int(_core.reduce(_ARGMAX, mb, None, False, D.DEFAULT, 0)._item()),
                               shape)
        subs = []
        for x in ops:
            if isinstance(x, Array) and x.ndim and x.size:
                lead = len(shape) - x.ndim
                one = x._view_index(tuple(0 if n == 1 else int(at[lead + d])
                                          for d, n in enumerate(x.shape)))
                x = _core.apply(WHERE, [mb, x, one])
            subs.append(x)
        return self._compute(subs, None, True, casting, dtc)

    # -- methods -----------------------------------------------------------

    def outer(self, A, B, /, **kwargs):
        if _FOREIGN((A, B), kwargs):
            return run_foreign(self, 'outer', (A, B), kwargs)
        if _subclass_operand((A, B), kwargs.get('out')):
            return _SUBCLASS_CALL(self, 'outer', (A, B), kwargs)
        if self.nin != 2 or self._op is None:
            return F.call(self.__name__ + '.outer', self._np.outer, (A, B), kwargs)
        a = C.asarray(A)
        b = C.asarray(B)
        if not isinstance(a, Array) or not isinstance(b, Array):
            return F.call(self.__name__ + '.outer', self._np.outer, (A, B), kwargs)
        a = a._reshape(a.shape + (1,) * b.ndim)
        return self(a, b, **kwargs)


def _check_int_power(ops, dtc, out=None):
    """NumPy: 'Integers to negative integer powers are not allowed.' - when
    the loop is an integer one (uint64 with int64 runs in float64) and some
    element of the (non-empty) broadcast result has a negative exponent."""
    b, e = ops[0], ops[1]
    if dtc != D.DEFAULT:
        if not D.is_int(dtc) or D.KIND[dtc] == 'u':
            return
        # dtype= of an integer: the exponent as the loop sees it, cast to
        # dtc (float64 -1.5 is -1, uint8 255 as int8 is -1)
        if isinstance(e, Array):
            if e._dt != dtc:
                e = e._astype(dtc, _core.CASTING_UNSAFE)
        elif type(e) in (float, complex, bool):
            with _np.errstate(all='ignore'), _warnings.catch_warnings():
                _warnings.simplefilter('ignore')
                e = int(_np.asarray(e).astype(D.DTYPES[dtc]))
    else:
        kinds = [D.DTYPES[x._dt] if isinstance(x, Array) else None for x in (b, e)]
        if any(k is None and type(x) not in (int, bool) for k, x in zip(kinds, (b, e))):
            return
        # Python ints are weak: bool ** -1 runs in the default int loop
        dts = [k if k is not None else 0 for k, x in zip(kinds, (b, e)) if k is not None or type(x) is int]
        res = _np.result_type(*dts)
        if res.kind not in 'iu':
            return
        if out is not None and not _np.can_cast(res, out.dtype, 'same_kind'):
            return    # the output's cast error comes first (the core raises it)
    if isinstance(e, Array):
        if not D.is_int(e._dt) or D.KIND[e._dt] == 'u':
            return
    elif not (type(e) is int and e < 0):
        return
    shapes = [tuple(x.shape) for x in (b, e) if isinstance(x, Array)]
    if 0 in _np.broadcast_shapes(*shapes):
        return
    if isinstance(e, Array) and not (e.size and bool(_core.reduce(
            4, _core.apply(_CORE_INDEX['less'], [e, 0]), None, False, D.DEFAULT, 0)._item())):
        return
    raise ValueError("Integers to negative integer powers are not allowed.")


def _check_cast(name, frm, to, casting, index=0):
    """NumPy's output-cast check, raising its own exception class
    (_UFuncOutputCastingError, a UFuncTypeError) with its message (index:
    the output's operand index, nin + k, which NumPy names for ufuncs of
    several outputs)."""
    if not _np.can_cast(frm, to, casting):
        raise _UFuncOutputCastingError(getattr(_np, name), casting, _np.dtype(frm),
                                       _np.dtype(to), index)
    c, t = D.code(frm), D.code(to)
    if c is not None and t is not None and D.KIND[c] == 'c':
        _core.warn_complex_cast(c, t)   # (the ufunc call's caller)


def _ufunc_type_error(msg):
    e = UFuncTypeError.__new__(UFuncTypeError, msg)
    e.args = (msg,)
    return e


class _fabs(ufunc):
    _inexact = True

    def _core_apply(self, ops, out, dtc):
        for o in ops:
            if isinstance(o, Array) and D.KIND[o._dt] == 'c':
                raise _ufunc_type_error("ufunc 'fabs' not supported for the input types, and the "
                                        "inputs could not be safely coerced to any supported "
                                        "types according to the casting rule ''safe''")
        a = ops[0]
        if isinstance(a, Array) and D.KIND[a._dt] in 'biu' and dtc == D.DEFAULT:
            # NumPy: float16 for the small types (fixed up by _compute), else float64
            dtc = D.FLOAT32 if a._dt in _SMALL else D.FLOAT64
        return _core.apply(_CORE_INDEX['absolute'], ops, out, dtc)


class _divmod(ufunc):
    def __call__(self, x1, x2, /, *args, out=_NO_OUT, **kwargs):
        if len(args) > 2:
            raise TypeError(f"divmod() takes from 2 to 4 positional arguments but "
                            f"{len(args) + 2} were given")
        _, ellipsis = _out_given((x1, x2) + args, 2, out, kwargs.get('where', True))
        if ellipsis:
            return _as_array_result(self(x1, x2, *args, out=(None, None), **kwargs))
        args, out = _multi_out((x1, x2) + args, 2, 2, out)
        where = kwargs.get('where', True)
        if _subclass_operand(args, out) or (where is not True and type(where) is not _ND and
                                            isinstance(where, Array)):
            # subclass operands: the override protocol for divmod itself
            kw = dict(kwargs)
            if out is not None:
                kw['out'] = out
            return _SUBCLASS_CALL(self, '__call__', args, kw)
        if kwargs:
            # (out= always given: NumPy's warning for where= was given here)
            return self._numpy(args, dict(kwargs, out=(None, None) if out is None else out))
        if out is None and needs_array_wrap(args):
            w = array_wrap_of(args)
            r = self(*[wrap_input(a) for a in args], out=...)
            if w is None:
                return r
            return tuple(apply_array_wrap(w, x, (self, args, i)) for i, x in enumerate(r))
        if out is None and not _has_array(args):
            # scalars: NumPy's scalars, its errors named divmod
            return _errstate.numpy_call(self._np, *C.to_np_tree(args))
        o1, o2 = out if isinstance(out, tuple) else (None, None)
        if all(type(a) is _ND or type(a) in (bool, int, float) for a in args) and \
                any(type(a) is _ND for a in args):
            how = _resolution(floor_divide, args)
            if how == _NO_LOOP:
                self._numpy_type_error(args, D.DEFAULT)    # NumPy's, naming divmod
            elif how == _AGREE and o1 is None and o2 is None:
                # the core's divmod: one op, its errors reported as "divmod"
                # (a Python int out of the loop's range: NumPy's OverflowError)
                ops = list(args)
                fix_ints(_CORE_INDEX['floor_divide'], ops)
                return _core.divmod(ops, None, None, D.DEFAULT, True)
        if out is not None:
            args = check_outs(self, args, out)
        # NumPy's one loop reads an element before it writes it: a quotient
        # written over an input is made apart and written after the remainder
        later = o1 is not None and any(_may_share(o1, a) for a in args)
        _core.fp_group_begin('divmod')
        try:
            q = floor_divide(*args, out=... if later else o1)
            r = remainder(*args, out=o2)
            if later:
                q = _copy_into(o1, q)
        except TypeError:
            # NumPy's exception names divmod (the halves' name floor_divide)
            self._numpy_type_error(args, D.DEFAULT, (o1, o2))
            raise
        finally:
            _core.fp_group_end()
        return q, r


def check_outs(u, args, outs, casting='same_kind'):
    """NumPy's checks of the outputs of a ufunc of several outputs, in its
    order and before any work: each an array and writeable, the loop's
    casts into them (NumPy's own resolution, on empty stand-ins), then the
    broadcast of every operand, no output broadcast. Returns args, broadcast
    where an output is larger than their broadcast."""
    given = [o for o in outs if o is not None]
    for o in given:
        if not isinstance(o, (Array, _np.ndarray)):
            raise TypeError("return arrays must be of ArrayType")
        if not o.flags.num & 0x400:     # (flags.num: no FutureWarning for a
            raise ValueError("output array is read-only")   # broadcast_arrays result)
    ins = [a if type(a) in (bool, int, float, complex) else   # (weak: NumPy's rules)
           _np.empty(0, a.dtype if hasattr(a, 'dtype') else _np.asarray(C.to_np_tree(a)).dtype)
           for a in args]
    u._np(*ins, out=tuple(None if o is None else _np.empty(0, o.dtype) for o in outs),
          casting=casting)
    shapes = [tuple(a.shape) if isinstance(a, (Array, _np.ndarray)) else _np.shape(a)
              for a in args] + [tuple(o.shape) for o in given]
    full = tuple(_core.broadcast_shapes(shapes))
    for o in given:
        if tuple(o.shape) != full:
            raise ValueError(f"non-broadcastable output operand with shape {C.shape_str(o.shape)} "
                             f"doesn't match the broadcast shape {C.shape_str(full)}")
    if len(given) < len(outs) and full != tuple(_core.broadcast_shapes(shapes[:len(args)])):
        # an output larger than the inputs' broadcast: NumPy's other
        # outputs have its shape too (the inputs broadcast to it)
        args = tuple(a._broadcast_to(full) if isinstance(a, Array) and tuple(a.shape) != full
                     else a for a in args)
    return args


def _may_share(o, a):
    if isinstance(o, Array) and isinstance(a, Array):
        return o._same_memory(a)
    if isinstance(o, _np.ndarray) and isinstance(a, _np.ndarray):
        return _np.may_share_memory(o, a)
    return False


def _copy_into(out, value):
    """out[...] = value (the quotient made apart), out an ndtile or NumPy array."""
    if isinstance(out, _np.ndarray):
        _np.copyto(out, C.to_numpy(value) if isinstance(value, Array) else value)
    else:
        out._assign(value, _core.CASTING_UNSAFE)
    return out


class _spacing(ufunc):
    """spacing: NumPy's float16 loop (bool, int8, uint8 inputs) gives the
    float16 ULP, not float32's: for these integers (zero or normal float16
    values) that is 2**(e - 11) with e frexp's exponent, 2**-24 at zero,
    positive for negative inputs too and half as large for negative powers
    of two (NumPy's npy_half_spacing)."""

    def _compute(self, ops, out, where, casting, dtc, args=None):
        x = ops[0]
        if out is None and where is True and dtc == D.DEFAULT and isinstance(x, Array) and \
                _resolution(self, ops) == _F16_NUMPY:
            xf = x._astype(D.FLOAT32, _core.CASTING_UNSAFE)
            e = _core.apply(_CORE_INDEX['_frexp_exponent'], [xf])
            # a negative power of two: the step toward zero, half as large
            m = _core.apply(_CORE_INDEX['frexp'], [xf])
            # (the core's ops: arrays, 0-d ones too)
            ap = _core.apply
            e = ap(_CORE_INDEX['subtract'], [e, ap(_CORE_INDEX['equal'], [m, -0.5])._astype(
                D.INT32, _core.CASTING_UNSAFE)])
            s = ap(_CORE_INDEX['ldexp'], [_core.scalar(1.0, D.FLOAT32, False),
                                          ap(_CORE_INDEX['subtract'], [e, 11])])
            s = ap(WHERE, [ap(_CORE_INDEX['equal'], [xf, 0]),
                           _core.scalar(2.0 ** -24, D.FLOAT32, False), s])
            return C.to_numpy(s).astype(_F16)
        return ufunc._compute(self, ops, out, where, casting, dtc, args)


class _ldexp(ufunc):
    """ldexp: a Python int exponent runs in NumPy's int32 loop ('fi', 'di'),
    not promoted with the mantissa (the core resolves it so); values beyond
    int32 are NumPy's OverflowError (two Python scalars are NumPy's own
    scalar call, float64 and int64: ldexp(2., 2**40) is inf)."""

    def __call__(self, *args, **kwargs):
        if len(args) >= 2 and type(args[1]) is int and not -2**31 <= args[1] < 2**31 and \
                type(args[0]) not in (bool, int, float):
            if -2**63 <= args[1] < 2**63:
                raise OverflowError(f"Python integer {args[1]} out of bounds for int32")
            raise OverflowError("Python int too large to convert to C long")
        return ufunc.__call__(self, *args, **kwargs)


class _gcd_lcm(ufunc):
    """gcd and lcm. gcd.reduce runs natively as a fixed tree of elementwise
    calls (halves folded pairwise, log2(n) levels, each tiled and parallel):
    gcd is exactly associative and commutative on integers, so the tree gives
    NumPy's values. lcm.reduce falls back: where an lcm wraps around, only
    NumPy's sequential order gives NumPy's values."""


class _Half:
    """One output of a two-output NumPy ufunc (frexp, modf) seen as a
    one-output ufunc: the core computes each output as its own op."""

    def __init__(self, npu, k):
        self._u = npu
        self._k = k
        self.__name__ = npu.__name__
        self.__doc__ = npu.__doc__
        self.nin = npu.nin
        self.nout = 1
        self.nargs = npu.nin + 1
        self.identity = None
        self.ntypes = npu.ntypes
        self.types = npu.types
        self.signature = None

    def resolve_dtypes(self, dtypes, **kwargs):
        r = self._u.resolve_dtypes(tuple(dtypes[:self.nin]) + (None,) * self._u.nout, **kwargs)
        return r[:self.nin] + (r[self.nin + self._k],)

    def __call__(self, *args, **kwargs):
        # out= (by position or keyword) is this output's: NumPy's ufunc
        # takes a tuple with one entry per output
        if len(args) > self.nin:
            kwargs['out'] = args[self.nin]
            args = args[:self.nin]
        out = kwargs.get('out')
        if type(out) is tuple and len(out) == 1:
            out = out[0]
        if out is not None and type(out) is not tuple:
            kwargs['out'] = tuple(out if i == self._k else None for i in range(self._u.nout))
        return self._u(*args, **kwargs)[self._k]


class _two_outputs(ufunc):
    """frexp and modf: two core ops on the same input, one per output."""

    def __init__(self, npu, ops):
        self._halves = tuple(ufunc(_Half(npu, k), op) for k, op in enumerate(ops))
        for k, h in enumerate(self._halves):
            h._out_index = npu.nin + k
        ufunc.__init__(self, npu, ops[0])

    def __call__(self, *args, out=_NO_OUT, where=True, casting='same_kind', order='K',
                 dtype=None, subok=True, **kwargs):
        _, ellipsis = _out_given(args, self.nin, out, where)
        if ellipsis:
            return _as_array_result(self(*args, out=(None,) * self.nout, where=where,
                                         casting=casting, order=order, dtype=dtype,
                                         subok=subok, **kwargs))
        if len(args) < self.nin or len(args) > self.nin + self.nout:
            return self._np(*C.to_np_tree(args))   # NumPy's TypeError
        args, out = _multi_out(args, self.nin, self.nout, out)
        kw = dict(kwargs)
        self._kw(kw, out, where, casting, order, dtype, subok)
        if _subclass_operand(args, out) or (where is not True and type(where) is not _ND and
                                            isinstance(where, Array)):
            # subclass operands: the override protocol for this ufunc (not
            # for each half)
            return _SUBCLASS_CALL(self, '__call__', args, kw)
        if kwargs or dtype is not None or order != 'K' or subok is not True:
            return self._numpy(args, kw)
        if out is None and not _has_array(args):
            return _errstate.numpy_call(self._np, *C.to_np_tree(args), **kw)  # NumPy's scalars
        if out is None and needs_array_wrap(args):
            w = array_wrap_of(args)
            r = self(*[wrap_input(a) for a in args], out=..., where=where, casting=casting)
            if w is None:
                return r
            return tuple(apply_array_wrap(w, x, (self, args, i)) for i, x in enumerate(r))
        outs = out if out is not None else (None, None)
        try:
            operand(args[0])
            if any(o is not None and not isinstance(o, Array) for o in outs):
                raise _Unsupported('out')
        except _Unsupported:
            return self._numpy(args, kw, why='dtype')
        if out is not None:
            args = check_outs(self, args, outs, casting)
        x = args[0]
        if _may_share(outs[0], x):
            # NumPy's one loop reads an element before it writes either
            # output: the second half must not read the first one's writes
            # (`np.modf(a, out=(a, w))` gave w the integral part of the
            # fraction, 0)
            x = x.copy()
        return tuple(h(x, out=o, where=where, casting=casting)
                     for h, o in zip(self._halves, outs))


class _matvec(ufunc):
    """matvec (m,n),(n)->(m) and vecmat (n),(n,m)->(m) through the core's
    matmul: x1 @ x2[..., None] and conj(x1)[..., None, :] @ x2."""

    def __init__(self, npu, op):
        ufunc.__init__(self, npu, op)
        self._vecmat = npu.__name__ == 'vecmat'

    def __call__(self, *args, out=None, **kwargs):
        args, out = _split_out(args, 2, out)
        if len(args) != 2 or kwargs or not (out is None or isinstance(out, Array)):
            kw = dict(kwargs)
            if out is not None:
                kw['out'] = out
            if len(args) != 2:
                return self._np(*C.to_np_tree(args), **kw)
            return self._numpy(args, kw)
        a, b = (C.asarray(x) for x in fix_gufunc_ints(args))
        if not isinstance(a, Array) or not isinstance(b, Array):
            return self._numpy(args, {} if out is None else {'out': out}, why='dtype')
        if out is not None and not out.flags.num & 0x400:
            raise ValueError("output array is read-only")     # (the gufunc's first check)
        name = self.__name__
        if out is not None:
            # NumPy's loop resolution, before the core dimensions are looked at
            _check_cast(name, _np.result_type(a.dtype, b.dtype), out.dtype, 'same_kind')
        sig = '(n),(n,m)->(m)' if self._vecmat else '(m,n),(n)->(m)'
        need = (1, 2) if self._vecmat else (2, 1)
        for i, (x, r) in enumerate(zip((a, b), need)):
            if x.ndim < r:
                raise ValueError(f"{name}: Input operand {i} does not have enough dimensions "
                                 f"(has {x.ndim}, gufunc core with signature {sig} requires {r})")
        n0 = a.shape[-1]
        n1 = b.shape[-2] if self._vecmat else b.shape[-1]
        if n0 != n1:
            raise ValueError(f"{name}: Input operand 1 has a mismatch in its core dimension 0, "
                             f"with gufunc signature {sig} (size {n1} is different from {n0})")
        m = b.shape[-1] if self._vecmat else a.shape[-2]
        batch_a = a.shape[:a.ndim - need[0]]
        batch_b = b.shape[:b.ndim - need[1]]
        try:
            batch = tuple(_core.broadcast_shapes([batch_a, batch_b]))
        except ValueError:
            raise ValueError(f"operands could not be broadcast together with remapped shapes "
                             f"[original->remapped]: {a.shape} and {b.shape}") from None
        if self._vecmat:
            if a.dtype.kind == 'c':
                a = UFUNCS['conjugate'](a)
            r = _core.matmul(a._reshape(a.shape[:-1] + (1, n0)), b, None)
            r = r._reshape(r.shape[:-2] + (m,))
        else:
            r = _core.matmul(a, b._reshape(b.shape + (1,)), None)
            r = r._reshape(r.shape[:-1])
        if out is None:
            return scalar_result(r)
        if tuple(out.shape) != batch + (m,):
            if out.ndim < 1 or out.shape[-1] != m:
                raise ValueError(f"{name}: Output operand 0 has a mismatch in its core "
                                 f"dimension 0, with gufunc signature {sig} (size "
                                 f"{out.shape[-1] if out.ndim else 0} is different from {m})")
            raise ValueError(f"non-broadcastable output operand with shape {tuple(out.shape)} "
                             f"doesn't match the broadcast shape {batch + (m,)}")
        _check_cast(name, r.dtype, out.dtype, 'same_kind')
        out._assign(r, _core.CASTING_UNSAFE)
        return out

    def reduce(self, *args, **kwargs):
        return F.call(self.__name__ + '.reduce', self._np.reduce, args, kwargs)

    def accumulate(self, *args, **kwargs):
        return F.call(self.__name__ + '.accumulate', self._np.accumulate, args, kwargs)

    def outer(self, *args, **kwargs):
        return F.call(self.__name__ + '.outer', self._np.outer, args, kwargs)


class _vecdot(_matvec):
    """vecdot (n),(n)->(): sum over the last axis (or axis=) of conj(x1) * x2."""


class _isnat(ufunc):
    """isnat: ndtile holds no datetime or timedelta arrays, so every ndtile
    operand gets NumPy's TypeError (NumPy arrays of those dtypes still go to
    NumPy)."""

    def __call__(self, *args, **kwargs):
        if args and isinstance(args[0], _np.ndarray) and args[0].dtype.kind in 'mM':
            return self._np(*args, **kwargs)
        if args and isinstance(args[0], (_np.datetime64, _np.timedelta64)):
            return self._np(*args, **kwargs)
        raise TypeError("ufunc 'isnat' is only defined for np.datetime64 and "
                        "np.timedelta64.")


# name: (class, core op); any other ufunc is a plain ufunc running the core op
# of its own name (None: NumPy's). A pair of ops is one per output; -1 is no
# elementwise op (the core's matmul, a reduction, or none).
_SPECIAL = {
    'fabs': (_fabs, _CORE_INDEX['absolute']),
    'divmod': (_divmod, _CORE_INDEX['floor_divide']),
    'frexp': (_two_outputs, (_CORE_INDEX['frexp'], _CORE_INDEX['_frexp_exponent'])),
    'modf': (_two_outputs, (_CORE_INDEX['modf'], _CORE_INDEX['_modf_integral'])),
    'matvec': (_matvec, -1), 'vecmat': (_matvec, -1), 'vecdot': (_vecdot, -1),
    'isnat': (_isnat, -1),
    'spacing': (_spacing, _CORE_INDEX['spacing']),
    'ldexp': (_ldexp, _CORE_INDEX['ldexp']),
    'gcd': (_gcd_lcm, _CORE_INDEX['gcd']),
    'lcm': (_gcd_lcm, _CORE_INDEX['lcm']),
}


def wrap_numpy_ufunc(npu):
    """The ndtile ufunc for a NumPy ufunc object (made once)."""
    u = BY_NP.get(npu)
    if u is None:
        name = npu.__name__
        cls, op = _SPECIAL.get(name) or (ufunc, _CORE_INDEX.get(name))
        u = cls(npu, op)
        BY_NP[npu] = u
        BY_NAME.setdefault(name, u)
    return u


def all_numpy_ufuncs():
    """(name, numpy ufunc) for every ufunc in the numpy namespace."""
    for name, obj in sorted(vars(_np).items()):   # vars: no lazy submodule imports
        if isinstance(obj, _np.ufunc) and not name.startswith('_'):
            yield name, obj


UFUNCS = {}
for _name, _npu in all_numpy_ufuncs():
    UFUNCS[_name] = wrap_numpy_ufunc(_npu)
globals().update(UFUNCS)


class _Matmul(ufunc):
    """matmul runs in the core (OpenBLAS per block) for ndtile-able operands."""

    def __call__(self, *args, out=None, **kwargs):
        # (an operand with its own __array_ufunc__, a pint Quantity whose
        # __array__ gives an ndtile array, goes to ufunc.__call__'s protocol)
        if len(args) == 2 and not kwargs and (out is None or isinstance(out, Array)) and \
                not _subclass_operand(args, out) and not _FOREIGN(args, None):
            a, b = (C.asarray(x) for x in fix_gufunc_ints(args))
            if isinstance(a, Array) and isinstance(b, Array):
                if out is not None and not _np.can_cast(_np.result_type(a.dtype, b.dtype),
                                                        out.dtype, 'same_kind'):
                    # NumPy's exception class (the core's is a plain UFuncTypeError)
                    _check_cast('matmul', _np.result_type(a.dtype, b.dtype), out.dtype,
                                'same_kind', 2)
                r = _core.matmul(a, b, out)
                return r if out is not None else scalar_result(r)
        if 'where' in kwargs:
            # a gufunc takes no where= (NumPy's TypeError, even for where=True)
            raise TypeError("matmul() got an unexpected keyword argument 'where'")
        return ufunc.__call__(self, *args, out=out, **kwargs)


UFUNCS['matmul'] = matmul = _Matmul(_np.matmul, None)
BY_NP[_np.matmul] = matmul
floor_divide = UFUNCS['floor_divide']
remainder = UFUNCS['remainder']
_BY_OP = {}
for _u in BY_NP.values():
    if _u._op is not None and type(_u) is ufunc:
        _BY_OP.setdefault(_u._op, _u)


def by_op(op):
    return _BY_OP[op]


_MISSING = object()
_ALL_DECLINED = "operand type(s) all returned NotImplemented from __array_ufunc__"


def run_foreign(u, method, args, kwargs):
    """A ufunc method with other people's arrays among its operands: NumPy's
    ufunc and its override protocol on NumPy copies of the ndtile arrays
    (_foreign). When every override there declines, the protocol once more
    with the operands themselves and ndtile's ufunc (the one the program
    called): a class written for ndtile's arrays lists ndtile.ndarray among
    the types it handles (NumPy's NDArrayOperatorsMixin example, with
    np.ndarray, under import ndtile as np), and declines NumPy's arrays."""
    name = u.__name__ if method == '__call__' else f"{u.__name__}.{method}"
    try:
        return F.run_numpy(u._np if method == '__call__' else getattr(u._np, method),
                           args, kwargs, name)
    except TypeError as e:
        # without an ndtile array among the operands the overrides saw them
        # as they are and all declined: NumPy asks each one once
        if not str(e).startswith(_ALL_DECLINED) or not _has_ndtile_operand(args, kwargs):
            raise
        r = _native_overrides(u, method, args, kwargs)
        if r is NotImplemented:
            raise
        return r


def _has_ndtile_operand(args, kwargs):
    out = kwargs.get('out', None)
    outs = out if type(out) is tuple else (out,)
    return any(isinstance(x, Array) for x in (*args, *outs, kwargs.get('where', True)))


def override_order(objs, overrides):
    """NumPy's order of the __array_ufunc__ overrides among objs (NEP 13):
    one object per type, for which overrides(x) holds, a subclass before
    its bases, else left to right."""
    over = []
    for x in objs:
        t = type(x)
        if not overrides(x) or any(type(o) is t for o in over):
            continue
        for i, o in enumerate(over):
            if issubclass(t, type(o)):
                over.insert(i, x)
                break
        else:
            over.append(x)
    return over


def _native_overrides(u, method, args, kwargs):
    """NumPy's override protocol (NEP 13) for the operands that are no
    one's arrays but their own (not ndtile's, not NumPy's): subclasses
    before their bases, else left to right; out= as a tuple, or not at all."""
    kw = dict(kwargs)
    out = kw.pop('out', None)
    outs = () if out is None else out if type(out) is tuple else (out,)
    if any(o is not None for o in outs):
        kw['out'] = outs
    where = kw.get('where', True)
    over = override_order(tuple(args) + outs + ((where,) if where is not True else ()),
                          lambda x: not isinstance(x, (Array, _np.ndarray)) and
                          getattr(type(x), '__array_ufunc__', None) is not None)
    for o in over:
        r = type(o).__array_ufunc__(o, u, method, *args, **kw)
        if r is not NotImplemented:
            return r
    return NotImplemented


def _power_shortcut(a, b):
    inexact = D.KIND[a._dt] in 'fc'
    if type(b) is int and (b == 2 or (b == -1 and inexact)):
        return UFUNCS['square' if b == 2 else 'reciprocal']
    if type(b) is float and b == 0.5 and inexact:
        return UFUNCS['sqrt']
    return None


def _priority(x, default):
    """x.__array_priority__ as NumPy reads it: a priority that is missing,
    not a number or raises is a scalar's (-1e6), the error cleared."""
    try:
        p = getattr(x, '__array_priority__')
    except AttributeError:
        return default
    except Exception:
        return -1000000.0
    try:
        return float(p)
    except Exception:
        return -1000000.0


def binop_defers(a, b, inplace):
    """NumPy's binop deferral: whether an operator of the array a (or of the
    array b, reflected) with the other operand returns NotImplemented."""
    other = a if not isinstance(a, Array) else b
    if other is b and not inplace and isinstance(b, _np.ndarray) and type(b) is not _np.ndarray:
        # a NumPy subclass on the right (a masked array): its reflected
        # operator, as Python gives it the first go after a numpy.ndarray
        # (MaskedArray.__rpow__ masks invalid powers, np.ma's way)
        return True
    f = getattr(type(other), '__array_ufunc__', _MISSING)
    if f is None:
        # NumPy: not for an in-place operator (the ufunc raises TypeError)
        return not inplace
    if f is _MISSING and other is b and not isinstance(
            other, (int, float, complex, _np.ndarray, _generic, list, tuple)) and \
            _priority(other, -float('inf')) > (0.0 if type(a) is _ND else _priority(a, 0.0)):
        # NumPy's legacy deferral: an object without __array_ufunc__ but of
        # higher __array_priority__ gets its reflected operator
        return True
    return False


def binop_hook(op, a, b, inplace):
    """Called by the C number slots for operands they do not handle, and
    where the core refused the operand types (NumPy's exception then)."""
    if binop_defers(a, b, inplace):
        return NotImplemented
    u = _BY_OP[op]
    if op == POWER and type(a) is not _ND and isinstance(a, Array):
        # a subclass operand (the C slot's shortcuts are for plain arrays):
        # NumPy's ndarray.__pow__ shortcuts, so that __array_ufunc__ and
        # __array_wrap__ see the ufunc NumPy calls
        u = _power_shortcut(a, b) or u
    if inplace:
        return u(a, b, out=a) if u.nin == 2 else u(a, out=a)
    if u.nin == 1:
        return u(a)
    if op == _EQ or op == _NE:
        try:
            return u(a, b)
        except TypeError:
            if any(type(x) is not _ND and isinstance(x, Array) and
                   getattr(type(x), '__array_ufunc__', 0) is None for x in (a, b)):
                raise       # a subclass with __array_ufunc__ = None: NumPy's TypeError
            # ndarray == and != answer all False / all True where the ufunc
            # has no loop (a float array == 'a'); NumPy decides, on the data
            f = operator.eq if op == _EQ else operator.ne
            return C.np_or_nd(f(C.to_np_tree(a), C.to_np_tree(b)))
    return u(a, b)


_EQ = _CORE_INDEX['equal']
_NE = _CORE_INDEX['not_equal']


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


def _nd_or_fallback(name, npfunc, args, kwargs, *arrays):
    """Converts arrays; returns (list, None) or (None, fallback result)."""
    if args and name in _WRAPFUNC and type(args[0]) is not C.ND and duck_of(args[0]):
        r = wrapfunc(name, args, kwargs)
        if r is not _NO_WRAP:
            return None, r
    elif args and type(args[0]) is not C.ND and isinstance(args[0], Array):   # () for broadcast_arrays()
        if name in _METHOD_FORMS:
            # NumPy's function calls the method of a subclass instance
            return None, C.subclass_method(name, args, kwargs)
        if name in _TEMPLATE_FORMS:
            # NumPy's function makes its result from the subclass instance
            # (a view or a copy of it): this function on a plain view, the
            # result in the instance's class (the function by its name in the
            # ndtile namespace: it is defined in a module above this one)
            r = getattr(_sys.modules[__package__], name)(args[0]._view(), *args[1:], **kwargs)
            return None, C.subclass_like(r, args[0])
    out = []
    for a in arrays:
        x = C.asarray(a)
        if not isinstance(x, Array):
            return None, F.call(f"{name} (dtype)", npfunc, args, kwargs)
        out.append(x)
    return out, None


# the functions NumPy's fromnumeric runs through _wrapfunc (an object's own
# method, else the function of its array wrapped by its __array_wrap__)
_WRAPFUNC = frozenset(('take', 'repeat', 'clip', 'round',
                       'argmax', 'argmin', 'cumsum', 'cumprod', 'argsort', 'argpartition',
                       'searchsorted', 'compress', 'choose', 'reshape'))
_METHOD_FORMS = frozenset(('ravel', 'transpose', 'swapaxes', 'squeeze', 'diagonal', 'take',
                           'repeat'))
_TEMPLATE_FORMS = frozenset(('expand_dims', 'moveaxis', 'flip', 'roll', 'tile'))


def _norm_axis(axis, ndim):
    ax = operator.index(axis)
    if ax < -ndim or ax >= ndim:
        raise _np.exceptions.AxisError(ax, ndim)
    return ax + ndim if ax < 0 else ax


def _c_axis(axis, ndim):
    """_norm_axis for the functions NumPy writes in C: a bool axis is a
    TypeError there (Python-level NumPy functions take it as an int)."""
    return _norm_axis(D.int_axis(axis), ndim)


# ---- rearranging, gathering, scattering and contractions ---------------------------


# Compositions of views, copies, the core's gather (ndt_gather), scatter


# (ndt_put), diagonal view (ndt_diagonal), matmul and correlation.


def _nd(a, name, npfunc, args, kwargs):
    """_nd_or_fallback for one array: (array, None) or (None, fallback result)."""
    xs, fb = _nd_or_fallback(name, npfunc, args, kwargs, a)
    return (xs[0] if xs else None), fb


def _ufn(name):
    """A ufunc by name, for ndtile's own code: its results are arrays, 0-d
    ones too (a function that returns one gives NumPy's scalar itself)."""
    return UFUNCS[name]._arrays


def _along(ndim, axis, index):
    return (slice(None),) * axis + (index,) + (slice(None),) * (ndim - axis - 1)


def _nd_array(x, dtype=None):
    r = C.asarray(x, dtype)
    return r if isinstance(r, Array) else None


def _host(x):
    return C.to_numpy(x) if isinstance(x, Array) else _np.asarray(x)


def _cast(x, dt):
    return x if x.dtype == dt else x._astype(D.code(dt), _core.CASTING_UNSAFE)


def _take(a1, idx):
    """a1[idx] for a 1-d array and an int64 index array (any shape)."""
    return _core.gather(a1, [idx])


def _i64(values):
    return C.from_numpy(_np.ascontiguousarray(values, dtype=_np.int64))


def module_getattr(modname, npmod, name, namespace):
    """The module __getattr__ of ndtile and its submodules."""
    if name.startswith('__'):
        raise AttributeError(f"module {modname!r} has no attribute {name!r}")
    # (NumPy's module __getattr__ warns of names it changes, np.object,
    # np.chararray, at its caller, this line: passed on at the user's, also
    # where it raises)
    with _warnings.catch_warnings(record=True) as caught:
        _warnings.simplefilter('always')
        try:
            obj = getattr(npmod, name)
        except AttributeError as e:
            obj, error = None, e
        else:
            error = None
    for w in caught:
        F.warn(w.message, w.category)
    if error is not None:
        # NumPy's message, under ndtile's name: it says what replaced a
        # removed name (`np.float` was a deprecated alias ..., `np.Inf` ...)
        msg = str(error).replace(f"module {npmod.__name__!r}", f"module {modname!r}", 1)
        raise AttributeError(msg) from None
    if isinstance(obj, type) or not callable(obj):
        return obj          # classes, constants and submodules are NumPy's own
    if isinstance(obj, _np.ufunc):
        u = wrap_numpy_ufunc(obj)
        namespace[name] = u
        return u
    prefix = modname.split('.', 1)[1] + '.' if '.' in modname else ''
    w = F.wrap(prefix + name, obj)
    namespace[name] = w
    return w
