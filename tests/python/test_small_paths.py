"""The short paths of small calls against NumPy: zeros made zeroed (no fill
task) for arrays the fill would run inline, concatenate's common case in one
core call (_core.concat_same), np.array(list) straight to the conversion.
Values, dtype, shape, exception type and aliasing; 0-d and empty arrays;
views with steps; arrays of many tiles; pieces with deferred work pending
on them (a held task, then a deferred write) must be read after it."""
import numpy
import pytest

import ndtile as np
from ndtile import _core

DTYPES = ["bool", "int8", "uint16", "int32", "int64", "uint64", "float32", "float64",
          "complex64", "complex128"]


def same(r, e):
    """r (ndtile) equals e (NumPy) in dtype, shape and bits of value."""
    assert isinstance(r, np.ndarray)
    assert r.dtype == e.dtype and r.shape == e.shape
    numpy.testing.assert_array_equal(numpy.asarray(r), e)


# ---- zeros ------------------------------------------------------------------

@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("shape", [(), (0,), (3, 0), (1,), (7,), (10, 10), (2, 3, 4),
                                   (5000,), (64, 512)])
def test_zeros(dt, shape):
    r = np.zeros(shape, dtype=dt)
    same(r, numpy.zeros(shape, dtype=dt))
    # writable, its own memory, and what a write puts there is read back
    if r.size:
        r[(0,) * len(shape)] = 1
        e = numpy.zeros(shape, dtype=dt)
        e[(0,) * len(shape)] = 1
        same(r, e)
        assert not np.zeros(shape, dtype=dt).any()


def test_zeros_reused_buffers_are_zero():
    # buffers of freed arrays come back: a new zeros never shows old values
    for n in (10, 100, 130, 1000, 4096):
        for _ in range(3):
            a = np.full(n, 7.5)
            del a
            same(np.zeros(n), numpy.zeros(n))
            same(np.zeros_like(np.ones(n, dtype="int32")), numpy.zeros(n, dtype="int32"))


def test_zeros_over_the_inline_threshold():
    saved = _core.build_info()["inline_elems"]
    _core.set_inline_elems(16)
    try:
        same(np.zeros(17), numpy.zeros(17))        # filled by a task
        same(np.zeros(16), numpy.zeros(16))        # made zeroed
        same(np.zeros((4, 5), dtype="complex64"), numpy.zeros((4, 5), dtype="complex64"))
    finally:
        _core.set_inline_elems(saved)


def test_zeros_errors():
    with pytest.raises(ValueError):
        np.zeros(-1)
    with pytest.raises(ValueError):
        np.zeros((2, -3))
    with pytest.raises(TypeError):
        np.zeros(3.5)


# ---- concatenate --------------------------------------------------------------

@pytest.mark.parametrize("dt", ["bool", "int16", "int64", "float32", "complex128"])
def test_concatenate_same_dtype(dt):
    g = numpy.random.default_rng(1)
    a = (g.integers(0, 50, (6, 8)) % (2 if dt == "bool" else 50)).astype(dt)
    b = (g.integers(0, 50, (6, 8)) % (2 if dt == "bool" else 50)).astype(dt)
    x, y = np.asarray(a), np.asarray(b)
    for axis in (0, 1, -1, -2):
        same(np.concatenate((x, y), axis=axis), numpy.concatenate((a, b), axis=axis))
        same(np.concatenate([x, y, x], axis), numpy.concatenate([a, b, a], axis))
    # views with steps (negative too), transposed, broadcast
    same(np.concatenate((x[::-2, 1::3], y[1::2, ::-3])), numpy.concatenate((a[::-2, 1::3],
                                                                            b[1::2, ::-3])))
    same(np.concatenate((x.T, y.T), axis=1), numpy.concatenate((a.T, b.T), axis=1))
    bx = np.broadcast_to(x[0], (3, 8))
    same(np.concatenate((bx, y)), numpy.concatenate((numpy.broadcast_to(a[0], (3, 8)), b)))


def test_concatenate_shapes_and_pieces():
    a = numpy.arange(24.0).reshape(2, 3, 4)
    x = np.asarray(a)
    same(np.concatenate((x, x[:, :0], x), axis=1), numpy.concatenate((a, a[:, :0], a), axis=1))
    same(np.concatenate((x[:0], x[:0])), numpy.concatenate((a[:0], a[:0])))
    # many pieces (more than the binding's stack list), one element each
    pieces = [x[0, 0, k:k + 1] for k in range(4)] * 6
    same(np.concatenate(pieces), numpy.concatenate([a[0, 0, k:k + 1] for k in range(4)] * 6))
    # many tiles (4 KiB tiles in the suite: 2 MiB ones at default settings)
    big = numpy.arange(300_000, dtype=numpy.int64)
    same(np.concatenate((np.asarray(big), np.asarray(big[::-3]))),
         numpy.concatenate((big, big[::-3])))


