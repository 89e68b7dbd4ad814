"""repr, str and print give exactly NumPy's text."""
import numpy as np
import pytest

import ndtile as nt
from _helpers import DTYPES, NAMES, make


@pytest.mark.parametrize("dt", DTYPES, ids=NAMES)
def test_repr_str_small(dt):
    for shape in [(), (0,), (1,), (5,), (3, 4), (2, 0, 3), (2, 3, 4), (0, 3)]:
        a = make(dt, shape)
        x = nt.asarray(a)
        assert repr(x) == repr(a)
        assert str(x) == str(a)


@pytest.mark.parametrize("dt", [np.float64, np.int32, np.bool_, np.complex64, np.uint8,
                                np.float32], ids=str)
def test_repr_str_summarised(dt):
    for shape in [(1001,), (2000,), (50, 40), (3, 400), (400, 3), (5, 6, 50), (7, 8, 9, 10)]:
        a = make(dt, shape)
        x = nt.asarray(a)
        assert repr(x) == repr(a)
        assert str(x) == str(a)


def test_repr_views_and_special_values():
    a = make(np.float64, (60, 50))
    a[3, 4] = np.nan
    a[-1, -1] = np.inf
    a[0, 0] = 1e-12
    x = nt.asarray(a)
    for v, w in [(x, a), (x[::-1], a[::-1]), (x.T, a.T), (x[5], a[5]), (x[:2, :3], a[:2, :3])]:
        assert repr(v) == repr(w)
        assert str(v) == str(w)


def test_printoptions_respected():
    a = make(np.float64, (30, 40))
    x = nt.asarray(a)
    with np.printoptions(precision=3, threshold=50, edgeitems=2, linewidth=60):
        assert repr(x) == repr(a)
        assert str(x) == str(a)
    with nt.printoptions(threshold=5000, suppress=True):
        assert repr(x) == repr(a)
    with np.printoptions(edgeitems=1, threshold=0):
        assert repr(nt.arange(5)) == repr(np.arange(5))


def test_print(capsys):
    print(nt.arange(10.0) * 2)
    print(np.arange(10.0) * 2)
    out = capsys.readouterr().out.splitlines()
    assert out[0] == out[1]


def test_large_repr_does_not_gather_everything(monkeypatch):
    from ndtile import _convert
    sizes = []
    orig = _convert.to_numpy

    def spy(a):
        sizes.append(a.size)
        return orig(a)
    monkeypatch.setattr(_convert, "to_numpy", spy)
    x = nt.zeros((2000, 3000))
    r = repr(x)
    assert "..." in r
    assert max(sizes) <= 7 ** 2
