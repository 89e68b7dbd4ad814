"""The differential fuzzer (tests/fuzz/fuzzlib.py) itself: it must report a
wrong result of an exact operation, however small (one ULP of one element),
and it must not report the documented inexactness of the transcendental
functions (docs/fuzzing.md, Inexactness), however a later operation
amplifies it.

Bugs are planted by monkeypatching ndtile: an operator or function returns a
result with one element changed.
"""
import os
import sys

import numpy
import pytest

import ndtile

FUZZ = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'fuzz')
sys.path.insert(0, FUZZ)

import fuzzlib  # noqa: E402
import known_open  # noqa: E402

BIG = 50_000
FIRST = 9_140_000


def _nudge(r, every=False):
    """ndtile array r with its first (or every) float element one ULP up."""
    if not isinstance(r, ndtile.ndarray) or r.dtype.kind not in 'fc' or r.size == 0:
        return r
    v = numpy.array(r)
    flat = v.reshape(-1).view(v.real.dtype) if v.dtype.kind == 'c' else v.reshape(-1)
    sel = slice(None) if every else slice(0, 1)
    # (finite values only: an infinity one ULP "up" is the largest finite
    # value of the other sign, not a rounding; log2(0) is -inf exactly)
    part = flat[sel]
    flat[sel] = numpy.where(numpy.isfinite(part), numpy.nextafter(part, numpy.inf), part)
    return ndtile.asarray(v)


def _run(seeds):
    """(seed, lines, Mismatch) of the first failing program, or None (the
    open bugs of known_open.py do not count, as in the fixed-seed run)."""
    for seed in seeds:
        lines, m = fuzzlib.run_program(seed, ndtile, BIG)
        if m is not None and not known_open.match(str(m), lines):
            return seed, lines, m
    return None


@pytest.fixture
def plant_add(monkeypatch):
    orig = ndtile.ndarray.__add__

    def add(self, other):
        return _nudge(orig(self, other))
    monkeypatch.setattr(ndtile.ndarray, '__add__', add)
    return orig


def test_one_ulp_in_an_exact_operator_is_reported(plant_add, monkeypatch):
    # `x + y` on floats gives its first element one ULP up: far inside the
    # float tolerance, so only the bitwise comparison of exact values sees it
    found = _run(range(FIRST, FIRST + 300))
    assert found is not None, "a planted one-ULP error in + was not reported"
    seed, lines, m = found
    assert m.kind == 'value', m
    assert '+' in m.line or m.line == '<end of program>' or \
        any('+' in ln for ln in lines), m
    # the same program passes without the planted bug
    monkeypatch.setattr(ndtile.ndarray, '__add__', plant_add)
    _, m2 = fuzzlib.run_program(seed, ndtile, BIG)
    assert m2 is None, m2


def test_wrong_integer_result_is_reported(monkeypatch):
    orig = ndtile.ndarray.__mul__

    def mul(self, other):
        r = orig(self, other)
        if isinstance(r, ndtile.ndarray) and r.dtype.kind in 'iu' and r.size:
            v = numpy.array(r)
            v.reshape(-1)[-1] += 1
            return ndtile.asarray(v)
        return r
    monkeypatch.setattr(ndtile.ndarray, '__mul__', mul)
    found = _run(range(FIRST, FIRST + 300))
    assert found is not None, "a planted wrong integer product was not reported"
    assert found[2].kind == 'value', found[2]


def test_documented_inexactness_is_not_reported(monkeypatch):
    # every transcendental function's every element one ULP up (within the
    # documented bound): through casts, %, comparisons, argmax, ** and the
    # rest, no program may report a mismatch, and some lines are counted
    # unchecked because a really-differing input reached a discontinuous one
    for name in ('sin', 'cos', 'tan', 'tanh', 'sinh', 'cosh', 'exp', 'exp2', 'expm1', 'log',
                 'log1p', 'log2', 'log10', 'arcsin', 'arccos', 'arctan', 'arcsinh', 'cbrt'):
        f = getattr(ndtile, name)

        def g(*a, _f=f, **k):
            if 'out' in k or len(a) > 1:
                return _f(*a, **k)
            return _nudge(_f(*a, **k), every=True)
        monkeypatch.setattr(ndtile, name, g)
    before = dict(fuzzlib.UNCHECKED)
    found = _run(range(FIRST, FIRST + 250))
    assert found is None, f"seed {found[0]}: {found[2]}\n" + '\n'.join(found[1])
    assert fuzzlib.UNCHECKED.get('inexact input', 0) > before.get('inexact input', 0)