def test_concatenate_result_is_new():
    a = numpy.arange(5.0)
    x = np.asarray(a)
    r = np.concatenate((x, x))
    r[0] = 99.0
    same(x, a)                          # the inputs are untouched
    assert r.base is None and r.flags.owndata and r.flags.writeable
    same(r, numpy.concatenate((a, a)) + numpy.eye(1, 10).ravel() * 99)


def test_concatenate_mismatches_keep_numpys_errors():
    x, y = np.ones((2, 3)), np.ones((2, 4))
    a, b = numpy.ones((2, 3)), numpy.ones((2, 4))
    for args in [((x, y), 0), ((x, x), 2), ((x, x), -3), ((x, np.ones(3)), 0)]:
        with pytest.raises(Exception) as got:
            np.concatenate(*args)
        nargs = tuple((a if p is x else b if p is y else numpy.ones(3)) for p in args[0])
        with pytest.raises(Exception) as want:
            numpy.concatenate(nargs, args[1])
        assert type(got.value) is type(want.value)
    with pytest.raises(ValueError):
        np.concatenate((np.float64(1.0) * np.ones(()), np.ones(())))
    # other dtypes, scalars, axis=None: the general path, NumPy's results
    same(np.concatenate((np.ones(2, dtype="int8"), np.ones(2))),
         numpy.concatenate((numpy.ones(2, dtype="int8"), numpy.ones(2))))
    same(np.concatenate((x, x), axis=None), numpy.concatenate((a, a), axis=None))
    same(np.concatenate((x, a)), numpy.concatenate((a, a)))


def test_concatenate_after_pending_writes():
    # a held task on x, then a deferred write into it: the join must read
    # x after both (and not run inline before them)
    a = numpy.arange(12.0)
    x, y = np.asarray(a), np.asarray(-a)
    _core._debug_hold(x)
    try:
        x[2:5] = 7.0
        y[::3] += x[:4]
        r = np.concatenate((x, y))
        z = np.zeros(12)
        z[1:3] = x[2:4]
    finally:
        _core._debug_release()
    e = a.copy()
    e[2:5] = 7.0
    f = -a
    f[::3] += e[:4]
    same(r, numpy.concatenate((e, f)))
    ez = numpy.zeros(12)
    ez[1:3] = e[2:4]
    same(z, ez)


# ---- np.array(list) -----------------------------------------------------------

@pytest.mark.parametrize("obj", [
    [], [1, 2, 3], [1.5, -2.0], [True, False], [1, 2.5], [1 + 2j, 3], (4, 5, 6),
    [[1, 2], [3, 4]], [[[1.0]]], [2**63 - 1], [-(2**63)], [2**63], [2**64 - 1],
    [numpy.float32(1.5), numpy.float32(2)], [numpy.int8(3), 4], ((1, 2), (3, 4)), [()],
])
def test_array_of_a_list(obj):
    r = np.array(obj)
    same(r, numpy.array(obj))
    # a copy of its own
    if r.size:
        r.ravel()[0] = 0
        same(np.array(obj), numpy.array(obj))


def test_array_of_a_list_not_held():
    # object, strings, ragged and too-large ints: NumPy's arrays or errors
    for obj in ([2**70], ["ab", "c"], [None, 1]):
        r, e = np.array(obj), numpy.array(obj)
        assert type(r) is numpy.ndarray and r.dtype == e.dtype
        numpy.testing.assert_array_equal(r, e)
    with pytest.raises(ValueError):
        np.array([[1, 2], [3]])


def test_array_of_a_list_of_arrays():
    x = np.arange(3.0)
    same(np.array([x, x + 1]), numpy.array([numpy.arange(3.0), numpy.arange(3.0) + 1]))
    same(np.array([1.0, x[1], 2]), numpy.array([1.0, 1.0, 2]))   # a 0-d item, not first
    same(np.array([x[0], x[2]]), numpy.array([0.0, 2.0]))


def test_array_of_a_list_keywords_take_the_general_path():
    same(np.array([1, 2], dtype="float32"), numpy.array([1, 2], dtype="float32"))
    same(np.array([1, 2], ndmin=3), numpy.array([1, 2], ndmin=3))
    same(np.array([[1, 2]], order="F"), numpy.array([[1, 2]], order="F"))
    assert np.array([[1, 2]], order="F").flags.f_contiguous
    with pytest.raises(ValueError):
        np.array([1, 2], copy=False)
    with pytest.raises(TypeError):
        np.array([1, 2], ndmin=1.0)
