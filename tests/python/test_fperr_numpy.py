"""Floating-point warnings as NumPy gives them, case by case, found by an
audit of every ufunc, operator, cast and reduction against NumPy (issue 14,
item 6): the same set of RuntimeWarnings, and under errstate(all='raise')
the same FloatingPointError message, for work run inline (100 elements) and
at default settings (600,000 elements: deferred, several 2 MiB tiles, fused).

Each case is (name, function of the module); the function returns what it
made, which is read back so that deferred work is reported. The tests of
flags that SIMD loops raise (log, exp, power, float-to-int casts) take the
`simd_level` fixture: they run on every instruction set this machine's
kernels have (conftest.SIMD_LEVELS)."""
import warnings

import numpy
import pytest

import ndtile

pytestmark = pytest.mark.default_settings

SIZES = (100, 600_000)
# the machine's SIMD level: below it (the simd_level fixture's capped runs)
# the large size is one tile of deferred work, not several (the kernels'
# flags are what differ there; the many-tile paths are the same at every
# level, and run at the machine's)
SIMD_TOP = ndtile._core._simd_cap(-1)


def at_level(n, level):
    return n if level >= SIMD_TOP else min(n, 50_000)


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
def test_float_to_int_cast_flags(src, to, n, simd_level):
    n = at_level(n, simd_level)
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


# ---- names: each op reports under NumPy's name for it -----------------------
@pytest.mark.parametrize('n', SIZES)
def test_divmod_is_one_op_named_divmod(n):
    for x, y in ((1.0, 0.0), (-1.0, 0.0), (numpy.inf, 1.0), (0.5, 1e308), (1e308, 1e-300)):
        for dt in ('float64', 'float32'):
            same_as_numpy(lambda M: M.divmod(full(M, n, x, dt), full(M, n, y, dt)))
            same_as_numpy(lambda M: M.divmod(full(M, n, x, dt), y))
    for dt in ('int64', 'int8', 'uint8'):
        same_as_numpy(lambda M: M.divmod(full(M, n, 7, dt), full(M, n, 0, dt)))
    same_as_numpy(lambda M: M.divmod(full(M, n, -128, 'int8'), full(M, n, -1, 'int8')))


@pytest.mark.parametrize('n', SIZES)
def test_divmod_into_its_own_input(n):
    # NumPy's one loop reads an element before writing it
    for M in (numpy, ndtile):
        a = full(M, n, 7.0, 'float64')
        r = M.empty(n)
        q, r = M.divmod(a, 4.0, out=(a, r))
        assert float(q[0]) == 1.0 and float(r[0]) == 3.0 and float(a[-1]) == 1.0


@pytest.mark.parametrize('n', SIZES)
def test_float_power_degrees_radians_names(n):
    same_as_numpy(lambda M: M.float_power(full(M, n, 0.0, 'float64'), -1))
    same_as_numpy(lambda M: M.float_power(full(M, n, 10.0, 'int64'), 400))
    same_as_numpy(lambda M: M.float_power(full(M, n, 2.0, 'float32'), -1075.0))
    same_as_numpy(lambda M: M.degrees(full(M, n, 1e308, 'float64')))
    same_as_numpy(lambda M: M.degrees(full(M, n, 1e38, 'float32')))
    same_as_numpy(lambda M: M.radians(full(M, n, 1e-308, 'float64')))
    same_as_numpy(lambda M: M.float_power(full(M, n, 0j, 'complex128'), -1 + 0j))


@pytest.mark.parametrize('n', SIZES)
def test_float_power_has_no_sqrt_rule(n):
    # power takes a scalar 0.5 as sqrt (NumPy's loop); float_power does not
    x = numpy.resize(numpy.array([-numpy.inf, -0.0, 2.0, -4.0]), n)
    for f in ('float_power', 'power'):
        with numpy.errstate(all='ignore'):
            want = getattr(numpy, f)(x, 0.5)
            got = numpy.asarray(getattr(ndtile, f)(ndtile.asarray(x), 0.5))
        assert numpy.array_equal(want, got, equal_nan=True)
        assert numpy.array_equal(numpy.signbit(want), numpy.signbit(got))


