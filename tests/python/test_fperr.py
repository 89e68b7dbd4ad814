"""Floating-point errors as NumPy reports them: RuntimeWarnings, errstate,
seterr/seterrcall, 'raise', 'call', 'print', 'log'; inline (small) and
deferred/fused (large) work; float and integer dtypes.

The float, cast, reduction and integer-division tests take the `simd_level`
fixture: once per instruction set this machine's kernels have (conftest).

The suite's conftest ignores NumPy's errors (np.errstate(all="ignore")) and
pyproject ignores RuntimeWarnings: every test here sets the state it
checks."""
import subprocess
import sys
import textwrap
import warnings

import numpy
import pytest

import ndtile
from ndtile import _core

SMALL = 10          # inline
LARGE = 100_000     # deferred, many tiles, fused chains

DEFAULT = dict(divide='warn', over='warn', under='ignore', invalid='warn')


def caught(mod, fn, state=DEFAULT):
    """(category name, message) of the warnings fn raises under state; the
    result is read back so deferred work is reported."""
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        with numpy.errstate(**state):
            r = fn(mod)
            if mod is ndtile and r is not None:
                numpy.asarray(r)
    return [(x.category.__name__, str(x.message)) for x in w]


def same(fn, state=DEFAULT, ordered=True):
    exp = caught(numpy, fn, state)
    got = caught(ndtile, fn, state)
    if ordered:
        assert got == exp
    else:
        assert sorted(set(got)) == sorted(set(exp))
    return exp


def fdata(mod, n, dt='float64'):
    base = [0., -0., 1., -1., numpy.inf, -numpy.inf, numpy.nan, 1e308, 1e-308, 2.]
    return mod.asarray(numpy.resize(numpy.array(base, dtype=dt), n))


def idata(mod, n, dt='int64'):
    return mod.asarray(numpy.resize(numpy.array([0, 1, -1, 7, 100]).astype(dt), n))


@pytest.mark.parametrize('n', [SMALL, LARGE])
@pytest.mark.parametrize('dt', ['float64', 'float32'])
@pytest.mark.parametrize('op', ['divide', 'multiply', 'add', 'subtract', 'power', 'floor_divide',
                                'remainder', 'fmod', 'arctan2', 'hypot', 'logaddexp'])
def test_binary_float(op, dt, n, simd_level):
    same(lambda m: getattr(m, op)(fdata(m, n, dt), fdata(m, n, dt)[::-1]), ordered=False)


@pytest.mark.parametrize('n', [SMALL, LARGE])
@pytest.mark.parametrize('dt', ['float64', 'float32'])
@pytest.mark.parametrize('op', ['sqrt', 'log', 'log2', 'log10', 'log1p', 'exp', 'exp2', 'expm1',
                                'sin', 'cos', 'tan', 'arcsin', 'arccos', 'arctan', 'sinh',
                                'cosh', 'tanh', 'arcsinh', 'arccosh', 'arctanh', 'reciprocal',
                                'square', 'cbrt', 'floor', 'rint', 'absolute', 'sign'])
def test_unary_float(op, dt, n, simd_level):
    same(lambda m: getattr(m, op)(fdata(m, n, dt)), ordered=False)


@pytest.mark.parametrize('n', [SMALL, LARGE])
@pytest.mark.parametrize('op', ['less', 'equal', 'maximum', 'minimum', 'fmax', 'isnan',
                                'isfinite', 'heaviside', 'copysign'])
def test_never_reported(op, n, simd_level):
    """Comparisons and selections of NaN report nothing (NumPy's quiet
    compares), although the hardware may raise 'invalid' for them."""
    nin = getattr(numpy, op).nin
    args = (lambda m: (fdata(m, n),)) if nin == 1 else (lambda m: (fdata(m, n), fdata(m, n)[::-1]))
    assert same(lambda m: getattr(m, op)(*args(m)), state=dict(all='warn')) == []


@pytest.mark.parametrize('n', [SMALL, LARGE])
@pytest.mark.parametrize('dt', ['int64', 'int32', 'int8', 'uint8', 'uint64'])
@pytest.mark.parametrize('op', ['floor_divide', 'remainder', 'fmod'])
def test_integer_division_by_zero(op, dt, n, simd_level):
    exp = same(lambda m: getattr(m, op)(idata(m, n, dt), idata(m, n, dt)))
    assert exp == [('RuntimeWarning', f'divide by zero encountered in {op}')]


