"""median from the core's sort: compare with NumPy."""
import numpy as np
import pytest

import ndtile as nt
from _helpers import make


def _close(got, exp):
    g = np.asarray(got)
    assert g.dtype == np.asarray(exp).dtype and g.shape == np.shape(exp)
    np.testing.assert_allclose(g, exp, rtol=1e-6, equal_nan=True)


@pytest.mark.parametrize("dt", [np.bool_, np.int8, np.int32, np.uint16, np.int64, np.float32,
                                np.float64])
@pytest.mark.parametrize("shape", [(1,), (7,), (8,), (5, 6), (3, 4, 5), (40, 33)])
def test_median_axes(dt, shape):
    a = make(dt, shape, seed=sum(shape))
    x = nt.asarray(a)
    _close(nt.median(x), np.median(a))
    for ax in range(-len(shape), len(shape)):
        _close(nt.median(x, axis=ax), np.median(a, axis=ax))
        _close(nt.median(x, axis=ax, keepdims=True), np.median(a, axis=ax, keepdims=True))
    _close(nt.median(x, keepdims=True), np.median(a, keepdims=True))


def test_median_nan_views_errors():
    a = make(np.float64, (9, 10), seed=2)
    a[3, 4] = np.nan
    x = nt.asarray(a)
    _close(nt.median(x), np.median(a))
    _close(nt.median(x, axis=1), np.median(a, axis=1))
    _close(nt.median(x[::-2, 1::3], axis=0), np.median(a[::-2, 1::3], axis=0))
    assert isinstance(nt.median(x[:, 0]), np.floating)
    with pytest.raises(np.exceptions.AxisError):
        nt.median(x, axis=2)