@pytest.mark.parametrize('dt', ['float64', 'float32'])
@pytest.mark.parametrize('xs, ys', [((4, 4, 3), (4, 4, 1)), ((1000, 600), (1000, 1)),
                                    ((1000, 600), (1, 600)), ((1000, 600), ()),
                                    ((4, 3), (1, 1)), ((5,), (5,))])
def test_power_sqrt_rule_only_for_one_exponent_over_the_call(dt, xs, ys):
    # NumPy's loop takes an exponent of 0.5 as sqrt only when one value
    # serves the whole call (a scalar, a size-1 array): an exponent constant
    # along the last axis but not over the call ((4, 1) of a (4, 3) base)
    # goes through pow, where (-inf) ** 0.5 is inf, not nan, and
    # (-0.0) ** 0.5 is 0.0 (fuzz seed 449696766); alone, fused, in place
    x = numpy.full(xs, -numpy.inf, dt)
    x.reshape(-1)[::3] = -0.0
    x.reshape(-1)[1::3] = 2.0
    y = numpy.full(ys, 0.5, dt)
    for f in (lambda M, a, b: M.power(a, b), lambda M, a, b: a ** b * 2 + 1,
              lambda M, a, b: M.multiply(M.power(a, b), 1, out=a)):
        with numpy.errstate(all='ignore'):
            want = f(numpy, x.copy(), y)
            got = numpy.asarray(f(ndtile, ndtile.asarray(x), ndtile.asarray(y)))
        assert want.dtype == got.dtype and want.shape == got.shape
        assert numpy.array_equal(want, got, equal_nan=True)
        assert numpy.array_equal(numpy.signbit(want), numpy.signbit(got))
    same_as_numpy(lambda M: M.power(M.asarray(x), M.asarray(y)))


@pytest.mark.parametrize('n', SIZES)
@pytest.mark.parametrize('dt', ['float64', 'float32'])
def test_power_flags_of_numpys_loop(dt, n, simd_level):
    n = at_level(n, simd_level)
    # NumPy's AVX-512 power: divide by zero for 0 ** -inf, overflow for
    # x ** inf with x * x beyond the range; nothing for a NaN operand
    # (NumPy without AVX-512 raises neither of the first two; ndtile's
    # flags are the same on every machine, deviations.md 11: there they are
    # compared with the AVX-512 loop's, written out)
    big = 2.0 ** 600 if dt == 'float64' else 2.0 ** 70
    avx512 = numpy._core._multiarray_umath.__cpu_features__.get('AVX512_SKX', False)
    for x, y in ((0.0, -numpy.inf), (-0.0, -numpy.inf), (big, numpy.inf), (-big, numpy.inf),
                 (2.0, numpy.inf), (0.5, -numpy.inf), (-1.0, numpy.nan), (numpy.nan, 2.0),
                 (2.0, -1075.0), (0.0, -1.0), (-1.0, 0.5)):
        svml = 'divide by zero' if x == 0 and y < 0 and numpy.isinf(y) else \
            'overflow' if abs(x) == big else None
        for fn in (lambda M: M.power(full(M, n, x, dt), full(M, n, y, dt)),
                   lambda M: full(M, n, x, dt) ** y):
            if svml is None or avx512:
                same_as_numpy(fn)
                continue
            msg = f'{svml} encountered in power'
            assert _messages(ndtile, fn, dict(all='warn')) == ([msg], None)
            assert _messages(ndtile, fn, dict(all='raise')) == ([], f'FloatingPointError: {msg}')