def test_integer_min_floor_divide_minus_one():
    a = numpy.array([-128, 3], dtype=numpy.int8)
    b = numpy.array([-1, 1], dtype=numpy.int8)
    exp = same(lambda m: m.asarray(a) // m.asarray(b))
    assert exp == [('RuntimeWarning', 'overflow encountered in floor_divide')]


@pytest.mark.parametrize('n', [SMALL, LARGE])
def test_integer_overflow_silent_and_true_divide(n):
    same(lambda m: idata(m, n, 'int8') * m.int8(100))
    same(lambda m: idata(m, n) / idata(m, n), ordered=False)
    same(lambda m: idata(m, n) // 0)


@pytest.mark.parametrize('n', [SMALL, LARGE])
def test_casts(n, simd_level):
    same(lambda m: fdata(m, n).astype(m.int32))
    same(lambda m: fdata(m, n).astype(m.float32))
    same(lambda m: fdata(m, n).astype(m.float64))

    def assign(m):
        r = m.zeros(n, dtype=m.int64)
        r[...] = fdata(m, n)
        return r
    same(assign)


@pytest.mark.parametrize('n', [SMALL, LARGE])
def test_reductions(n, simd_level):
    same(lambda m: m.sum(m.full(n, 1e308)))
    same(lambda m: m.prod(m.full(n, 1e300)))
    same(lambda m: m.max(fdata(m, n)), state=dict(all='warn'))


@pytest.mark.parametrize('n', [SMALL, LARGE])
def test_once_per_op_and_fused_chain(n, simd_level):
    """One warning per operation (not per tile), each fused op by name."""
    def chain(m):
        x = m.arange(n, dtype=m.float64)
        return (x * 1e308 * 1e308 - x) / m.zeros(n) + m.sqrt(-x)
    exp = same(chain)
    assert len(exp) == 4   # multiply twice, divide's invalid, sqrt's invalid


@pytest.mark.parametrize('n', [SMALL, LARGE])
def test_underflow_when_asked(n, simd_level):
    fn = lambda m: m.full(n, 1e-300) * 1e-300  # noqa: E731
    assert same(fn) == []
    assert same(fn, state=dict(under='warn')) == [
        ('RuntimeWarning', 'underflow encountered in multiply')]


@pytest.mark.parametrize('n', [SMALL, LARGE])
def test_raise(n):
    for mod in (numpy, ndtile):
        a, z = mod.ones(n), mod.zeros(n)
        with numpy.errstate(divide='raise'):
            with pytest.raises(FloatingPointError, match='divide by zero encountered in divide'):
                a / z
        with ndtile.errstate(invalid='raise', divide='ignore'):
            with pytest.raises(FloatingPointError, match='invalid value encountered in divide'):
                z / z
            a / z   # ignored
        with numpy.errstate(over='raise'):
            x = mod.full(n, 1e300)
            with pytest.raises(FloatingPointError, match='overflow encountered in multiply'):
                x *= 1e300
            assert numpy.isinf(numpy.asarray(x)).all()   # written, as NumPy does


def test_raise_integer():
    for mod in (numpy, ndtile):
        with mod.errstate(divide='raise'):
            with pytest.raises(FloatingPointError, match='divide by zero encountered in remainder'):
                mod.arange(LARGE) % 0


def test_errstate_decorator_and_seterr():
    @ndtile.errstate(divide='raise')
    def f(m):
        return m.ones(LARGE) / m.zeros(LARGE)
    for mod in (numpy, ndtile):
        with pytest.raises(FloatingPointError):
            f(mod)
    assert ndtile.errstate is numpy.errstate and ndtile.seterr is numpy.seterr
    with numpy.errstate():
        old = ndtile.seterr(all='ignore')
        assert numpy.geterr()['divide'] == 'ignore'
        assert caught(ndtile, lambda m: m.ones(3) / 0, state={}) == []
        ndtile.seterr(divide='raise')
        with pytest.raises(FloatingPointError):
            ndtile.ones(3) / 0
        ndtile.seterr(**old)


@pytest.mark.parametrize('n', [SMALL, LARGE])
def test_call_and_log(n):
    for mod in (numpy, ndtile):
        calls = []
        with mod.errstate(all='call', call=lambda *a: calls.append(a)):
            r = mod.asarray(fdata(mod, n)) / mod.zeros(n)
            numpy.asarray(r)
        if mod is numpy:
            exp = calls
        else:
            assert calls == exp

    class Log:
        def __init__(self):
            self.lines = []

        def write(self, s):
            self.lines.append(s)
    logs = []
    for mod in (numpy, ndtile):
        log = Log()
        with mod.errstate(divide='log', invalid='ignore', call=log):
            numpy.asarray(mod.ones(n) / mod.zeros(n))
        logs.append(log.lines)
    assert logs[0] == logs[1] == ['Warning: divide by zero encountered in divide\n']


def test_call_without_function():
    for mod in (numpy, ndtile):
        with mod.errstate(divide='call', call=None):
            with pytest.raises(NameError, match='python callback specified for divide by zero'):
                numpy.asarray(mod.ones(3) / 0)


def test_print(capfd):
    for mod in (numpy, ndtile):
        with mod.errstate(divide='print'):
            numpy.asarray(mod.ones(LARGE) / 0)
    err = capfd.readouterr().err
    assert err.count('Warning: divide by zero encountered in divide\n') == 2


def test_state_of_the_call_is_used():
    """A deferred op reports in the errstate it was called in."""
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        with numpy.errstate(**DEFAULT):
            with numpy.errstate(all='ignore'):
                r = ndtile.ones(LARGE) / ndtile.zeros(LARGE)
            numpy.asarray(r)     # read outside: still ignored
            with numpy.errstate(divide='warn'):
                q = ndtile.ones(LARGE) / ndtile.zeros(LARGE)
            with numpy.errstate(all='raise'):
                numpy.asarray(q)  # read under 'raise': warns, as when called
    assert [str(x.message) for x in w] == ['divide by zero encountered in divide']


@pytest.mark.skipif(ndtile.nranks() > 1, reason="on ranks the warning shows at the line of "
                    "the read that reports it (docs/guide/ranks.md)")
def test_warning_points_at_the_callers_line():
    for n in (SMALL, LARGE):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter('always')
            with numpy.errstate(**DEFAULT):
                r = ndtile.sqrt(-ndtile.ones(n)); line = sys._getframe().f_lineno  # noqa: E702
                numpy.asarray(r)
        assert len(w) == 1 and w[0].filename == __file__ and w[0].lineno == line
        # through ndtile's Python layer (np.divide -> _umath.py)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter('always')
            with numpy.errstate(**DEFAULT):
                r = ndtile.divide(ndtile.ones(n), 0); line = sys._getframe().f_lineno  # noqa: E702
                numpy.asarray(r)
        assert len(w) == 1 and w[0].filename == __file__ and w[0].lineno == line


@pytest.mark.skipif(ndtile.nranks() > 1, reason="on ranks a warning comes at the next "
                    "agreement of the ranks (a read, a sync), not at the end of an inline call")
def test_warning_as_error():
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        with numpy.errstate(**DEFAULT):
            with pytest.raises(RuntimeWarning, match='divide by zero'):
                ndtile.ones(3) / 0


@pytest.mark.skipif(ndtile.nranks() > 1, reason="a rank's child process cannot start MPI")
def test_default_settings_child():
    """Default tiles and NumPy's default errstate, in a fresh process: a
    large fused chain warns once per op, at the calling line."""
    code = textwrap.dedent("""
        import warnings, numpy, ndtile as np
        warnings.simplefilter('always')
        with warnings.catch_warnings(record=True) as w:
            x = np.arange(3_000_000, dtype=np.float64)
            y = np.log(x) * 2 + np.sqrt(x - 1)
            print(float(y[5]))
        print(sorted((str(m.message), m.lineno) for m in w))
    """)
    env = {k: v for k, v in __import__('os').environ.items() if not k.startswith('NDTILE_')}
    r = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, env=env,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[-1] == str(sorted([
        ('divide by zero encountered in log', 6), ('invalid value encountered in sqrt', 6)]))


def test_c_api_records_drained():
    """Nothing is left over after a report."""
    with numpy.errstate(all='ignore'):
        ndtile.ones(LARGE) / 0
        _core.sync()
    assert _core._fp_report() is None


def _where_cases(mod, n, dt, sel):
    """(name, fn) pairs of where= calls whose left-out elements err
    (0/0, sqrt(-1), log(0), int x // 0) and, with sel, selected ones too."""
    isf = dt.startswith('float')
    k = numpy.arange(n)
    num = numpy.where(k % 3 == 0, 0, k % 7 + 1).astype(dt)
    den = numpy.where(k % 3 == 0, 0, k % 5 + 1).astype(dt)
    m = k % 3 != 0
    if sel:
        m = m | (k == n // 2)         # one 0/0 (0 // 0) selected
    a, b, w = mod.asarray(num), mod.asarray(den), mod.asarray(m)
    cases = [lambda: mod.divide(a, b, out=mod.zeros(n), where=w),
             lambda: mod.floor_divide(a, b, out=mod.zeros(n, dt), where=w),
             lambda: mod.remainder(a, b, out=mod.zeros(n, dt), where=w)]
    if isf:
        s = mod.asarray(numpy.where(m, 4.0, -1.0).astype(dt))
        z = mod.asarray(numpy.where(m, 2.0, 0.0).astype(dt))
        cases += [lambda: mod.sqrt(s, out=mod.ones(n, dt), where=w),
                  lambda: mod.log(z, out=mod.ones(n, dt), where=w),
                  lambda: mod.true_divide(a[::2], b[::2], out=mod.zeros(len(k[::2])),
                                          where=w[::2])]
    return cases


@pytest.mark.parametrize('sel', [False, True])
@pytest.mark.parametrize('dt', ['float64', 'float32', 'int64', 'int32'])
@pytest.mark.parametrize('n', [SMALL, LARGE])
def test_where_left_out_elements_do_not_err(n, dt, sel):
    """NumPy's loop skips the elements where= leaves out: their errors
    (0/0, sqrt(-1), log(0), integer // 0) are not reported, those of the
    selected ones are; the values kept are NumPy's."""
    for i in range(len(_where_cases(numpy, n, dt, sel))):
        for state in (DEFAULT, dict(all='raise'), dict(all='warn')):
            def run(mod, i=i):
                return _where_cases(mod, n, dt, sel)[i]()
            try:
                exp = caught(numpy, run, state)
            except FloatingPointError as e:
                with pytest.raises(FloatingPointError, match=str(e)):
                    caught(ndtile, run, state)
                continue
            assert caught(ndtile, run, state) == exp
        with numpy.errstate(all='ignore'):
            numpy.testing.assert_array_equal(numpy.asarray(_where_cases(ndtile, n, dt, sel)[i]()),
                                             _where_cases(numpy, n, dt, sel)[i]())


@pytest.mark.parametrize('n', [SMALL, LARGE])
def test_where_broadcast_mask_and_operands(n):
    """where= that broadcasts against the operands (a row, a column, a 0-d
    operand, an empty selection): the errors of the selected elements only."""
    def cases(mod):
        a = mod.asarray(numpy.arange(n, dtype=float).reshape(-1, 2) % 3)
        col = mod.asarray(numpy.array([[0.0], [1.0]]).repeat(n // 4, 0))
        row = mod.asarray(numpy.array([False, True]))
        zero = mod.asarray(numpy.float64(0))
        h = len(col)
        return [lambda: mod.divide(1.0, a, out=mod.zeros(a.shape), where=a != 0),
                lambda: mod.divide(a[:h], col, where=col != 0, out=mod.ones((h, 2))),
                lambda: mod.divide(a, zero, out=mod.ones(a.shape), where=row),
                lambda: mod.divide(a, zero, out=mod.ones(a.shape), where=False),
                lambda: mod.log(a, out=mod.ones(a.shape), where=mod.asarray(numpy.ones(a.shape, bool)))]
    for i in range(5):
        for state in (DEFAULT, dict(all='warn')):
            def run(mod, i=i):
                return cases(mod)[i]()
            assert caught(ndtile, run, state) == caught(numpy, run, state)


def _where_cast_cases(mod, n, odt):
    """where= into an out= of another dtype whose cast errs (1e300 into
    float32, inf and nan into an int) for the left-out elements only, and,
    as the last case, for a selected one too."""
    k = numpy.arange(n)
    big = numpy.where(k % 2 == 0, 1e300, k + 1.0)
    m = mod.asarray(k % 2 == 1)
    msel = mod.asarray((k % 2 == 1) | (k == 0))
    a = mod.asarray(big)
    return [lambda: mod.sqrt(a, out=mod.full(n, 7, odt), casting='unsafe', where=m),
            lambda: mod.multiply(a, a, out=mod.full(n, 7, odt), casting='unsafe', where=m),
            lambda: mod.multiply(a[::-2], 2.0, out=mod.full(len(k[::2]), 7, odt),
                                 casting='unsafe', where=m[::2]),
            lambda: mod.multiply(a, 1.0, out=mod.full(n, 7, odt), casting='unsafe', where=msel)]


@pytest.mark.parametrize('odt', ['float32', 'int32', 'int8', 'uint16'])
@pytest.mark.parametrize('n', [1, SMALL, LARGE])
def test_where_output_cast_errs_for_selected_elements_only(n, odt):
    """The cast into out= is NumPy's loop's: an element where= leaves out
    is not cast (no 'overflow' or 'invalid value' for it, under 'warn' or
    'raise'); a selected one's error is reported; out= keeps its values
    where the mask is False."""
    for i in range(len(_where_cast_cases(numpy, n, odt))):
        for state in (DEFAULT, dict(all='raise')):
            def run(mod, i=i):
                return _where_cast_cases(mod, n, odt)[i]()
            try:
                exp = caught(numpy, run, state)
            except FloatingPointError:
                with pytest.raises(FloatingPointError):
                    caught(ndtile, run, state)
                continue
            assert sorted(caught(ndtile, run, state)) == sorted(exp)
        with numpy.errstate(all='ignore'):
            numpy.testing.assert_array_equal(
                numpy.asarray(_where_cast_cases(ndtile, n, odt)[i]()),
                _where_cast_cases(numpy, n, odt)[i]())


@pytest.mark.parametrize('case', range(5))
@pytest.mark.parametrize('n', [1, SMALL, LARGE])
def test_where_raise_writes_the_selected_elements(n, case):
    """Under errstate(all='raise') a selected element's error raises after
    NumPy's loop has written every selected element into out= (inf, nan,
    a wrapped integer); the left-out ones keep out's values."""
    k = numpy.arange(n)

    def run(mod):
        sel = mod.asarray((k % 3 != 1) | (k == 0))
        num = mod.asarray((k % 4).astype(float))
        den = mod.asarray((k % 2).astype(float))
        out = [mod.full(n, 7.0), mod.full(n, 7.0), mod.full(n, 7, 'int32'),
               mod.full(n, 7.0, 'float32'), mod.full(n, 7, 'int64')][case]
        with mod.errstate(all='raise'):
            with pytest.raises(FloatingPointError):
                if case == 0:
                    mod.divide(num, den, out=out, where=sel)
                elif case == 1:
                    mod.log(den - 1, out=out, where=sel)
                elif case == 2:
                    mod.divide(num, den, out=out, where=sel, casting='unsafe')
                elif case == 3:
                    mod.multiply(num + 1e300, 1e10, out=out, where=sel)
                else:
                    ints = mod.asarray(k % 3)
                    mod.floor_divide(ints, mod.asarray(k % 2), out=out, where=sel)
        return out
    with numpy.errstate(all='ignore'):
        numpy.testing.assert_array_equal(numpy.asarray(run(ndtile)), run(numpy))


@pytest.mark.default_settings
def test_where_output_cast_default_settings():
    """Arrays of several 2 MiB tiles at default settings: where= into an
    int8 out= leaves out the elements whose cast errs, in every tile but
    one, where a selected one errs (under 'warn' and 'raise')."""
    n = 1_000_000
    k = numpy.arange(n)

    def run(mod, sel):
        m = k % 2 == 1
        if sel:
            m = m | (k == n - 2)
        out = mod.full(n, 7, numpy.int8)
        mod.multiply(mod.asarray(numpy.where(k % 2 == 0, 1e300, 1.0)), 3.0, out=out,
                     casting='unsafe', where=mod.asarray(m))
        return out
    for sel in (False, True):
        assert caught(ndtile, lambda mod: run(mod, sel)) == \
            caught(numpy, lambda mod: run(mod, sel))
        with numpy.errstate(all='raise'):
            if sel:
                with pytest.raises(FloatingPointError):
                    run(ndtile, sel)
            else:
                numpy.testing.assert_array_equal(numpy.asarray(run(ndtile, sel)),
                                                 run(numpy, sel))


@pytest.mark.default_settings
def test_where_default_settings():
    """Arrays of several 2 MiB tiles at default settings: a left-out 0/0 in
    one tile, a selected one in another."""
    n = 1_000_000
    for sel in (False, True):
        def run(mod, sel=sel):
            a = mod.zeros(n)
            m = numpy.ones(n, bool)
            m[10] = False
            m[n - 3] = not sel
            b = mod.asarray(numpy.where(m, 2.0, 0.0))
            b[n - 3] = 0.0
            return mod.divide(a, b, out=mod.ones(n), where=mod.asarray(m))
        assert caught(ndtile, run) == caught(numpy, run)
        with numpy.errstate(all='ignore'):
            numpy.testing.assert_array_equal(numpy.asarray(run(ndtile)), run(numpy))
