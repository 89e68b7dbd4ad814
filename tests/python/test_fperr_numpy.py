"""Floating-point warnings as NumPy gives them, case by case, found by an
audit of every ufunc, operator, cast and reduction against NumPy (issue 14,
item 6): the same set of RuntimeWarnings, and under errstate(all='raise')
the same FloatingPointError message, for work run inline (100 elements) and
at default settings (600,000 elements: deferred, several 2 MiB tiles, fused).

Each case is (name, function of the module); the function returns what it
made, which is read back so that deferred work is reported."""
import warnings

import numpy
import pytest

import ndtile

pytestmark = pytest.mark.default_settings

SIZES = (100, 600_000)


def _messages(mod, fn, state):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        with numpy.errstate(**state):
            try:
                r = fn(mod)
                for x in (r if isinstance(r, tuple) else (r,)):
                    if mod is ndtile and x is not None:
                        numpy.asarray(x)
                exc = None
            except Exception as e:      # noqa: BLE001 - compared with NumPy's
                exc = f"{type(e).__name__}: {e}"
    return sorted({str(x.message) for x in w if x.category is RuntimeWarning}), exc


def same_as_numpy(fn):
    """The warnings under all='warn', and the exception under all='raise'."""
    for state in (dict(all='warn'), dict(all='raise')):
        exp = _messages(numpy, fn, state)
        got = _messages(ndtile, fn, state)
        assert got == exp, (state, exp, got)
    return exp


def full(mod, n, v, dt):
    x = numpy.full(n, v, dtype=dt)
    return mod.asarray(x) if mod is ndtile else x


# ---- casts: "invalid" by value, on every layout --------------------------
CAST_VALUES = (-2.75, -1e10, 1e10, 2.0 ** 31, 2.0 ** 32, 2.0 ** 63, 2.0 ** 64, 1e20, -2.0 ** 63,
               numpy.inf, numpy.nan, 300.5)


@pytest.mark.parametrize('n', SIZES)
@pytest.mark.parametrize('to', ['int8', 'uint8', 'int32', 'uint32', 'int64', 'uint64'])
@pytest.mark.parametrize('src', ['float64', 'float32'])
def test_float_to_int_cast_flags(src, to, n):
    # NumPy's contiguous casts (the ones ndtile follows): "invalid" for NaN,
    # inf and values outside int32 (narrow targets), (-2**31-1, 2**32)
    # (uint32), int64, [-2**63, 2**64) (uint64); -2.75 -> uint32 is silent
    for v in CAST_VALUES:
        same_as_numpy(lambda M: full(M, n, v, src).astype(to))


@pytest.mark.parametrize('n', SIZES)
@pytest.mark.parametrize('to', ['uint8', 'int16', 'int64', 'uint64'])
def test_cast_into_a_view_across_tiles(to, n):
    # the invalid flag of a cast written into a view that spans tiles (a
    # slice off the tile grid takes the scalar, strided loop): it was lost
    # there and kept where the loop vectorised
    for v in (1e20, numpy.nan, -numpy.inf, 1.5):
        def f(M):
            a = M.zeros(n + 10, to)
            a[3:n + 3] = full(M, n, v, 'float64')
            return a
        same_as_numpy(f)

        def g(M):
            a = M.zeros(2 * n, to)
            a[1::2] = full(M, n, v, 'float64')
            return a
        same_as_numpy(g)


@pytest.mark.parametrize('n', SIZES)
def test_complex_to_int_cast_reads_the_real_part(n):
    for v in (1e308 + 0j, -2 + numpy.inf * 1j, numpy.nan + 0j):
        for to in ('int8', 'int64', 'uint64'):
            with warnings.catch_warnings():
                warnings.simplefilter('ignore', numpy.exceptions.ComplexWarning)
                same_as_numpy(lambda M: full(M, n, v, 'complex128').astype(to))
                same_as_numpy(lambda M: full(M, n, v, 'complex64').astype(to))


@pytest.mark.parametrize('n', SIZES)
@pytest.mark.parametrize('to', ['int8', 'uint8', 'int64', 'uint64'])
def test_numpy_scalar_stored_as_numpy_stores_it(to, n):
    # a NumPy float or integer scalar written into an integer array: NumPy's
    # setitem (int() and a range check for signed targets: OverflowError,
    # ValueError for NaN; a cast with "invalid" for unsigned ones), not a cast
    for v in (numpy.float64(300.5), numpy.float32(1e20), numpy.float64(numpy.nan),
              numpy.int64(300), numpy.uint64(2 ** 64 - 1), numpy.float64(-2.75)):
        for key in (Ellipsis, slice(3, n - 3), slice(1, None, 2)):
            def f(M):
                a = M.zeros(n, to)
                a[key] = v
                return a
            exp = same_as_numpy(f)
            if exp[1] is None:
                a, b = numpy.zeros(n, to), ndtile.zeros(n, to)
                with warnings.catch_warnings():
                    warnings.simplefilter('ignore')
                    a[key] = v
                    b[key] = v
                assert numpy.array_equal(a, numpy.asarray(b))
