"""The 13 dtypes of the core and their NumPy counterparts.

ndtile arrays hold bool, int8..int64, uint8..uint64, float32, float64,
complex64 and complex128, in native byte order. Any other NumPy dtype
(float16, longdouble, object, strings, datetimes, structured, and the 13 in
the other byte order: '>i4' on a little-endian machine) is not held in
tiles: such arrays stay NumPy arrays and every operation on them runs in
NumPy (see _fallback), but for non-native operands of ndtile's functions,
whose values are read into native arrays (_convert.asarray).
"""
import operator as _operator

import numpy as _np

from . import _core

NAMES = tuple(_core.DTYPE_NAMES)
DTYPES = tuple(_np.dtype(n) for n in NAMES)
SCALARS = tuple(d.type for d in DTYPES)

BOOL, INT8, INT16, INT32, INT64, UINT8, UINT16, UINT32, UINT64, \
    FLOAT32, FLOAT64, COMPLEX64, COMPLEX128 = range(13)
DEFAULT = -1

_BY_KEY = {(d.kind, d.itemsize): i for i, d in enumerate(DTYPES)}
KIND = tuple(d.kind for d in DTYPES)

# numpy integer scalar types usable as indices (numpy.intc/longlong... too)
INT_SCALAR_TYPES = tuple({t for t in (
    _np.int8, _np.int16, _np.int32, _np.int64, _np.uint8, _np.uint16, _np.uint32,
    _np.uint64, _np.intc, _np.uintc, _np.longlong, _np.ulonglong, _np.intp, _np.uintp)})

CASTING = {'no': _core.CASTING_NO, 'equiv': _core.CASTING_EQUIV, 'safe': _core.CASTING_SAFE,
           'same_kind': _core.CASTING_SAME_KIND, 'unsafe': _core.CASTING_UNSAFE}
_CASTING_NAMES = "'no', 'equiv', 'safe', 'same_kind', 'unsafe'"


def check_casting(casting, same_value=False):
    """NumPy's errors for a bad casting= argument. same_value: the caller
    (astype) also takes NumPy 2.4's 'same_value'."""
    if not isinstance(casting, str):
        raise TypeError(f"casting must be str, not {type(casting).__name__}")
    if casting in CASTING or (same_value and casting == 'same_value'):
        return casting
    names = _CASTING_NAMES + (", 'same_value'" if same_value else '')
    raise ValueError(f"casting must be one of {names} (got '{casting}')")

_INFO = {}


def code(dt):
    """The ndtile code of a numpy dtype, or None if the core lacks it."""
    if dt.byteorder not in '=|' and not dt.isnative:
        return None
    if dt.names is not None or dt.subdtype is not None:
        return None
    return _BY_KEY.get((dt.kind, dt.itemsize))


def as_dtype(x):
    """numpy.dtype(x) for a dtype-like (None -> float64)."""
    if isinstance(x, _np.dtype):
        return x
    if x is None:
        return DTYPES[FLOAT64]
    if isinstance(x, type) and issubclass(x, _np.dtype):
        # a DType class (numpy.dtypes.Int8DType, type(np.dtype('i'))):
        # numpy.dtype() of it is object; NumPy's dtype= takes its scalar
        # type (unsized if flexible: astype to StrDType sizes the strings);
        # numpy.dtype itself is none (NumPy's dtype= converter refuses it)
        if x is _np.dtype:
            raise TypeError("Cannot convert np.dtype into a dtype.")
        return _np.dtype(x.type)
    return _np.dtype(x)


_CODE_OF = {}


def code_of(x):
    """The ndtile code of a dtype-like, or None (cached by the object)."""
    try:
        return _CODE_OF[x]
    except (KeyError, TypeError):
        pass
    c = code(as_dtype(x))
    try:
        _CODE_OF[x] = c
    except TypeError:
        pass
    return c


def is_int(c):
    return KIND[c] in 'iu'


def is_inexact(c):
    return KIND[c] in 'fc'


def int_range(c):
    info = _INFO.get(c)
    if info is None:
        ii = _np.iinfo(DTYPES[c])
        info = _INFO[c] = (int(ii.min), int(ii.max))
    return info


def int_axis(axis):
    """An axis that must be one int, as NumPy's C axis parser takes it (no
    bools: TypeError)."""
    if isinstance(axis, (bool, _np.bool_)):
        raise TypeError("an integer is required for the axis")
    return _operator.index(axis)