def test_a_transcendental_beyond_its_bound_is_reported(monkeypatch):
    # sin wrong by a few thousand ULP on exact inputs: inside the old float
    # tolerance of float64 (1e-12 of the largest value) for most data, but
    # beyond the documented 4 ULP of an elementwise function
    f = ndtile.sin

    def g(*a, **k):
        r = f(*a, **k)
        if 'out' in k or not isinstance(r, ndtile.ndarray) or r.dtype != numpy.float64 or \
                not r.size:
            return r
        v = numpy.array(r)
        v.reshape(-1)[0] *= 1 + 1e-13
        return ndtile.asarray(v)
    monkeypatch.setattr(ndtile, 'sin', g)
    lines = ["a0 = np.asarray(data(5, (40,), 'float64', 1))", "a1 = np.sin(a0)"]
    with pytest.raises(fuzzlib.Mismatch, match='ULP'):
        fuzzlib.replay(lines, ndtile)


def test_exact_chain_after_an_equal_transcendental_stays_exact(monkeypatch):
    # a transcendental whose result happens to equal NumPy's bitwise leaves
    # its consumers exact: a wrong floor of it is still reported
    f = ndtile.floor

    def g(*a, **k):
        return _nudge(f(*a, **k))
    monkeypatch.setattr(ndtile, 'floor', g)
    lines = ["a0 = np.asarray(data(3, (64,), 'float64', 0))", "a1 = np.sin(a0 * 0)",
             "a2 = np.floor(a1)"]
    with pytest.raises(fuzzlib.Mismatch, match='bitwise'):
        fuzzlib.replay(lines, ndtile)


def test_zero_signs_of_a_sort_are_not_amplified(monkeypatch):
    # NumPy's unstable sort orders -0.0 and 0.0 its own way (deviation 7):
    # a sort whose zeros have the other signs is not a mismatch, nor is the
    # division by them that follows; a wrong nonzero value still is
    f = ndtile.sort

    def flipped(x, *a, **k):
        # NumPy's order with the zeros' signs the other way round
        v = numpy.sort(numpy.array(x), *a, **k)
        v[v == 0] = -v[v == 0]
        return ndtile.asarray(v)
    monkeypatch.setattr(ndtile, 'sort', flipped)
    lines = ["a0 = np.asarray(data(7, (30,), 'float64', 2))", "a1 = np.sort(a0)",
             "a2 = 1 / a1", "a3 = np.copysign(2.0, a1)"]
    # a1 not compared before its use (as in most fuzz programs)
    fuzzlib.replay(lines, ndtile, every=False)
    fuzzlib.replay(lines, ndtile)

    def wrong(*a, **k):
        v = numpy.array(f(*a, **k))
        v[0] = 7.0
        return ndtile.asarray(v)
    monkeypatch.setattr(ndtile, 'sort', wrong)
    with pytest.raises(fuzzlib.Mismatch, match='bitwise'):
        fuzzlib.replay(lines, ndtile)


def test_infinity_times_an_inexact_zero_is_not_reported(monkeypatch):
    # a value that is 0.0 in NumPy and 1e-300 in ndtile (a cancellation
    # after an inexact op) times inf: nan against inf, counted unchecked
    f = ndtile.sin

    def g(*a, **k):
        v = numpy.array(f(*a, **k))
        v[v == 0] = 1e-300
        return ndtile.asarray(v)
    monkeypatch.setattr(ndtile, 'sin', g)
    before = fuzzlib.UNCHECKED.get('inexact input', 0)
    fuzzlib.replay(["a0 = np.zeros((4,))", "a1 = np.sin(a0) - 0.0", "a2 = a1 * np.inf"],
                   ndtile, every=False)
    assert fuzzlib.UNCHECKED.get('inexact input', 0) == before + 1


def test_blas_infinities_are_not_compared_but_finite_elements_are(monkeypatch):
    # deviation 5: a product of infinities may be nan in ndtile where it is
    # inf in NumPy; the finite elements of the product are still compared
    orig = ndtile.matmul
    lines = ["a0 = np.asarray(data(3, (4, 5), 'float64', 2))",
             "a1 = np.matmul(a0, np.asarray(data(4, (5, 3), 'float64', 0)))", "a2 = a1 + 1"]
    want = numpy.matmul(fuzzlib.data(3, (4, 5), 'float64', 2),
                        fuzzlib.data(4, (5, 3), 'float64', 0))
    assert numpy.isinf(want).any() and numpy.isfinite(want).any()

    def inf_to_nan(a, b, **k):
        v = numpy.array(orig(a, b, **k))
        v[numpy.isinf(v)] = numpy.nan
        return ndtile.asarray(v)
    monkeypatch.setattr(ndtile, 'matmul', inf_to_nan)
    fuzzlib.replay(lines, ndtile)

    def finite_off(a, b, **k):
        v = numpy.array(orig(a, b, **k))
        v[numpy.isfinite(v)] += 1
        return ndtile.asarray(v)
    monkeypatch.setattr(ndtile, 'matmul', finite_off)
    with pytest.raises(fuzzlib.Mismatch):
        fuzzlib.replay(lines, ndtile)


