"""min/max and their nan- and arg- forms through the SIMD paths of the CPU
kernels (the row accumulation of a reduction over leading axes, and a
contiguous run folded in lanes), against NumPy: the same bits, NaN
propagated, infinities, float32/float64 and integers, arrays larger than a
tile at default settings and small ones, contiguous and strided."""
import warnings
import zlib

import numpy as np
import pytest

import ndtile as nd

OPS = ("max", "min", "nanmax", "nanmin", "argmax", "argmin")


def data(shape, dtype, kind, seed):
    g = np.random.default_rng(seed)
    if np.dtype(dtype).kind in "iu":
        info = np.iinfo(dtype)
        return g.integers(info.min, info.max, size=shape, dtype=dtype, endpoint=True)
    x = g.standard_normal(shape).astype(dtype)
    if kind == "nan":
        x[g.random(shape) < 0.002] = np.nan
    elif kind == "nan_first":
        x.flat[0] = np.nan
    elif kind == "nan_last":
        x.flat[-1] = np.nan
    elif kind == "inf":
        x[g.random(shape) < 0.05] = np.inf
        x[g.random(shape) < 0.05] = -np.inf
    elif kind == "all_inf":
        x[...] = -np.inf
        x.flat[x.size // 2] = np.inf
    return x


def check(x, y, op, axis):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        ref = getattr(np, op)(x, axis=axis)
        got = getattr(nd, op)(y, axis=axis)
    got = np.asarray(got)
    assert got.dtype == ref.dtype and got.shape == ref.shape, (op, axis)
    assert got.tobytes() == ref.tobytes(), (op, axis, ref, got)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("kind", ["plain", "nan", "nan_first", "nan_last", "inf", "all_inf"])
@pytest.mark.parametrize("shape", [(8, 40_000), (600, 601), (3, 37), (1, 70_000)])
def test_float_minmax_bits(dtype, kind, shape):
    x = data(shape, dtype, kind, zlib.crc32(repr((kind, shape)).encode()))
    y = nd.asarray(x)
    for op in OPS:
        for axis in (0, 1, None):
            check(x, y, op, axis)


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.uint8, np.uint64])
@pytest.mark.parametrize("shape", [(8, 40_000), (600, 601)])
def test_int_minmax(dtype, shape):
    x = data(shape, dtype, "plain", 5)
    y = nd.asarray(x)
    for op in OPS[:2] + OPS[4:]:
        for axis in (0, 1, None):
            check(x, y, op, axis)


def test_strided_and_transposed():
    x = data((900, 800), np.float64, "nan", 9)
    y = nd.asarray(x)
    for xs, ys in ((x[::3, ::2], y[::3, ::2]), (x.T, y.T), (x[1:, 5:-3], y[1:, 5:-3])):
        for op in OPS:
            for axis in (0, 1, None):
                check(xs, ys, op, axis)


def test_out_of_place_accumulator_untouched():
    """The result's rows are accumulated in place: the input stays."""
    x = data((8, 40_000), np.float64, "nan", 11)
    y = nd.asarray(x)
    check(x, y, "max", 0)
    assert np.asarray(y).tobytes() == x.tobytes()
