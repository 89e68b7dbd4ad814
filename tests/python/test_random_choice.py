"""Generator.choice and the legacy choice with p=: native draws (ndtile's
uniform stream searched in p's cdf, docs/guide/deviations.md), NumPy's
argument checks and exceptions, the right distribution (a chi-square
statistic at a fixed seed: deterministic), the same draws at any tile
size."""
import numpy as np
import pytest

import ndtile as nt
from ndtile import _core

P = [0.1, 0.2, 0.3, 0.4, 0.0]


def _gens():
    return [(lambda s: nt.random.default_rng(s), lambda s: np.random.default_rng(s)),
            (lambda s: nt.random.RandomState(s), lambda s: np.random.RandomState(s))]


def _np_of(r):
    return np.asarray(r)


def _chi2(counts, p, n):
    p = np.asarray(p, float)
    k = p > 0
    e = n * p[k]
    return float(((counts[k] - e) ** 2 / e).sum())


@pytest.mark.usefixtures("native_only")
@pytest.mark.parametrize("legacy", [False, True])
def test_choice_p_distribution(legacy):
    g = _gens()[legacy][0](12345)
    n = 200000
    r = _np_of(g.choice(5, n, p=P))
    assert r.dtype == np.int64 and r.shape == (n,)
    counts = np.bincount(r, minlength=5)
    assert counts[4] == 0                      # p = 0: never drawn
    # 3 degrees of freedom: P(chi2 > 16.27) = 0.001; the seed is fixed
    assert _chi2(counts, P, n) < 16.27
    # a skewed p over many values
    q = np.arange(1, 101, dtype=float) ** 2
    q /= q.sum()
    r = _np_of(g.choice(100, (400, 500), p=q))
    assert r.shape == (400, 500)
    counts = np.bincount(r.ravel(), minlength=100)
    # 99 degrees of freedom: P(chi2 > 148.2) = 0.001
    assert _chi2(counts, q, r.size) < 148.2


@pytest.mark.usefixtures("native_only")
def test_choice_p_shapes_and_values():
    g = nt.random.default_rng(1)
    a = nt.arange(10) * 3
    p = np.full(10, 0.1)
    r = g.choice(a, (4, 6), p=p)
    rn = _np_of(r)
    assert rn.shape == (4, 6) and rn.dtype == np.arange(10).dtype
    assert np.all(rn % 3 == 0) and np.all((rn >= 0) & (rn < 30))
    assert g.choice(5, 0, p=P).shape == (0,)
    assert g.choice(5, (2, 0), p=P).shape == (2, 0)
    v = g.choice(5, p=P)
    assert 0 <= int(v) < 4
    # 2-d a along an axis
    b = nt.arange(12).reshape(3, 4)
    r = _np_of(g.choice(b, 5, p=[0.5, 0.5, 0.0], axis=0))
    assert r.shape == (5, 4)
    assert set(r[:, 0]) <= {0, 4}
    r = _np_of(g.choice(b, 3, p=[0.25] * 4, axis=1))
    assert r.shape == (3, 3)
    # p as an ndtile array
    r = _np_of(g.choice(5, 100, p=nt.asarray(P)))
    assert r.max() < 4


@pytest.mark.usefixtures("native_only")
@pytest.mark.parametrize("legacy", [False, True])
def test_choice_p_no_replace(legacy):
    g = _gens()[legacy][0](7)
    for _ in range(20):
        r = _np_of(g.choice(6, 4, replace=False, p=[0.3, 0.3, 0.2, 0.1, 0.1, 0.0]))
        assert r.shape == (4,) and len(set(r.tolist())) == 4 and 5 not in r
    r = _np_of(g.choice(5, (2, 2), replace=False, p=[0.25] * 4 + [0.0]))
    assert r.shape == (2, 2) and sorted(r.ravel().tolist()) == [0, 1, 2, 3]
    # the first pick follows p
    first = np.bincount([int(_np_of(g.choice(3, 1, replace=False, p=[0.6, 0.3, 0.1]))[0])
                         for _ in range(3000)], minlength=3)
    assert _chi2(first, [0.6, 0.3, 0.1], 3000) < 13.8     # 2 dof, P = 0.001


@pytest.mark.parametrize("legacy", [False, True])
@pytest.mark.parametrize("args,kw", [
    ((5, 3), dict(p=[0.2, 0.2, 0.2, 0.2, 0.3])),          # sum != 1
    ((5, 3), dict(p=[0.5, 0.5, 0.5, -0.5, 0.0])),         # negative
    ((5, 3), dict(p=[0.5, 0.5, np.nan, 0.0, 0.0])),       # NaN
    ((5, 3), dict(p=[0.5, 0.5])),                          # wrong length
    ((4, 3), dict(p=[[0.5, 0.5], [0.0, 0.0]])),           # 2-d p
    ((0, 3), dict(p=[])),                                  # a = 0
    ((-2, 3), dict(p=[1.0])),
    ((5, 6), dict(p=[0.25] * 4 + [0.0], replace=False)),  # larger than the population
    ((5, 5), dict(p=[0.25] * 4 + [0.0], replace=False)),  # fewer non-zero entries
    ((5, (2, -1)), dict(p=P)),                             # a negative size
    ((2.5, 3), dict(p=[0.5, 0.5])),                        # a not an int
    ((np.ones((2, 2)), 3), dict(p=[0.5, 0.5])),            # 2-d a (legacy)
])
def test_choice_p_errors(legacy, args, kw):
    mk_nt, mk_np = _gens()[legacy]
    a = nt.asarray(args[0]) if isinstance(args[0], np.ndarray) else args[0]
    try:
        e = mk_np(0).choice(*args, **kw)
    except Exception as exc:
        e_np = exc
    else:       # (a 2-d a is Generator's to take along an axis)
        r = np.asarray(mk_nt(0).choice(a, *args[1:], **kw))
        assert r.shape == e.shape and r.dtype == e.dtype
        return
    with pytest.raises(type(e_np)) as e_nt:
        mk_nt(0).choice(a, *args[1:], **kw)
    assert str(e_nt.value) == str(e_np)


@pytest.mark.usefixtures("native_only")
def test_choice_p_same_draws_any_tiling():
    q = np.linspace(1, 2, 50)
    q /= q.sum()
    saved = _core.tile_bytes()
    try:
        got = []
        for tb in (saved, 256, 2 << 20):
            _core.set_tile_bytes(tb)
            g = nt.random.default_rng(99)
            got.append(_np_of(g.choice(50, (300, 70), p=q)))
            got.append(_np_of(g.choice(50, 30, replace=False, p=q)))
        for k in range(2, len(got), 2):
            np.testing.assert_array_equal(got[k], got[0])
            np.testing.assert_array_equal(got[k + 1], got[1])
    finally:
        _core.set_tile_bytes(saved)
