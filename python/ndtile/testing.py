"""ndtile.testing: numpy.testing for ndtile arrays.

``import ndtile as np; np.testing.assert_equal(a, b)`` must compare the values
as NumPy's would. numpy.testing's comparisons take their array path only for
``numpy.ndarray`` (and lists, tuples, dicts); two ndtile arrays would reach
its scalar path, ``bool(a == b)``, and raise "The truth value of an array ...
is ambiguous". So the comparison functions here gather every ndtile array
among their operands (inside lists, tuples and dicts too) into a NumPy array
of the same shape, dtype and values, then call NumPy's function. Everything
else (assert_raises, suppress_warnings, the decorators, ...) is numpy.testing's
own object: they take callables, whose arguments must stay ndtile arrays.
"""
import functools as _functools

import numpy as _np
import numpy.testing as _npt

from . import _convert
from ._ndarray import ndarray as _ndarray

# the comparisons whose operands are arrays (numpy.testing's names)
_COMPARE = (
    'assert_equal', 'assert_almost_equal', 'assert_approx_equal',
    'assert_array_equal', 'assert_array_almost_equal', 'assert_array_less',
    'assert_allclose', 'assert_array_almost_equal_nulp', 'assert_array_max_ulp',
    'assert_array_compare', 'assert_string_equal',
)


def _gather(x):
    """x with every ndtile array in it (through lists, tuples, dicts) a NumPy
    array; anything else as it is."""
    if isinstance(x, _ndarray):
        return _np.asarray(x)
    if type(x) in (list, tuple):
        y = [_gather(v) for v in x]
        return y if type(x) is list else tuple(y)
    if type(x) is dict:
        return {k: _gather(v) for k, v in x.items()}
    if not isinstance(x, (_np.ndarray, _np.generic)):
        # an object whose __array__ gives an ndtile array (NumPy refuses it)
        r = _convert._array_method_result(x)
        if r is not None:
            return _np.asarray(r)
    return x


def _comparison(name):
    npfn = getattr(_npt, name)

    @_functools.wraps(npfn)
    def compare(*args, **kwargs):
        __tracebackhide__ = True  # noqa: F841  (pytest: show the caller's line)
        return npfn(*[_gather(a) for a in args],
                    **{k: _gather(v) for k, v in kwargs.items()})
    compare.__module__ = 'ndtile.testing'
    return compare


for _name in _COMPARE:
    if hasattr(_npt, _name):
        globals()[_name] = _comparison(_name)
del _name


def __getattr__(name):
    try:
        return getattr(_npt, name)
    except AttributeError:
        raise AttributeError(f"module 'ndtile.testing' has no attribute {name!r}") from None


def __dir__():
    return sorted(set(globals()) | {n for n in dir(_npt) if not n.startswith('_')})
