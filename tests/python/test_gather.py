"""Integer-array and boolean-mask reads run in the core (ndt_gather): compare with NumPy."""
import numpy as np
import pytest

import ndtile as nt
from _helpers import DTYPES, NAMES, make


def _same(got, exp):
    g = np.asarray(got)
    assert g.dtype == exp.dtype and g.shape == exp.shape
    np.testing.assert_array_equal(g, exp)


@pytest.mark.parametrize("dt", DTYPES, ids=NAMES)
def test_integer_arrays_every_axis(dt):
    a = make(dt, (13, 17, 11), seed=3)
    x = nt.asarray(a)
    rng = np.random.default_rng(0)
    i = rng.integers(-13, 13, (4, 1))
    j = rng.integers(-17, 17, (1, 6))
    k = rng.integers(0, 11, (4, 6))
    _same(x[i, j, k], a[i, j, k])
    _same(x[nt.asarray(i), nt.asarray(j), nt.asarray(k)], a[i, j, k])
    _same(x[2, [0, 16, -1], 5], a[2, [0, 16, -1], 5])


@pytest.mark.parametrize("dt", [np.float64, np.int32, np.complex64, np.bool_])
def test_views_masks_and_1d(dt):
    a = make(dt, (40, 31), seed=5)
    x = nt.asarray(a)
    i, j = np.array([0, 5, 19]), np.array([3, 0, 7])
    _same(x[::-2, 1::3][i, j], a[::-2, 1::3][i, j])
    _same(x.T[j, i], a.T[j, i])
    m = make(np.bool_, (40, 31), seed=6)
    _same(x[m], a[m])
    _same(x[nt.asarray(m)], a[m])
    v = a[:, 3]
    _same(nt.asarray(v)[[39, -40, 7, 7]], v[[39, -40, 7, 7]])
    _same(x[np.zeros(0, int), np.zeros(0, int)], a[np.zeros(0, int), np.zeros(0, int)])


def test_gather_errors():
    x = nt.asarray(np.arange(12.).reshape(3, 4))
    with pytest.raises(IndexError):
        x[[0, 3], [0, 0]]
    with pytest.raises(IndexError):
        x[[0, 1], [0, -5]]
    with pytest.raises(IndexError):
        x[[0, 1, 2], [0, 1]]