@pytest.mark.parametrize('n', SIZES)
@pytest.mark.parametrize('dt', ['complex128', 'complex64'])
def test_complex_power_flags(dt, n):
    inf, nan = numpy.inf, numpy.nan
    for a, b in ((0j, -2 + 0j), (0j, 1j), (0j, complex(0, inf)), (-0j, -1 + 0j),
                 (-2 + 0j, complex(nan, inf)), (1 + 1j, complex(nan, inf)),
                 (complex(nan, 0), complex(0, inf)), (1 + 0j, complex(nan, 0)),
                 (2 + 0j, complex(inf, 0)), (1 + 0j, 1e300 + 0j), (1e30 + 0j, 1e30 + 0j),
                 (2 + 1j, 3 + 0j), (0.5 + 0.5j, 150 + 0j)):
        same_as_numpy(lambda M: M.power(full(M, n, a, dt), full(M, n, b, dt)))


# ---- the values' own flags, whichever loop ran ------------------------------
@pytest.mark.parametrize('n', SIZES)
@pytest.mark.parametrize('dt', ['float64', 'float32'])
def test_log_flags_on_every_instruction_set(dt, n, simd_level):
    n = at_level(n, simd_level)
    # divide by zero for log(0), invalid for log(-1): SLEEF's AVX2 logs
    # raise nothing, its AVX-512 ones do; the values decide on both
    for v in (0.0, -0.0, -1.0, -numpy.inf, numpy.inf, numpy.nan, 1e-30, 2.0):
        for f in ('log', 'log2', 'log10', 'log1p', 'arctanh', 'arccosh', 'sqrt'):
            same_as_numpy(lambda M: getattr(M, f)(full(M, n, v, dt)))


@pytest.mark.parametrize('n', SIZES)
@pytest.mark.parametrize('dt', ['float64', 'float32'])
def test_exp_flags_beyond_the_kernels_bound(dt, n, simd_level):
    n = at_level(n, simd_level)
    # SLEEF's exp returns inf or 0 past a bound without a flag
    for v in (1e10, 710.0, -710.0, -1e10, 89.0, -104.0):
        same_as_numpy(lambda M: M.exp(full(M, n, v, dt)))
        same_as_numpy(lambda M: M.expm1(full(M, n, v, dt)))
    same_as_numpy(lambda M: M.exp(full(M, n, 2 ** 62, 'int64')))


@pytest.mark.parametrize('n', SIZES)
def test_arctan2_spacing_sign_underflow(n):
    for x, y in ((1e-308, 1e308), (5e-324, 1.0), (1e-310, 1.0), (0.0, 1.0), (-1e-308, 1e308)):
        same_as_numpy(lambda M: M.arctan2(full(M, n, x, 'float64'), full(M, n, y, 'float64')))
    for x in (0.0, -0.0, 5e-324, 1e-308, 2.3e-308, 1.0, numpy.nan, numpy.inf):
        same_as_numpy(lambda M: M.spacing(full(M, n, x, 'float64')))
    same_as_numpy(lambda M: M.spacing(full(M, n, 1e-40, 'float32')))
    for z in (-2 + 1e308j, 1e-300 + 1e10j, 1 + 1j, complex(numpy.inf, 1), 0j):
        same_as_numpy(lambda M: M.sign(full(M, n, z, 'complex128')))


@pytest.mark.parametrize('n', SIZES)
@pytest.mark.parametrize('op', ['less', 'less_equal', 'greater', 'greater_equal', 'equal'])
def test_complex_comparisons_with_nan(op, n):
    # NumPy's complex loops compare the real parts with a signalling compare,
    # and the imaginary parts when the real parts are equal
    nan = numpy.nan
    for a, b in ((1 + 0j, complex(nan, 0)), (complex(1, nan), 2 + 0j), (complex(1, nan), 1 + 0j),
                 (1 + 1j, 1 + 2j), (complex(nan, nan), complex(nan, nan))):
        same_as_numpy(lambda M: getattr(M, op)(full(M, n, a, 'complex128'),
                                               full(M, n, b, 'complex128')))