def _log1p_nan_signs_flipped(bad_number=False):
    """log1p with every NaN's sign the other way round from NumPy's (and,
    with bad_number, the first number's sign too)."""
    def f(x, *a, **k):
        with numpy.errstate(all='ignore'):
            v = numpy.log1p(numpy.array(x), *a, **k)
        nan = numpy.isnan(v)
        v[nan] = numpy.copysign(numpy.nan, numpy.where(numpy.signbit(v[nan]), 1.0, -1.0))
        if bad_number:
            i = numpy.flatnonzero(~nan & (v != 0))[0]
            v.reshape(-1)[i] = -v.reshape(-1)[i]
        return ndtile.asarray(v)
    return f


def test_a_sort_of_blas_infinities_is_not_compared(monkeypatch):
    # the nan-against-inf elements of a product (deviation 5) move every
    # finite element of a sort of it (campaign E, seed 900003857, complex
    # infinities in a matmul): not compared; a sort of an identical product
    # still is
    orig = ndtile.matmul
    lines = ["a0 = np.asarray(data(3, (4, 5), 'float64', 2))",
             "a1 = np.matmul(a0, np.asarray(data(4, (5, 3), 'float64', 0)))",
             "a2 = np.sort(a1.ravel())"]

    def inf_to_nan(a, b, **k):
        v = numpy.array(orig(a, b, **k))
        v[numpy.isinf(v)] = numpy.nan
        return ndtile.asarray(v)
    monkeypatch.setattr(ndtile, 'matmul', inf_to_nan)
    fuzzlib.replay(lines, ndtile)
    monkeypatch.setattr(ndtile, 'matmul', orig)
    orig_sort = ndtile.sort
    monkeypatch.setattr(ndtile, 'sort', lambda a, *x, **k: orig_sort(a, *x, **k)[::-1])
    with pytest.raises(fuzzlib.Mismatch):
        fuzzlib.replay(lines, ndtile)


def test_nan_signs_are_not_compared(monkeypatch):
    # deviation 7: signbit or copysign of a NaN whose sign is NumPy's other
    # one (log1p of a value below -1: SLEEF's NaN is positive, x86's default
    # NaN negative) is not a mismatch, and neither is what follows from it
    lines = ["a0 = np.asarray(data(11, (60,), 'float64', 1))", "a1 = np.log1p(a0)",
             "a2 = np.signbit(a1)", "a3 = np.copysign(3.0, a1)", "a4 = a3 + 1",
             "a5 = np.signbit(a1[::-2])", "a6 = a1.max()",
             "a7 = np.signbit(a6)"]
    x = fuzzlib.data(11, (60,), 'float64', 1)
    with numpy.errstate(all='ignore'):
        assert numpy.isnan(numpy.log1p(x)).any() and numpy.isfinite(numpy.log1p(x)).any()
    monkeypatch.setattr(ndtile, 'log1p', _log1p_nan_signs_flipped())
    before = fuzzlib.UNCHECKED.get('NaN sign (deviation 7)', 0)
    fuzzlib.replay(lines, ndtile, every=False)
    fuzzlib.replay(lines, ndtile)
    assert fuzzlib.UNCHECKED.get('NaN sign (deviation 7)', 0) > before


def test_sign_of_a_number_is_still_compared(monkeypatch):
    # the same program with one number's sign wrong as well: reported (a1
    # is inexact, so the signbit that reads it is not checked, and a1 itself
    # is, at the end)
    lines = ["a0 = np.asarray(data(11, (60,), 'float64', 1))", "a1 = np.log1p(a0)",
             "a2 = np.signbit(a1)"]
    monkeypatch.setattr(ndtile, 'log1p', _log1p_nan_signs_flipped(bad_number=True))
    with pytest.raises(fuzzlib.Mismatch, match='a1: 1 of 60'):
        fuzzlib.replay(lines, ndtile, every=False)
    # and a wrong signbit of a number, with the NaN signs flipped too
    monkeypatch.setattr(ndtile, 'log1p', _log1p_nan_signs_flipped())
    orig = ndtile.signbit

    def signbit(x, *a, **k):
        v = numpy.array(orig(x, *a, **k))
        xs = numpy.array(x)
        i = numpy.flatnonzero(~numpy.isnan(xs))[0]
        v.reshape(-1)[i] = ~v.reshape(-1)[i]
        return ndtile.asarray(v)
    monkeypatch.setattr(ndtile, 'signbit', signbit)
    with pytest.raises(fuzzlib.Mismatch, match='a2'):
        fuzzlib.replay(lines, ndtile, every=False)


