"""Functions that used to run NumPy's version on gathered data and now run
in ndtile (issue 16, item 5): ufunc.at, ufunc.reduceat, unique(axis=...),
Fortran order, lib.stride_tricks, view(dtype), put with overlapping source.

Each is compared with NumPy: values, dtype, shape, exceptions and aliasing
(a write through a view shows in the base). Every call here runs under
NDTILE_FALLBACK=error semantics: a fallback is a test failure."""
import os
import subprocess
import sys
import textwrap

import numpy
import pytest

import ndtile as np
from ndtile import _fallback


@pytest.fixture(autouse=True)
def _no_fallback(monkeypatch):
    monkeypatch.setenv("NDTILE_FALLBACK", "error")
    yield


def run_default(code):
    """code in a child process at default settings (2 MiB tiles)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("NDTILE_")}
    env["NDTILE_FALLBACK"] = "error"
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr


def outcome(f):
    try:
        return f(), None
    except Exception as e:    # noqa: BLE001 - the exception is what is compared
        return None, e


def same_array(x, y, exact=True):
    y = numpy.asarray(y)
    assert x.shape == y.shape and x.dtype == y.dtype, (x, y)
    if exact:
        assert numpy.array_equal(x, y, equal_nan=True), (x, y)
    else:
        numpy.testing.assert_allclose(x, y, rtol=1e-6, atol=1e-12)


def compare(f, *arrays, exact=True):
    """f(module, *copies) on NumPy arrays and on ndtile arrays: the same
    results, the same writes into the arguments, or the same exception."""
    na = [a.copy() for a in arrays]
    ta = [np.array(a) for a in arrays]
    rn, en = outcome(lambda: f(numpy, *na))
    rt, et = outcome(lambda: f(np, *ta))
    if en is not None or et is not None:
        assert type(en) is type(et), (en, et)
        assert str(en).split(":")[0] == str(et).split(":")[0], (en, et)
        return
    for x, y in zip(na, ta):
        same_array(x, y, exact)
    if isinstance(rn, tuple):
        for x, y in zip(rn, rt):
            same_array(x, y, exact)
    elif rn is not None:
        same_array(rn, rt, exact)


# ---- ufunc.at -------------------------------------------------------------------

AT_CASES = [
    (lambda m, a: m.add.at(a, [0, 0, 1, -1], 1.5), numpy.zeros(5)),
    (lambda m, a: m.add.at(a, [0, 0, 7], 1.5), numpy.zeros(5)),
    (lambda m, a: m.add.at(a, [-6], 1.5), numpy.zeros(5)),
    (lambda m, a: m.subtract.at(a, [1, 1, 1], numpy.array([1., 2., 4.])), numpy.ones(4)),
    (lambda m, a: m.multiply.at(a, (slice(None), [0, 0]), 2),
     numpy.arange(12.).reshape(3, 4)),
    (lambda m, a: m.add.at(a, ([0, 0, 2], [1, 1, -1]), numpy.array([1., 2, 3])),
     numpy.arange(12.).reshape(3, 4)),
    (lambda m, a: m.add.at(a, [0, 0, 2], numpy.array([1., 2, 3, 4])),
     numpy.arange(12.).reshape(3, 4)),
    (lambda m, a: m.add.at(a, [0, 0, 2], numpy.array([1., 2, 3])),    # not broadcastable
     numpy.arange(12.).reshape(3, 4)),
    (lambda m, a: m.add.at(a, [[0, 1], [1, 1]], numpy.array([[1.], [2.]])),
     numpy.arange(12.).reshape(3, 4)),
    (lambda m, a: m.negative.at(a, [0, 0, 2]), numpy.arange(12.).reshape(3, 4)),
    (lambda m, a: m.add.at(a, slice(1, None), 1), numpy.arange(12.).reshape(3, 4)),
    (lambda m, a: m.add.at(a, (slice(None, None, -2), 1), 1), numpy.arange(12.).reshape(3, 4)),
    (lambda m, a: m.add.at(a, 1, 7), numpy.arange(12.).reshape(3, 4)),
    (lambda m, a: m.add.at(a, (1, 2), 7), numpy.arange(12.).reshape(3, 4)),
    (lambda m, a: m.add.at(a, numpy.array([True, False, True]), 7),
     numpy.arange(12.).reshape(3, 4)),
    (lambda m, a: m.add.at(a, (Ellipsis, [0, 0]), 1), numpy.arange(12.).reshape(3, 4)),
    (lambda m, a: m.add.at(a, [0, 0], 300), numpy.zeros(4, numpy.int8)),
    (lambda m, a: m.add.at(a, [0, 0], numpy.array([200, 200])), numpy.zeros(4, numpy.int8)),
    # b is an array: a Python float makes a float64 loop, cast back (unsafe)
    (lambda m, a: m.add.at(a, [0, 0, 1], 2. ** -24 + 2. ** -40), numpy.ones(3, numpy.float32)),
    (lambda m, a: m.add.at(a, [0, 0], 1.5), numpy.zeros(3, numpy.int64)),
    (lambda m, a: m.true_divide.at(a, [0, 0], 2), numpy.ones(3, numpy.int32)),
    (lambda m, a: m.maximum.at(a, [0, 0, 1], numpy.array([5, -1, 9])),
     numpy.ones(3, numpy.int32)),
    (lambda m, a: m.minimum.at(a, [0, 0, 1], numpy.array([numpy.nan, -1, 9])), numpy.ones(3)),
    (lambda m, a: m.add.at(a, [0], 1), numpy.zeros(3, bool)),
    (lambda m, a: m.logical_xor.at(a, [0, 0, 1], True), numpy.zeros(3, bool)),
    (lambda m, a: m.bitwise_or.at(a, [0, 0, 1], numpy.array([1, 2, 4], numpy.uint8)),
     numpy.zeros(3, numpy.uint8)),
    (lambda m, a: m.add.at(a, [0, 0], 1j), numpy.zeros(3, complex)),
    (lambda m, a: m.multiply.at(a, [0, 0], numpy.array([1 + 1j, 2 - 1j])),
     numpy.ones(3, numpy.complex64)),
    (lambda m, a: m.add.at(a, [], 1), numpy.ones(3, numpy.int32)),
    (lambda m, a: m.add.at(a, numpy.array([], numpy.int64), 1), numpy.ones(3, numpy.int32)),
    (lambda m, a: m.add.at(a, [0.5], 1), numpy.ones(3, numpy.int32)),
    (lambda m, a: m.add.at(a, [0]), numpy.ones(3, numpy.int32)),
    (lambda m, a: m.negative.at(a, [0], 1), numpy.ones(3, numpy.int32)),
    (lambda m, a: m.add.at(a, [0], numpy.zeros(0)), numpy.ones(3)),
    (lambda m, a: m.add.at(a[::-2], [0, 0, 1], 1), numpy.arange(10.)),
    (lambda m, a: m.add.at(a.T, ([0, 0], [1, 1]), numpy.array([1., 3.])),
     numpy.arange(12.).reshape(3, 4)),
    (lambda m, a: m.add.at(a, [0, 0], 1), numpy.zeros((0, 3))),
    (lambda m, a: m.add.at(a.real, [0, 0, 3], 1.5), numpy.arange(4) * (1 + 2j)),
    (lambda m, a: m.multiply.at(a.imag, [1, 1], 3.0), numpy.arange(4) * (1 + 2j)),
    (lambda m, a: m.add.at(a[::-1, ::2], ([0, 0, 2], [1, 1, 0]), 5), numpy.arange(12.).reshape(3, 4)),
    (lambda m, a: m.add.at(m.asfortranarray(a), ([0, 0], [1, 1]), 5), numpy.arange(12.).reshape(3, 4)),
    (lambda m, a: m.add.at(a, ([0, 0, 1], slice(None)), numpy.arange(4.)),
     numpy.arange(12.).reshape(3, 4)),
    (lambda m, a: m.add.at(a, ([0, 1], [0, 0, 0]), 1), numpy.zeros((3, 3))),
    # a basic index that holds an Ellipsis (ndtile added a second one)
    (lambda m, a: m.add.at(a, (Ellipsis, 1), 1), numpy.arange(12.).reshape(3, 4)),
    (lambda m, a: m.add.at(a, (slice(None), Ellipsis), numpy.arange(4)),
     numpy.arange(12, dtype=numpy.int32).reshape(3, 4)),
    (lambda m, a: m.multiply.at(a, Ellipsis, 2.5), numpy.arange(6.).reshape(2, 3)[:, ::2]),
    (lambda m, a: m.add.at(a, (1, Ellipsis, slice(None, None, -1)), numpy.arange(3.)),
     numpy.zeros((2, 2, 3), numpy.float32)),
    (lambda m, a: m.add.at(a, (Ellipsis, None, 0), 1), numpy.zeros((2, 3), complex)),
    (lambda m, a: m.add.at(a, (Ellipsis, Ellipsis), 1), numpy.zeros(3)),
    (lambda m, a: m.add.at(a, Ellipsis, 1), numpy.zeros(())),
    # tuples inside the index tuple are index arrays, as lists are (NumPy
    # reads a nested sequence as an array; ndtile fell back to NumPy)
    (lambda m, a: m.add.at(a, ((0, 1, 0), (3, 3, 2)), 1.5), numpy.zeros((4, 4, 3), complex)),
    (lambda m, a: m.add.at(a, ((0, 1),), numpy.arange(2.)[:, None]), numpy.zeros((4, 3))),
    (lambda m, a: m.add.at(a, ((True, False, True),), 2), numpy.zeros(3, numpy.int16)),
    (lambda m, a: m.add.at(a, ((0, -1), slice(None), (2, 0)), 1), numpy.zeros((4, 4, 3))),
    (lambda m, a: m.add.at(a, ((0, 1), Ellipsis), 1), numpy.zeros((2, 2), numpy.float32)),
    (lambda m, a: m.add.at(a, ((0, 5),), 1), numpy.zeros(3)),
]


@pytest.mark.parametrize("case", range(len(AT_CASES)))
def test_at(case):
    f, a = AT_CASES[case]
    compare(f, a)


def test_at_repeated_indices_accumulate_in_order():
    # float sums in index order: ((1 + 1e16) - 1e16) + 1 per element
    rng = numpy.random.default_rng(3)
    for dt in (numpy.float64, numpy.float32, numpy.int16, numpy.complex128):
        a = (rng.standard_normal(50) * 100).astype(dt)
        idx = rng.integers(-50, 50, 3000)
        b = (rng.standard_normal(3000) * 1e6).astype(dt)
        compare(lambda m, x: m.add.at(x, idx, b), a)
        compare(lambda m, x: m.multiply.at(x, idx % 7, numpy.ones(3000, dt) * dt(1.001)
                                           if dt != numpy.int16 else 3), a)


def test_at_first_operand():
    with pytest.raises(TypeError, match="first operand must be array"):
        np.add.at([1, 2], [0], 1)
    a = numpy.zeros(3)
    np.add.at(a, [0, 0], 1)       # a NumPy array: NumPy's own at
    assert a[0] == 2


def test_at_index_array_is_the_target():
    # the index array is the array written into: read before any write
    compare(lambda m, a: m.add.at(a, a, 1), numpy.array([0, 0, 1, 3]))


def test_at_read_only():
    a = np.zeros(3)
    a.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        np.add.at(a, [0], 1)
    # deviations.md: NumPy 2.4 writes into a read-only array with an
    # integer, index-array or boolean key (its ValueError only for a slice);
    # ndtile raises for every ufunc and key, the array unchanged
    ro = np.zeros(4, np.int64)
    ro.flags.writeable = False
    b = np.zeros(1)
    b.flags.writeable = False
    for target in (ro, ro[::2], np.broadcast_to(np.zeros(1), (4,)), b[:]):
        for call in (lambda t: np.add.at(t, [0, 1], 1), lambda t: np.add.at(t, 0, 1),
                     lambda t: np.add.at(t, slice(None), 1), lambda t: np.negative.at(t, [0]),
                     lambda t: np.maximum.at(t, [0], 5), lambda t: np.add.at(t, [], 1),
                     lambda t: np.multiply.at(t, np.ones(t.shape, bool), 2)):
            with pytest.raises(ValueError, match="read-only"):
                call(target)
            assert not target.any()


def test_at_deferred_then_read():
    # the updates are tasks: ops before and after see them in program order
    x = np.arange(100000.0)
    y = x * 2
    np.add.at(y, [0, 0, 99999], 1.0)
    z = y + 1
    ref = numpy.arange(100000.0) * 2
    numpy.add.at(ref, [0, 0, 99999], 1.0)
    assert numpy.array_equal(numpy.asarray(z), ref + 1)


# ---- reduceat ---------------------------------------------------------------------

V8 = numpy.arange(8, dtype=numpy.int8)
M2 = numpy.random.default_rng(1).random((50, 300))


@pytest.mark.parametrize("ix", [[0, 4, 1, 5], [0, 8], [-1], [], [0], [7, 0], [0, 2, 2, 5],
                                numpy.array([0, 2], numpy.uint64),
                                numpy.array([0, 2], numpy.int32), [[0, 1]]])
def test_reduceat_indices(ix):
    compare(lambda m, a: m.add.reduceat(a, ix), V8)


@pytest.mark.parametrize("u", ["add", "multiply", "maximum", "minimum", "logical_or",
                               "logical_and", "fmax"])
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_reduceat_ops(u, axis):
    a = M2 if u not in ("logical_or", "logical_and") else (M2 * 10).astype(numpy.int64)
    for ix in ([0, 30, 7, 49], [0, 1, 2, 40], [5]):
        compare(lambda m, x: getattr(m, u).reduceat(x, ix, axis=axis), a)


def test_reduceat_dtypes_and_errors():
    compare(lambda m, a: m.multiply.reduceat(a, [0, 2, 3], dtype=numpy.float32), V8)
    compare(lambda m, a: m.add.reduceat(a, [0, 3]), V8.astype(bool))
    compare(lambda m, a: m.add.reduceat(a, [0, 2], axis=2), M2)
    compare(lambda m, a: m.add.reduceat(a[0, 0], [0]), M2)
    compare(lambda m, a: m.negative.reduceat(a, [0]), M2)
    compare(lambda m, a: m.add.reduceat(a, [0]), numpy.zeros(0))
    compare(lambda m, a: m.add.reduceat(a, [0, 3, 2], axis=1), M2[::-3, ::-7])
    compare(lambda m, a: m.add.reduceat(a, [0, 30, 7], axis=-1), M2.astype(numpy.float32))
    compare(lambda m, a: m.add.reduceat(a, [0, 1, 2, 40], axis=0, dtype=numpy.float32), M2,
            exact=False)


@pytest.mark.parametrize("u", ["add", "multiply", "maximum", "minimum", "fmax", "fmin",
                               "logical_or", "logical_and"])
def test_reduceat_many_lengths(u):
    # more than 8 distinct segment lengths: classes padded with the identity
    rng = numpy.random.default_rng(7)
    ix = rng.integers(0, 2000, 300)
    ix[::7] = numpy.sort(ix[::7])
    x = rng.standard_normal(2000)
    x[::37] = numpy.nan
    for a in (x, (x * 50).astype(numpy.int32), x > 0, (x * 1e3).astype(numpy.int8)):
        if u == "multiply" and a.dtype.kind == 'f':
            a = 1 + a / 100
        exact = True      # the core folds each line in NumPy's order
        compare(lambda m, y: getattr(m, u).reduceat(y, ix), a, exact=exact)
        compare(lambda m, y: getattr(m, u).reduceat(y, ix[:50] % 40, axis=1),
                a[:120].reshape(3, 40), exact=exact)


def test_reduceat_out():
    for dt in (numpy.float64, numpy.float32, numpy.int64):
        compare(lambda m, a, o: m.add.reduceat(a, [0, 2, 5], out=o), numpy.arange(8.),
                numpy.zeros(3, dt))
        compare(lambda m, a, o: m.multiply.reduceat(a, [0, 2, 5], out=(o,)),
                numpy.arange(1, 9.), numpy.zeros(3, dt))
    compare(lambda m, a, o: m.add.reduceat(a, [0, 2, 5], out=o), numpy.arange(8.),
            numpy.zeros(2))
    o = np.zeros(3)
    assert np.add.reduceat(np.arange(8.), [0, 2, 5], out=o) is o


# ---- unique(axis) -----------------------------------------------------------------

def _unique_all(m, a, axis):
    return m.unique(a, return_index=True, return_inverse=True, return_counts=True, axis=axis)


UNIQ = numpy.array([[1, 0, 0], [1, 0, 0], [2, 3, 4], [0, numpy.nan, 1], [0, numpy.nan, 1],
                    [-0., 1, 1], [0, 1, 1]])
R3 = numpy.random.default_rng(0).integers(0, 3, (50, 4, 3))


@pytest.mark.parametrize("a,axis", [
    (UNIQ, 0), (UNIQ, 1), (UNIQ, -1), (numpy.zeros((0, 3)), 0), (numpy.zeros((3, 0)), 0),
    (numpy.zeros((3, 0)), 1), (numpy.array([3, 1, 3]), 0), (R3, 0), (R3, 1), (R3, 2),
    (R3.astype(bool), 0), ((R3 - 1).astype(numpy.int8)[::-1], 1), (R3 * 1j, 0),
    (numpy.zeros(3), 1), (numpy.array(5), 0)])
def test_unique_axis(a, axis):
    compare(lambda m, x: _unique_all(m, x, axis), a)
    compare(lambda m, x: m.unique(x, axis=axis), a)


# ---- Fortran order ----------------------------------------------------------------

def same_layout(x, y):
    same_array(x, y)
    assert x.flags.owndata == y.flags.owndata and (x.base is None) == (y.base is None)
    assert (x.flags.c_contiguous, x.flags.f_contiguous) == \
        (y.flags.c_contiguous, y.flags.f_contiguous)
    assert x.strides == y.strides


A3 = numpy.arange(24.).reshape(2, 3, 4)


def test_asfortranarray():
    t = np.array(A3)
    same_layout(numpy.asfortranarray(A3), np.asfortranarray(t))
    same_layout(numpy.asfortranarray(A3), numpy.asfortranarray(t))    # __array_function__
    same_layout(numpy.asfortranarray(A3[::-1, :, ::2]), np.asfortranarray(t[::-1, :, ::2]))
    same_layout(numpy.asfortranarray(A3.tolist()), np.asfortranarray(A3.tolist()))
    same_layout(numpy.asfortranarray(numpy.float64(3)), np.asfortranarray(np.float64(3)))
    f = np.asfortranarray(t)
    assert np.asfortranarray(f) is f
    f[1, 2, 3] = -5                  # a copy: t is unchanged, f is written
    assert float(f[1, 2, 3]) == -5 and float(t[1, 2, 3]) == 23
    assert np.isfortran(f)


@pytest.mark.parametrize("fn", ["zeros", "ones", "empty"])
def test_creation_order_f(fn):
    x = getattr(numpy, fn)((3, 4), order='F')
    y = getattr(np, fn)((3, 4), order='F')
    assert y.flags.f_contiguous and not y.flags.c_contiguous and y.strides == x.strides
    if fn != "empty":
        same_layout(x, y)
    same_layout(numpy.full((3, 4), 7, order='F'), np.full((3, 4), 7, order='F'))
    same_layout(numpy.full((3, 4), [1, 2, 3, 4], order='F'),
                np.full((3, 4), [1, 2, 3, 4], order='F'))


def test_order_f_copies():
    t = np.array(A3)
    fa = numpy.asfortranarray(A3)
    ft = np.asfortranarray(t)
    same_layout(numpy.array(A3, order='F'), np.array(t, order='F'))
    same_layout(numpy.array(A3.tolist(), order='F'), np.array(A3.tolist(), order='F'))
    same_layout(numpy.array(fa), np.array(ft))
    same_layout(numpy.array(fa, order='C'), np.array(ft, order='C'))
    for o in ('C', 'F', 'A', 'K'):
        same_layout(fa.copy(o), ft.copy(o))
        same_layout(A3.copy(o), t.copy(o))
        same_layout(numpy.copy(fa, order=o), np.copy(ft, order=o))
    same_layout(numpy.copy(fa), np.copy(ft))
    same_layout(fa.astype(numpy.float32), ft.astype(numpy.float32))
    same_layout(A3.astype(numpy.float32, order='F'), t.astype(numpy.float32, order='F'))
    same_layout(numpy.zeros_like(fa), np.zeros_like(ft))
    same_layout(numpy.ones_like(A3, order='F'), np.ones_like(t, order='F'))
    same_layout(numpy.asarray(A3, order='F'), np.asarray(t, order='F'))
    assert np.asarray(ft, order='F') is ft


@pytest.mark.parametrize("sh", [(4, 6), (-1, 2), (24,), (2, 12), (2, 3, 4)])
def test_reshape_order_f(sh):
    t = np.array(A3)
    fa = numpy.asfortranarray(A3)
    ft = np.asfortranarray(t)
    same_layout(A3.reshape(sh, order='F'), t.reshape(sh, order='F'))
    same_layout(numpy.reshape(A3, sh, order='F'), np.reshape(t, sh, order='F'))
    same_layout(fa.reshape(sh, order='F'), ft.reshape(sh, order='F'))
    same_layout(fa.reshape(sh, order='A'), ft.reshape(sh, order='A'))
    same_layout(A3[:, ::-1].reshape(sh, order='F'), t[:, ::-1].reshape(sh, order='F'))
    r = ft.reshape(sh, order='F')      # a view, as NumPy's
    r[(0,) * len(sh)] = 99
    assert float(ft[0, 0, 0]) == 99


def test_ravel_flatten_order_f():
    t = np.array(A3)
    fa = numpy.asfortranarray(A3)
    ft = np.asfortranarray(t)
    same_layout(A3.ravel('F'), t.ravel('F'))
    same_layout(A3.flatten('F'), t.flatten('F'))
    same_layout(fa.ravel('K'), ft.ravel('K'))
    same_layout(fa.ravel('A'), ft.ravel('A'))
    with pytest.raises(ValueError, match="cannot reshape"):
        t.reshape((5, 5), order='F')


def test_fortran_arrays_in_ops():
    ft = np.asfortranarray(np.array(A3))
    fa = numpy.asfortranarray(A3)
    assert numpy.array_equal(numpy.asarray(ft + 1), fa + 1)
    assert numpy.array_equal(numpy.asarray(ft.sum(axis=1)), fa.sum(axis=1))
    assert numpy.array_equal(numpy.asarray(ft[:, 1]), fa[:, 1])
    assert numpy.array_equal(numpy.asarray(ft @ ft.transpose(0, 2, 1)),
                             fa @ fa.transpose(0, 2, 1))


# ---- stride tricks ------------------------------------------------------------------

def test_sliding_window_view():
    st, nst = np.lib.stride_tricks, numpy.lib.stride_tricks
    x = numpy.arange(24).reshape(4, 6)
    t = np.array(x)
    for args in [((3, 1),), ((2, 2),), (2, 0), (2, -1), ((2, 3), (1, 0)), (6, 1), (3, 1)]:
        a = nst.sliding_window_view(x, *args)
        b = st.sliding_window_view(t, *args)
        same_array(a, b)
        # strides of unit axes aside (ndtile reports C strides for a C-contiguous view)
        assert [s for s, n in zip(a.strides, a.shape) if n != 1] == \
            [s for s, n in zip(b.strides, b.shape) if n != 1] and not b.flags.writeable
        same_array(a, numpy.lib.stride_tricks.sliding_window_view(t, *args))
    y = x[::-1, ::2]
    same_array(nst.sliding_window_view(y, (2, 2)), st.sliding_window_view(t[::-1, ::2], (2, 2)))
    for bad in [(7, 1), ((2, 2, 2),), (-1,), (2, 2), (3,)]:
        _, e1 = outcome(lambda: nst.sliding_window_view(x, *bad))
        _, e2 = outcome(lambda: st.sliding_window_view(t, *bad))
        assert type(e1) is type(e2) and str(e1) == str(e2), (e1, e2)
    # a writeable window view shares memory with its base
    w = st.sliding_window_view(t, 3, axis=1, writeable=True)
    w[0, 1, 1] = 100
    assert int(t[0, 2]) == 100
    assert np.shares_memory(w, t)
    with pytest.raises(ValueError, match="read-only"):
        st.sliding_window_view(t, (3, 1))[0, 0, 0, 0] = 1
    # a window sum (the common use) at the right values
    z = numpy.arange(1000.)
    same_array(nst.sliding_window_view(z, 5).sum(axis=-1),
               st.sliding_window_view(np.array(z), 5).sum(axis=-1))


def test_stride_tricks_namespace():
    st = np.lib.stride_tricks
    x = np.arange(3.)
    b = st.broadcast_to(x, (2, 3))
    assert b is not None and np.shares_memory(b, x) and b.shape == (2, 3)
    assert [r.shape for r in st.broadcast_arrays(x, np.ones((2, 1)))] == [(2, 3), (2, 3)]
    assert st.broadcast_shapes((2, 1), (3,)) == (2, 3)
    assert np.lib.stride_tricks is st and np.lib.NumpyVersion is numpy.lib.NumpyVersion


def test_as_strided():
    st, nst = np.lib.stride_tricks, numpy.lib.stride_tricks
    x = numpy.arange(10.)
    t = np.array(x)
    for shape, strides in [((3, 3), (16, 8)), ((4,), (-8,)), ((2, 2), (0, 8)), ((0, 5), (8, 8)),
                           ((10,), (8,)), ((), ())]:
        if strides and strides[0] < 0:
            a = nst.as_strided(x[3:], shape, strides)
            b = st.as_strided(t[3:], shape, strides)
        else:
            a = nst.as_strided(x, shape, strides)
            b = st.as_strided(t, shape, strides)
        same_array(a, b)
    same_array(nst.as_strided(x), st.as_strided(t))
    s = st.as_strided(t, (3, 3), (16, 8))
    s[1, 1] = -1          # writeable by default, writes land in the base
    assert float(t[3]) == -1
    x[3] = -1
    r = st.as_strided(t, (3,), (8,), writeable=False)
    with pytest.raises(ValueError, match="read-only"):
        r[0] = 1
    # the bounds rule: outside the store is refused, never read
    for shape, strides in [((3, 3), (32, 8)), ((11,), (8,)), ((2,), (-8,)), ((2,), (2**62,))]:
        with pytest.raises(ValueError, match="outside"):
            st.as_strided(t, shape, strides)
    # a view of a view may reach back into the base (as NumPy's into its buffer)
    same_array(nst.as_strided(x[5:], (3,), (-8,)), st.as_strided(t[5:], (3,), (-8,)))
    # .real of a complex array: strides step whole complex elements
    c = numpy.arange(6) * (1 + 2j)
    tc = np.array(c)
    same_array(nst.as_strided(c.real, (2, 2), (16, 16)), st.as_strided(tc.real, (2, 2), (16, 16)))
    same_array(nst.as_strided(c.imag, (2, 2), (32, 16)), st.as_strided(tc.imag, (2, 2), (32, 16)))
    with pytest.raises(ValueError, match="mismatch"):
        st.as_strided(t, (3,), (8, 8))


# ---- at default settings (2 MiB tiles) --------------------------------------------------

@pytest.mark.skipif(np.nranks() > 1,
                    reason="starts its own process (not under mpirun)")
def test_default_settings_large():
    run_default("""
        import numpy
        import ndtile as np
        n = 600_000                       # 4.8 MB of float64: three tiles
        rng = numpy.random.default_rng(5)
        a = rng.standard_normal(n)
        idx = rng.integers(-n, n, 200_000)
        b = rng.standard_normal(200_000)
        ref = a.copy(); numpy.add.at(ref, idx, b)
        t = np.array(a); np.add.at(t, idx, b)
        assert numpy.array_equal(numpy.asarray(t), ref)
        ref2 = a.copy(); numpy.maximum.at(ref2, idx % 1000, b)
        t2 = np.array(a); np.maximum.at(t2, idx % 1000, b)
        assert numpy.array_equal(numpy.asarray(t2), ref2)
        m = a.reshape(1000, 600)
        ix = [0, 100, 7, 599, 300]
        assert numpy.array_equal(numpy.asarray(np.add.reduceat(np.array(m), ix, axis=1)),
                                 numpy.add.reduceat(m, ix, axis=1))
        assert numpy.array_equal(numpy.asarray(np.add.reduceat(np.array(a), [0, 5, 400_000])),
                                 numpy.add.reduceat(a, [0, 5, 400_000]))
        f = np.asfortranarray(np.array(m))
        assert f.flags.f_contiguous and f.strides == numpy.asfortranarray(m).strides
        assert numpy.array_equal(numpy.asarray(f), m)
        assert numpy.array_equal(numpy.asarray(f.reshape((600, 1000), order='F')),
                                 m.reshape((600, 1000), order='F'))
        w = np.lib.stride_tricks.sliding_window_view(np.array(a), 3, writeable=True)
        assert numpy.array_equal(numpy.asarray(w.sum(axis=1)),
                                 numpy.lib.stride_tricks.sliding_window_view(a, 3).sum(axis=1))
        # view(dtype) and put with an aliasing source, at 2 MiB tiles
        v = np.array(a).view(numpy.int64)
        assert numpy.array_equal(numpy.asarray(v >> 52), a.view(numpy.int64) >> 52)
        p1 = a.copy(); numpy.put(p1, numpy.arange(1, n), p1)
        p2 = np.array(a); np.put(p2, np.arange(1, n), p2)
        assert numpy.array_equal(numpy.asarray(p2), p1)
        s1 = numpy.lib.stride_tricks.as_strided(a, (n // 2, 2), (16, 8))
        s2 = np.lib.stride_tricks.as_strided(np.array(a), (n // 2, 2), (16, 8))
        assert numpy.array_equal(numpy.asarray(s2.sum(axis=1)), s1.sum(axis=1))
        u = rng.integers(0, 4, (300_000, 3))
        r1 = numpy.unique(u, axis=0, return_index=True, return_inverse=True, return_counts=True)
        r2 = np.unique(np.array(u), axis=0, return_index=True, return_inverse=True,
                       return_counts=True)
        for x, y in zip(r1, r2):
            assert numpy.array_equal(x, numpy.asarray(y))
        """)


# ---- view(dtype) -------------------------------------------------------------------

@pytest.mark.parametrize("src,dt", [
    (numpy.arange(6.), numpy.int64), (numpy.arange(6.), numpy.uint64),
    (numpy.arange(6, dtype=numpy.float32), numpy.int32),
    (numpy.array([1, 0, 255], numpy.uint8), numpy.int8),
    (numpy.array([1, 0, 1], numpy.uint8), numpy.bool_),
    (numpy.arange(6, dtype=numpy.int64), numpy.float64),
    (numpy.arange(6.) * (1 + 1j), numpy.complex128),
    (numpy.arange(6, dtype=numpy.complex64), numpy.float64),
    (numpy.arange(6, dtype=numpy.complex64), numpy.int64)])
def test_view_dtype(src, dt):
    t = np.array(src)
    v = t.view(dt)
    same_array(src.view(dt), v)
    assert np.shares_memory(v, t) and v.flags.c_contiguous
    assert v.strides == src.view(dt).strides
    # a write through the view shows in the base
    one = numpy.ones(1, dt)
    v[0] = one[0]
    ref = src.copy()
    ref.view(dt)[0] = one[0]
    same_array(ref, t)
    # stepped, reversed and 2-d views, then ops on the view
    m = numpy.concatenate([src, src]).reshape(2, -1)[::-1, ::2]
    tm = np.array(numpy.concatenate([src, src]).reshape(2, -1))[::-1, ::2]
    same_array(m.view(dt), tm.view(dt))
    if dt not in (numpy.bool_,):
        same_array(m.view(dt) * 1, tm.view(dt) * 1)


def test_view_dtype_parts_and_large():
    c = numpy.arange(6) * (1 + 2j)
    tc = np.array(c)
    same_array(c.real.view(numpy.int64), tc.real.view(numpy.int64))
    same_array(c.imag.view(numpy.uint64), tc.imag.view(numpy.uint64))
    tc.imag.view(numpy.int64)[1] = 0
    c.imag.view(numpy.int64)[1] = 0
    same_array(c, tc)
    # many tiles (4096-byte tiles here): deferred writes through the view
    x = numpy.random.default_rng(2).standard_normal(20000)
    t = np.array(x)
    v = t.view(numpy.int64)
    v &= ~numpy.int64(1)           # clear the low mantissa bit, in place
    y = x.view(numpy.int64)
    y &= ~numpy.int64(1)
    same_array(x, t + 0)
    same_array(x.view(numpy.int64) >> 52, v >> 52)


@pytest.mark.skipif(np.nranks() > 1, reason="several ranks: a view of another itemsize is a copy")
def test_view_dtype_other_size_is_a_true_view():
    # (it was a copy with a clear fallback; now a view: test_memory_model.py)
    t = np.arange(4.)
    v = t.view(numpy.int32)
    v[:] = 0
    assert numpy.asarray(t).tolist() == [0.0] * 4


# ---- put with source overlapping the target ----------------------------------------

@pytest.mark.parametrize("case", [
    lambda m, a: m.put(a, [1, 2, 3], a[0:3]),
    lambda m, a: m.put(a, [0, 1, 2, 3, 4], a[1:]),
    lambda m, a: m.put(a, [5, 6, 7, 8, 9], a[::-1]),
    lambda m, a: m.put(a, m.arange(1, 10), a),
    lambda m, a: a.put([9, 8, 7], a),
    lambda m, a: m.put(a, a.astype(m.int64) % 10, a[::-1], mode='wrap'),
    lambda m, a: m.put(a, [0, 0, 1], a[3:6]),
])
def test_put_overlap(case):
    compare(case, numpy.arange(10.))
    compare(case, numpy.arange(3000.))      # many tiles


def test_put_index_is_target():
    compare(lambda m, a: m.put(a, a, a[::-1] * 0 + 7), numpy.array([3, 0, 2, 1, 1]))


@pytest.mark.skipif(np.nranks() > 1, reason="on ranks the IEEE flags show on the computing "
                    "rank only (an open limitation, as in test_lane_bits.py)")
def test_floating_point_errors_reported():
    # NumPy's messages: "... encountered in reduceat" / "... in add"
    for m in (numpy, np):
        with m.errstate(over='raise'):
            with pytest.raises(FloatingPointError, match="overflow encountered in reduceat"):
                m.add.reduceat(m.array([1e308, 1e308]), [0])
            with pytest.raises(FloatingPointError, match="overflow encountered in add"):
                x = m.array([1e308, 1.0])
                m.add.at(x, [0], 1e308)
                numpy.asarray(x)      # deferred work reports at the next read
            m.maximum.reduceat(m.array([1e308, numpy.inf]), [0])      # nothing to report
        with m.errstate(over='warn'), \
                pytest.warns(RuntimeWarning, match="overflow encountered in multiply"):
            x = m.array([1e308, 1.0])
            m.multiply.at(x, [0, 0], 1e308)
            numpy.asarray(x)


# ---- tools/coverage.py ---------------------------------------------------------------

def _coverage_module():
    import importlib.util
    path = os.path.join(os.path.dirname(__file__), "..", "..", "tools", "coverage.py")
    spec = importlib.util.spec_from_file_location("ndtile_coverage", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_coverage_counts_a_function_out_when_a_common_form_falls_back(monkeypatch):
    cov = _coverage_module()
    assert cov.run_probes(["np.sum(a)", "np.lib.stride_tricks.sliding_window_view(v, 2)",
                           "np.add.at(v.copy(), [0, 0], 1.0)"]) == []
    bad = cov.run_probes(["np.i0(v)"])          # NumPy's i0 on gathered data
    assert len(bad) == 1 and "falls back" in bad[0]
    assert os.environ.get("NDTILE_FALLBACK") == "error"    # restored (the fixture's)
    # a function ndtile defines, with a form that falls back, is not native
    monkeypatch.setitem(cov.PROBES, 'sum', ["np.sum(a)", "np.i0(v)"])
    native, fallback, partial, probed = cov.classify(np, numpy, '')
    assert 'sum' in partial and 'sum' not in native and 'transpose' in native
    assert 'i0' in fallback