@pytest.mark.parametrize('n', SIZES)
def test_float16_loops_name_their_op(n):
    # NumPy runs exp2 of int8 in float16: its overflow is exp2's, not a cast's
    same_as_numpy(lambda M: M.exp2(full(M, n, 127, 'int8')))
    same_as_numpy(lambda M: M.exp2(full(M, n, -128, 'int8')))
    same_as_numpy(lambda M: M.logaddexp2(full(M, n, -128, 'int8'), full(M, n, 0, 'int8')))


@pytest.mark.parametrize('n', SIZES)
@pytest.mark.parametrize('dt', ['float32', 'complex64'])
def test_python_scalar_converted_before_the_loop(dt, n):
    # NumPy converts a Python float for a float32 loop first: "overflow
    # encountered in cast" for 1e308, nothing for 1e-308 (0 in float32)
    for s in (1e308, -1e308, 1e-308, 1e-300, 1e308j, 2.5):
        if isinstance(s, complex) and dt == 'float32':
            continue
        fs = [lambda M: full(M, n, 1.5, dt) + s, lambda M: s * full(M, n, 1.5, dt),
              lambda M: M.divide(full(M, n, 1.5, dt), s)]
        if dt == 'float32':
            fs.append(lambda M: full(M, n, 0.5, dt) // s)
        for f in fs:
            same_as_numpy(f)


@pytest.mark.parametrize('n', SIZES)
def test_scans_report_as_accumulate(n):
    for v, dt in ((1e308, 'float64'), (1e-308, 'float64'), (1e38, 'float32'), (0.5, 'float32'),
                  (1e308 + 0j, 'complex128'), (complex(-2, numpy.inf), 'complex128')):
        same_as_numpy(lambda M: M.cumsum(full(M, n, v, dt)))
        same_as_numpy(lambda M: M.cumprod(full(M, n, v, dt)))
        same_as_numpy(lambda M: M.cumsum(full(M, n, v, dt).reshape(-1, 10), axis=1))


@pytest.mark.parametrize('n', SIZES)
def test_matmul_and_dot_report_as_themselves(n):
    for v, dt in ((1e308, 'float64'), (1e-308, 'float64'), (1e200, 'float64'), (1e38, 'float32'),
                  (3, 'int64'), (1e308 + 0j, 'complex128')):
        same_as_numpy(lambda M: full(M, n, v, dt).reshape(-1, 10) @
                      full(M, n, v, dt).reshape(10, -1)[:, :10])
        if dt != 'complex128':   # BLAS's zdotu: deviations 5
            same_as_numpy(lambda M: M.dot(full(M, n, v, dt), full(M, n, v, dt)))


@pytest.mark.parametrize('n', SIZES)
def test_mean_divides_a_scalar_as_numpy(n):
    # mean's last division of a 0-d sum is NumPy's "scalar divide"; nanmean
    # ignores invalid and divide by zero there and warns "Mean of empty slice"
    for v, dt in ((1e-308, 'float64'), (complex(-2, numpy.inf), 'complex128'),
                  (1e308, 'float64'), (complex(-2, numpy.inf), 'complex64')):
        same_as_numpy(lambda M: M.mean(full(M, n, v, dt)))
        same_as_numpy(lambda M: M.mean(full(M, n, v, dt).reshape(-1, 10), axis=0))
        same_as_numpy(lambda M: M.var(full(M, n, v, dt)))
        same_as_numpy(lambda M: M.nanmean(full(M, n, v, dt)))
    x = numpy.resize(numpy.array([numpy.nan, numpy.nan, 1.0, numpy.nan]), n).reshape(-1, 2)
    same_as_numpy(lambda M: M.nanmean(M.asarray(x) if M is ndtile else x, axis=1))


@pytest.mark.parametrize('n', SIZES)
def test_errors_reported_in_the_state_of_their_call(n):
    # matmul, dot, put and a scalar written into a slice report at their own
    # call: under errstate(all='ignore') nothing comes later, at a read in
    # another state (matmul and dot left their inline errors to the next
    # call that reported, in that call's state)
    x = numpy.resize(numpy.array([numpy.inf, 1.0, 0.0, 1e308]), n)
    a = ndtile.asarray(x)
    u = ndtile.zeros(n, 'uint8')

    def put(m):
        ndtile.put(u, ndtile.arange(3), ndtile.asarray([1e20, 2.0, numpy.nan]))
        return u

    def fill(m):
        u[1:n - 1] = numpy.float64(1e20)
        return u
    sq = ndtile.asarray(numpy.array([[numpy.inf, 1.0], [0.0, 1.0]]))   # inline: 0 * inf
    for op in (lambda m: sq @ sq, lambda m: ndtile.dot(sq, sq),
               lambda m: a.reshape(-1, 4)[:, :2] @ sq, lambda m: ndtile.dot(a, a), put, fill):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter('always')
            with numpy.errstate(all='ignore'):
                r = op(ndtile)
            with numpy.errstate(all='warn'):
                numpy.asarray(r)
                ndtile.ones(3) + 1
        assert [str(x.message) for x in w if x.category is RuntimeWarning] == []


@pytest.mark.parametrize('n', SIZES)
@pytest.mark.parametrize('f', ['sum', 'prod'])
def test_reduction_with_a_narrowing_dtype_reports_as_reduce(f, n):
    # NumPy casts its buffers inside the reduction: an overflow of the cast
    # is "overflow encountered in reduce", not "in cast"
    for v in (1e300, -1e300, 3.0):
        same_as_numpy(lambda M: getattr(M, f)(full(M, n, v, 'float64'), dtype='float32'))
        same_as_numpy(lambda M: getattr(M, f)(full(M, n, v, 'float64')[::3], dtype='float32'))


@pytest.mark.parametrize('n', SIZES)
@pytest.mark.parametrize('dt', ['float64', 'float32'])
@pytest.mark.parametrize('where', ['input', 'lo', 'hi', 'bounds arrays'])
def test_clip_of_nan_is_quiet(where, dt, n):
    # NumPy's clip compares quietly: a NaN anywhere warns nothing (ndtile
    # reported "invalid value encountered in clip", the hardware's flag of
    # an ordered compare of a NaN; found by the fp18 helper)
    def fn(mod):
        x = full(mod, n, 1.5, dt)
        x[n // 2] = numpy.nan if where == 'input' else 3.0
        lo, hi = (numpy.nan if where == 'lo' else 0.0), (numpy.nan if where == 'hi' else 2.0)
        if where == 'bounds arrays':
            lo, hi = full(mod, n, numpy.nan, dt), full(mod, n, 2.0, dt)
        return mod.clip(x, lo, hi)
    assert same_as_numpy(fn) == ([], None)
    for state in (dict(all='raise'),):
        with numpy.errstate(**state):
            got = numpy.asarray(fn(ndtile))
        numpy.testing.assert_array_equal(got, fn(numpy))


@pytest.mark.parametrize("src", ["float32", "float64"])
@pytest.mark.parametrize("dst", ["uint32", "int32", "uint64", "int64", "uint8"])
@pytest.mark.parametrize("val", [numpy.nan, numpy.inf, -numpy.inf, -1.0, 3e9])
def test_nan_inf_to_integer_values_are_numpys_simd_loops_on_every_layout(src, dst, val):
    # deviations.md 11: the value NumPy's contiguous SIMD cast gives (64
    # equal elements: no scalar tail) is ndtile's at every size and layout,
    # and put of a scalar agrees with ndtile's astype of it
    x = numpy.full(64, val, src)
    with numpy.errstate(invalid='ignore'):
        want = x.astype(dst)[0]
        got = ndtile.asarray(x)
        for g in (got.astype(dst), got[::3].astype(dst), got[:2].astype(dst),
                  got[:1].reshape(()).astype(dst)):
            assert (numpy.asarray(g) == want).all(), (g, want)
        a = ndtile.zeros(3, dst)
        a.put([1], x.dtype.type(val))
        assert int(a[1]) == int(want)