def test_nan_bits_read_as_bytes_are_not_compared(monkeypatch):
    # deviation 7 for lines that read every bit (tobytes, view(dtype)): a
    # NaN's sign and payload are ndtile's (sim2 seed 630089498: log10's NaN
    # through frombuffer); a number's bytes are still compared
    lines = ["a0 = np.asarray(data(11, (60,), 'float64', 1))", "a1 = np.log1p(a0)",
             "a2 = np.frombuffer(a1[::-1].tobytes(), dtype='uint8')",
             "a3 = a1.view('uint64')", "a4 = (a1 + 1j).view('int32')"]
    monkeypatch.setattr(ndtile, 'log1p', _log1p_nan_signs_flipped())
    before = fuzzlib.UNCHECKED.get('NaN sign (deviation 7)', 0)
    fuzzlib.replay(lines, ndtile)
    assert fuzzlib.UNCHECKED.get('NaN sign (deviation 7)', 0) > before
    monkeypatch.setattr(ndtile, 'log1p', _log1p_nan_signs_flipped(bad_number=True))
    with pytest.raises(fuzzlib.Mismatch):
        fuzzlib.replay(lines[:3], ndtile)


@pytest.mark.parametrize('off, reported', [(1, False), (1_000_000, True)])
def test_a_difference_after_an_inexact_value_scales_with_its_inputs(monkeypatch, off, reported):
    # cos(x) a ULP off, then `y += -1`: the rounding noise of the difference
    # is relative to its inputs (about 1), not to the result (about 1e-6);
    # the same cos 1,000,000 ULP off (0.06) is still reported
    f = ndtile.cos

    def g(*a, **k):
        v = numpy.array(f(*a, **k))
        for _ in range(off if off < 10 else 1):
            v = numpy.nextafter(v, numpy.float32(0)).astype(v.dtype)
        if off >= 10:
            v = (v - numpy.float32(off * 6e-8)).astype(v.dtype)
        return ndtile.asarray(v)
    monkeypatch.setattr(ndtile, 'cos', g)
    lines = ["a0 = np.full((8,), 0.0015, dtype='float32')", "a1 = np.cos(a0)",
             "a1 += -1"]
    if reported:
        with pytest.raises(fuzzlib.Mismatch):
            fuzzlib.replay(lines, ndtile, every=False)
    else:
        fuzzlib.replay(lines, ndtile, every=False)


def test_overflow_in_another_order_only_at_the_edge_of_the_range():
    # a level-1 value whose inputs reach float32's largest value may
    # overflow in one summation order and not in another; far from the edge
    # an infinity where NumPy is finite is still a mismatch
    a, b = numpy.array([numpy.inf], 'float32'), numpy.array([1.58e38], 'float32')
    assert not fuzzlib._bad(a, b, b.dtype, 0.0, 3e38).any()
    assert fuzzlib._bad(a, b, b.dtype, 0.0, 1e30).any()
    assert fuzzlib._bad(numpy.array([numpy.nan], 'float32'), b, b.dtype, 0.0, 3e38).any()


@pytest.mark.parametrize('drop, reported', [(0, False), (2000, True)])
def test_a_long_dot_is_compared_relative_to_its_terms(monkeypatch, drop, reported):
    # a float32 dot of 812508 terms that cancel to about 1e1 (seed 980010744,
    # an operand made on the line itself): NumPy's BLAS and ndtile's blocks
    # round differently (-17.5402 against -17.5410, float64 -17.5409), which
    # is not reported; a dot that leaves out 2000 of its terms still is
    lines = ["a0 = np.asarray(data(767402056, (812508,), 'float32', 1))",
             "a1 = np.dot(a0, np.asarray(data(579465146, (812508,), 'complex64', 0)))"]
    x = fuzzlib.data(767402056, (812508,), 'float32', 1)
    y = fuzzlib.data(579465146, (812508,), 'complex64', 0)
    exact = numpy.dot(x.astype(numpy.float64), y.astype(numpy.complex128))
    got = numpy.dot(x, y)
    assert abs(got.imag - exact.imag) > 2e-5 * abs(exact.imag)   # NumPy's own error
    orig = ndtile.dot

    def dot(a, b, *r, **k):
        if drop:
            a, b = numpy.array(a)[drop:], numpy.array(b)[drop:]
            # (a 1-d dot's result is a NumPy scalar, as ndtile.dot's)
            return numpy.dot(a.astype(numpy.float64),
                             b.astype(numpy.complex128)).astype(numpy.complex64)
        return numpy.complex64(exact)
    monkeypatch.setattr(ndtile, 'dot', dot)
    if reported:
        with pytest.raises(fuzzlib.Mismatch):
            fuzzlib.replay(lines, ndtile)
    else:
        fuzzlib.replay(lines, ndtile)
