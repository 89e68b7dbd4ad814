"""ndtile.random: the core's counter-based Philox behind NumPy's interface.

Values are not NumPy's streams, so the tests check what must hold:
the same seed gives the same arrays (also for other worker counts and tile
sizes), results have NumPy's types, dtypes and shapes, the distributions
have the right moments (fixed seeds, 5 standard errors), integers stay in
bounds, permutations are permutations, state replays, and errors are
NumPy's (type and message)."""
import math
import os
import pickle
import re
import subprocess
import sys
import warnings

import numpy as np
import pytest

import ndtile as nt
from ndtile import _core, _fallback

NTR = nt.random


def arr(x):
    return np.asarray(x)


def same_values(a, b):
    np.testing.assert_array_equal(arr(a), arr(b), strict=True)


# ---- reproducibility -----------------------------------------------------------

def _draw_all(g):
    """One of every Generator sampler, in a fixed order."""
    return [
        g.random(1000), g.random((7, 9), dtype=np.float32), g.uniform(-2, 3, 500),
        g.standard_normal(800), g.standard_normal(50, dtype=np.float32), g.normal(1, 2, (20, 30)),
        g.exponential(2.0, 300), g.standard_exponential(300, dtype=np.float32),
        g.gamma(0.6, 2.0, 400), g.gamma(4.0, size=400), g.standard_gamma(2.5, 300),
        g.poisson(3.0, 500), g.poisson(40.0, 500), g.binomial(10, 0.3, 500),
        g.binomial(1000, 0.6, 500), g.integers(-5, 17, 600), g.integers(0, 256, 100, np.uint8),
        g.integers(0, 2**64, 50, np.uint64), g.integers(0, 1, 30, bool, endpoint=True),
        g.choice(1000, 50), g.choice(1000, 50, replace=False), g.permutation(777),
        g.permutation(nt.arange(60.0).reshape(12, 5)), g.normal(nt.arange(6.0), 2.0),
        g.uniform(0.0, nt.arange(1.0, 7.0), size=(4, 6)), g.exponential(nt.ones(9)),
        g.random(), g.integers(100), g.normal(),
    ]


def test_same_seed_same_values():
    a, b = _draw_all(NTR.default_rng(42)), _draw_all(NTR.default_rng(42))
    for x, y in zip(a, b):
        same_values(x, y)
    c = _draw_all(NTR.default_rng(43))
    assert not np.array_equal(arr(a[0]), arr(c[0]))
    # successive draws differ
    g = NTR.default_rng(42)
    assert not np.array_equal(arr(g.random(100)), arr(g.random(100)))


def test_seed_forms():
    def first(seed):
        return arr(NTR.default_rng(seed).random(8))
    same_values(first(5), first([5]))
    same_values(first(np.int64(5)), first(5))
    same_values(first([1, 2, 3]), first(np.array([1, 2, 3])))
    # a range is a sequence of ints to NumPy (its seeds accept it; was TypeError)
    same_values(first(range(1, 4)), first([1, 2, 3]))
    same_values(NTR.RandomState(range(3)).rand(4), NTR.RandomState([0, 1, 2]).rand(4))
    same_values(first(2**100), first(2**100))
    assert not np.array_equal(first([1, 2]), first([2, 1]))
    assert not np.array_equal(first(None), first(None))
    same_values(first(np.random.SeedSequence(9)), first(np.random.SeedSequence(9)))
    same_values(first(np.random.PCG64(3)), first(np.random.PCG64(3)))
    same_values(first(np.random.default_rng(3)), first(np.random.default_rng(3)))
    g = NTR.default_rng(1)
    assert NTR.default_rng(g) is g
    bg = NTR.TilePhilox(11)
    same_values(NTR.Generator(bg).random(4), NTR.Generator(NTR.TilePhilox(11)).random(4))
    same_values(NTR.RandomState(7).rand(6), NTR.RandomState(7).rand(6))
    same_values(NTR.RandomState(np.random.MT19937(2)).rand(6),
                NTR.RandomState(np.random.MT19937(2)).rand(6))
    rs = NTR.RandomState(7)
    x = rs.rand(6)
    rs.seed(7)
    same_values(rs.rand(6), x)


def test_legacy_functions_follow_seed():
    def run():
        NTR.seed(123)
        return [NTR.rand(3, 4), NTR.randn(5), NTR.random(4), NTR.random_sample((2, 2)),
                NTR.ranf(3), NTR.sample(3), NTR.randint(0, 10, 20), NTR.uniform(1, 2, 5),
                NTR.normal(0, 1, 5), NTR.standard_normal(5), NTR.poisson(2.0, 5),
                NTR.binomial(5, 0.5, 5), NTR.exponential(1.0, 5), NTR.gamma(2.0, 1.0, 5),
                NTR.standard_exponential(3), NTR.standard_gamma(2.0, 3), NTR.choice(10, 4),
                NTR.choice(10, 4, replace=False), NTR.permutation(9), NTR.rand()]
    a, b = run(), run()
    for x, y in zip(a, b):
        same_values(x, y)


_WORKER_SCRIPT = r"""
import hashlib, numpy as np, ndtile as nt
g = nt.random.default_rng(2024)
h = hashlib.sha256()
for a in [g.random(5000), g.standard_normal((70, 90), dtype=np.float32),
          g.integers(-5, 100, 3000), g.poisson(4.0, 4000), g.poisson(80.0, 2000),
          g.binomial(50, .3, 4000), g.gamma(0.7, size=3000), g.permutation(5000),
          g.choice(10000, 300, replace=False), g.normal([0., 1.], [1., 2.], size=(1000, 2)),
          g.exponential(2.0, 3000)]:
    h.update(np.ascontiguousarray(np.asarray(a)).tobytes())
print(h.hexdigest())
"""


def _digest_in(env_updates):
    env = dict(os.environ)
    env.update(env_updates)
    out = subprocess.run([sys.executable, "-c", _WORKER_SCRIPT], env=env, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_same_values_for_any_workers_and_tiles():
    d1 = _digest_in({"NDTILE_WORKERS": "1", "NDTILE_TILE_BYTES": "4096"})
    d2 = _digest_in({"NDTILE_WORKERS": "2", "NDTILE_TILE_BYTES": "4096"})
    d3 = _digest_in({"NDTILE_WORKERS": "3", "NDTILE_TILE_BYTES": str(1 << 20)})
    assert d1 == d2 == d3
    # and in this process
    ns = {}
    code = _WORKER_SCRIPT.replace("print(h.hexdigest())", "digest = h.hexdigest()")
    exec(code, ns)
    assert ns["digest"] == d1


def test_same_values_across_tile_sizes_in_process():
    saved = _core.tile_bytes()
    try:
        results = []
        for tb in (4096, 1 << 16, 512):
            _core.set_tile_bytes(tb)
            g = NTR.default_rng(77)
            x = [g.random((300, 41)), g.standard_normal(20000, dtype=np.float32),
                 g.integers(0, 10**12, 5000), g.poisson(12.0, 5000), g.permutation(3000),
                 g.normal(nt.arange(10.0), 1.0, (500, 10))]
            results.append(x)
            assert results[-1][0]._ntiles > 1
        for other in results[1:]:
            for a, b in zip(results[0], other):
                same_values(a, b)
    finally:
        _core.set_tile_bytes(saved)


# ---- types, dtypes and shapes as NumPy -------------------------------------------

def _kind_of(x):
    if isinstance(x, (np.ndarray, nt.ndarray)):
        return ('array', np.dtype(x.dtype), tuple(x.shape))
    if isinstance(x, np.generic):
        return ('npscalar', type(x))
    return ('py', type(x))


GEN_CALLS = [
    ("random", (), {}), ("random", (), {"dtype": np.float32}),
    ("uniform", (), {}), ("uniform", (1, 4), {}),
    ("standard_normal", (), {}), ("standard_normal", (), {"dtype": "f"}),
    ("normal", (), {}), ("normal", (2.0, 3.0), {}),
    ("exponential", (), {}), ("exponential", (2.0,), {}),
    ("standard_exponential", (), {}), ("standard_exponential", (), {"dtype": np.float32}),
    ("gamma", (0.5,), {}), ("gamma", (3.0, 2.0), {}),
    ("standard_gamma", (2.0,), {}), ("standard_gamma", (0.5,), {"dtype": np.float32}),
    ("poisson", (), {}), ("poisson", (30.0,), {}),
    ("binomial", (10, 0.3), {}), ("binomial", (200, 0.7), {}),
    ("integers", (5,), {}), ("integers", (-3, 9), {"dtype": np.int8}),
    ("integers", (0, 2), {"dtype": bool}),
    ("integers", (0, 1), {"dtype": np.bool_, "endpoint": True}),
    ("integers", (10,), {"dtype": int}), ("integers", (0, 2**64), {"dtype": np.uint64}),
    ("integers", (0, 7), {"dtype": np.uint16, "endpoint": True}),
    ("choice", (5,), {}), ("choice", ([1.5, 2.5, 3.5],), {}),
    ("choice", (9,), {"replace": False}), ("choice", (np.arange(12).reshape(4, 3),), {}),
]
SIZES = [None, 0, 1, 6, (2, 3), (), (3, 0)]


@pytest.mark.parametrize("name,args,kw", GEN_CALLS, ids=lambda v: str(v))
def test_generator_types_as_numpy(name, args, kw):
    g, e = NTR.default_rng(0), np.random.default_rng(0)
    for size in SIZES:
        if kw.get("replace") is False and size is not None and np.prod(size) > 9:
            continue
        got = getattr(g, name)(*args, size=size, **kw)
        exp = getattr(e, name)(*args, size=size, **kw)
        assert _kind_of(got) == _kind_of(exp), (name, args, kw, size, got, exp)
        if isinstance(exp, np.ndarray):
            assert isinstance(got, nt.ndarray)


LEGACY_CALLS = [
    ("rand", (), {}), ("rand", (3,), {}), ("rand", (2, 3), {}), ("randn", (), {}),
    ("randn", (4, 1), {}),
]
LEGACY_SIZED = [
    ("random", (), {}), ("random_sample", (), {}), ("randint", (5,), {}),
    ("randint", (-4, 4), {"dtype": np.int16}), ("randint", (2,), {"dtype": bool}),
    ("randint", (9,), {"dtype": np.int64}), ("uniform", (), {}), ("normal", (1.0, 2.0), {}),
    ("standard_normal", (), {}), ("poisson", (4.0,), {}), ("binomial", (8, 0.5), {}),
    ("exponential", (), {}), ("gamma", (2.0,), {}), ("standard_exponential", (), {}),
    ("standard_gamma", (3.0,), {}), ("choice", (6,), {}), ("choice", ([1.0, 2.0],), {}),
]


def test_legacy_types_as_numpy():
    rs, ers = NTR.RandomState(1), np.random.RandomState(1)
    for name, args, kw in LEGACY_CALLS:
        assert _kind_of(getattr(rs, name)(*args, **kw)) == \
            _kind_of(getattr(ers, name)(*args, **kw)), name
    for name, args, kw in LEGACY_SIZED:
        for size in SIZES:
            for mine, theirs in ((rs, ers), (NTR, np.random)):
                got = getattr(mine, name)(*args, size=size, **kw)
                exp = getattr(theirs, name)(*args, size=size, **kw)
                assert _kind_of(got) == _kind_of(exp), (name, args, kw, size, got, exp)
    assert _kind_of(rs.permutation(5)) == _kind_of(ers.permutation(5))
    assert _kind_of(rs.choice(5, 3, replace=False)) == _kind_of(ers.choice(5, 3, replace=False))


def test_array_parameters_types_as_numpy():
    g, e = NTR.default_rng(0), np.random.default_rng(0)
    loc = np.arange(6.0).reshape(2, 3)
    cases = [
        ("normal", (loc, 1.0), {}), ("normal", (0.0, [1.0, 2.0, 3.0]), {"size": (4, 3)}),
        ("normal", ([[1.0], [2.0]], [1.0, 2.0, 3.0]), {}), ("uniform", (loc, 10.0), {}),
        ("uniform", (0.0, [1, 2]), {"size": (3, 2)}), ("exponential", ([1, 2, 3],), {}),
        ("gamma", (2.0, [1.0, 3.0]), {}), ("normal", (np.array(1.0), np.array(2.0)), {}),
        ("normal", (np.zeros((0, 3)), [1, 2, 3]), {}),
    ]
    for name, args, kw in cases:
        got = getattr(g, name)(*args, **kw)
        exp = getattr(e, name)(*args, **kw)
        assert _kind_of(got) == _kind_of(exp), (name, args, kw)
    # ndtile array parameters
    r = g.normal(nt.asarray(loc), nt.asarray([1.0, 2.0, 3.0]))
    assert isinstance(r, nt.ndarray) and r.shape == (2, 3) and r.dtype == np.float64


def test_array_parameters_are_exact_transforms():
    loc = nt.arange(12.0).reshape(3, 4)
    scale = nt.asarray([0.5, 1.0, 2.0, 4.0])
    z = NTR.default_rng(5).standard_normal((3, 4))
    same_values(NTR.default_rng(5).normal(loc, scale), loc + scale * z)
    low, high = nt.asarray([0.0, -1.0, 5.0]), 10.0
    u = NTR.default_rng(6).random((2, 3))
    same_values(NTR.default_rng(6).uniform(low, high, size=(2, 3)), low + (high - low) * u)
    s = NTR.default_rng(7).standard_exponential(4)
    same_values(NTR.default_rng(7).exponential(scale), scale * s)
    k = NTR.default_rng(8).standard_gamma(2.5, 4)
    same_values(NTR.default_rng(8).gamma(2.5, scale), scale * k)


def test_out_argument():
    g = NTR.default_rng(3)
    out = nt.zeros((4, 5))
    r = g.random(out=out)
    assert r is out
    same_values(out, NTR.default_rng(3).random((4, 5)))
    o32 = nt.zeros(6, dtype=np.float32)
    assert g.standard_normal(dtype=np.float32, out=o32) is o32
    npo = np.zeros(7)
    assert g.standard_exponential(out=npo, size=7) is npo
    assert (npo > 0).all()
    with pytest.raises(ValueError, match="size must match out.shape"):
        g.random(3, out=nt.zeros(4))
    with pytest.raises(TypeError, match="Supplied output array has the wrong type"):
        g.random(out=nt.zeros(4, dtype=np.float32))


# ---- distributions -----------------------------------------------------------------

N = 200_000


def check_moments(x, mean, var, k=5.0):
    x = np.asarray(x, dtype=np.float64).ravel()
    n = x.size
    m, s2 = x.mean(), x.var()
    assert abs(m - mean) <= k * math.sqrt(var / n), (m, mean)
    m4 = ((x - m) ** 4).mean()
    assert abs(s2 - var) <= k * math.sqrt(max(m4 - s2 * s2, 1e-300) / n), (s2, var)


DISTS = [
    ("random", (), {}, 0.5, 1 / 12),
    ("random", (), {"dtype": np.float32}, 0.5, 1 / 12),
    ("uniform", (2.0, 5.0), {}, 3.5, 9 / 12),
    ("standard_normal", (), {}, 0.0, 1.0),
    ("standard_normal", (), {"dtype": np.float32}, 0.0, 1.0),
    ("normal", (3.0, 2.0), {}, 3.0, 4.0),
    ("exponential", (2.0,), {}, 2.0, 4.0),
    ("standard_exponential", (), {}, 1.0, 1.0),
    ("standard_exponential", (), {"dtype": np.float32}, 1.0, 1.0),
    ("gamma", (0.5, 2.0), {}, 1.0, 2.0),
    ("gamma", (3.0, 1.5), {}, 4.5, 6.75),
    ("standard_gamma", (5.0,), {}, 5.0, 5.0),
    ("standard_gamma", (0.3,), {"dtype": np.float32}, 0.3, 0.3),
    ("poisson", (3.0,), {}, 3.0, 3.0),
    ("poisson", (0.2,), {}, 0.2, 0.2),
    ("poisson", (50.0,), {}, 50.0, 50.0),
    ("binomial", (10, 0.3), {}, 3.0, 2.1),
    ("binomial", (100, 0.4), {}, 40.0, 24.0),
    ("binomial", (100, 0.9), {}, 90.0, 9.0),
    ("binomial", (7, 0.97), {}, 6.79, 7 * 0.97 * 0.03),
    ("integers", (-3, 7), {}, 1.5, (10 ** 2 - 1) / 12),
    ("integers", (-3, 7), {"endpoint": True}, 2.0, (11 ** 2 - 1) / 12),
    ("integers", (0, 2**40), {}, (2**40 - 1) / 2, (2.0**80 - 1) / 12),
    ("choice", (20,), {}, 9.5, (20 ** 2 - 1) / 12),
]


@pytest.mark.parametrize("name,args,kw,mean,var", DISTS, ids=lambda v: str(v))
def test_moments(name, args, kw, mean, var):
    g = NTR.default_rng(1234)
    x = getattr(g, name)(*args, size=N, **kw)
    check_moments(x, mean, var)


def test_moments_of_array_parameters_and_legacy():
    g = NTR.default_rng(99)
    x = g.normal(nt.asarray([0.0, 10.0]), nt.asarray([1.0, 3.0]), size=(N // 2, 2))
    check_moments(x[:, 0], 0.0, 1.0)
    check_moments(x[:, 1], 10.0, 9.0)
    y = g.uniform(nt.asarray([0.0, -4.0]), 2.0, size=(N // 2, 2))
    check_moments(y[:, 1], -1.0, 36 / 12)
    rs = NTR.RandomState(5)
    check_moments(rs.randn(N), 0.0, 1.0)
    check_moments(rs.randint(0, 6, N), 2.5, 35 / 12)
    check_moments(rs.rand(N), 0.5, 1 / 12)


def test_integers_bounds():
    g = NTR.default_rng(2)
    for lo, hi, dt, ep in [(-5, 5, np.int64, False), (-5, 5, np.int64, True),
                           (0, 255, np.uint8, True), (-128, 127, np.int8, True),
                           (0, 2**64 - 1, np.uint64, True), (-2**63, 2**63, np.int64, False),
                           (10, 11, np.int32, False), (3, 3, np.int16, True),
                           (0, 1, bool, True), (2**63 + 5, 2**63 + 9, np.uint64, False)]:
        x = arr(g.integers(lo, hi, 20000, dtype=dt, endpoint=ep))
        assert x.dtype == np.dtype(dt)
        top = hi if ep else hi - 1
        xs = x.astype(object) if x.dtype == np.uint64 else x
        assert int(xs.min()) >= lo and int(xs.max()) <= top, (lo, hi, dt, ep)
        if top - lo < 300:
            assert int(xs.min()) == lo and int(xs.max()) == top, (lo, hi, dt, ep)
    u = arr(g.integers(0, 256, 50000, dtype=np.uint8))
    assert len(np.unique(u)) == 256
    rs = NTR.RandomState(0)
    x = arr(rs.randint(-2, 3, 5000))
    assert x.min() == -2 and x.max() == 2


def test_permutation_and_choice():
    g = NTR.default_rng(8)
    for n in (0, 1, 2, 17, 5000):
        p = arr(g.permutation(n))
        assert p.dtype == np.int64
        same_values(np.sort(p), np.arange(n))
    assert arr(g.permutation(-3)).shape == (0,)
    # permuting an array permutes whole rows / columns
    a = np.arange(60).reshape(12, 5)
    x = nt.asarray(a)
    r = arr(g.permutation(x))
    assert sorted(map(tuple, r)) == sorted(map(tuple, a))
    c = arr(g.permutation(x, axis=1))
    assert sorted(map(tuple, c.T)) == sorted(map(tuple, a.T))
    assert isinstance(g.permutation(a), nt.ndarray)
    same_values(x, a)                      # the input is not modified
    s = arr(g.permutation(np.array(["a", "b", "c"])))
    assert sorted(s.tolist()) == ["a", "b", "c"]
    # choice
    c = arr(g.choice(1000, 1000, replace=False))
    same_values(np.sort(c), np.arange(1000))
    c = arr(g.choice(10**6, (40, 25), replace=False))
    assert c.shape == (40, 25) and len(np.unique(c)) == 1000 and c.max() < 10**6
    # a small sample of a huge population (no permutation of it)
    for pop, n in ((10**12, 1000), (2**40, (3, 4)), (100_000, 5000)):
        c = arr(g.choice(pop, n, replace=False))
        assert c.shape == np.empty(n).shape and len(np.unique(c)) == c.size
        assert c.min() >= 0 and c.max() < pop
        same_values(NTR.default_rng(9).choice(pop, n, replace=False),
                    NTR.default_rng(9).choice(pop, n, replace=False))
    c = arr(NTR.default_rng(1).choice(10**6, 20000, replace=False))
    check_moments(c, (10**6 - 1) / 2, (10**12 - 1) / 12)
    c = arr(g.choice(7, 5000))
    assert c.min() == 0 and c.max() == 6
    vals = nt.asarray([2.5, -1.0, 7.0])
    c = arr(g.choice(vals, 300))
    assert set(c.tolist()) == {2.5, -1.0, 7.0}
    rows = arr(g.choice(a, 4, replace=False))
    assert rows.shape == (4, 5) and len({tuple(r) for r in rows}) == 4
    assert all(tuple(r) in set(map(tuple, a)) for r in rows)
    cols = arr(g.choice(a, 3, axis=1, replace=False))
    assert cols.shape == (12, 3)
    assert g.choice(a).shape == (5,)
    rs = NTR.RandomState(3)
    same_values(np.sort(arr(rs.choice(50, 50, replace=False))), np.arange(50))
    same_values(np.sort(arr(rs.permutation(30))), np.arange(30))


def test_choice_with_p_native_reproducibly(fallback_warnings):
    # (test_random_choice.py checks its distribution and exceptions)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        a = NTR.default_rng(4).choice(5, 1000, p=[0.1, 0.2, 0.3, 0.4, 0.0])
        b = NTR.default_rng(4).choice(5, 1000, p=[0.1, 0.2, 0.3, 0.4, 0.0])
    assert not any("random.Generator.choice" in str(m.message) for m in w)
    same_values(a, b)
    assert isinstance(a, nt.ndarray) and 4 not in set(arr(a).tolist())


def test_shuffle_in_place():
    g = NTR.default_rng(10)
    x = nt.arange(1000)
    keep = x
    assert g.shuffle(x) is None
    assert x is keep
    v = arr(x)
    assert not np.array_equal(v, np.arange(1000))
    same_values(np.sort(v), np.arange(1000))
    # 2-d along either axis: rows (columns) move whole
    a = np.arange(40.0).reshape(8, 5)
    y = nt.asarray(a)
    g.shuffle(y)
    assert sorted(map(tuple, arr(y))) == sorted(map(tuple, a))
    z = nt.asarray(a)
    g.shuffle(z, axis=1)
    assert sorted(map(tuple, arr(z).T)) == sorted(map(tuple, a.T))
    # a strided view shuffles its own elements only
    w = nt.arange(20)
    g.shuffle(w[::2])
    ww = arr(w)
    same_values(ww[1::2], np.arange(1, 20, 2))
    same_values(np.sort(ww[::2]), np.arange(0, 20, 2))
    # NumPy arrays and lists
    n = np.arange(30)
    g.shuffle(n)
    same_values(np.sort(n), np.arange(30))
    lst = list(range(10))
    g.shuffle(lst)
    assert sorted(lst) == list(range(10))
    # the legacy function, same seed same order
    NTR.seed(1)
    p = nt.arange(50)
    NTR.shuffle(p)
    NTR.seed(1)
    q = nt.arange(50)
    NTR.shuffle(q)
    same_values(p, q)
    assert not np.array_equal(arr(p), np.arange(50))


# ---- state ----------------------------------------------------------------------------

def test_state_get_set_replays():
    g = NTR.default_rng(31)
    g.random(10)
    st = g.bit_generator.state
    assert st["bit_generator"] == "TilePhilox"
    assert set(st["state"]) == {"seed", "stream", "draws"}
    a = [g.random(100), g.integers(0, 9, 50), g.permutation(20), g.normal(size=3)]
    g.bit_generator.state = st
    b = [g.random(100), g.integers(0, 9, 50), g.permutation(20), g.normal(size=3)]
    for x, y in zip(a, b):
        same_values(x, y)
    # another generator takes the state
    h = NTR.default_rng(0)
    h.bit_generator.state = st
    same_values(h.random(100), a[0])
    # pickling
    g2 = pickle.loads(pickle.dumps(g))
    same_values(g2.random(30), g.random(30))
    # legacy get_state/set_state
    NTR.seed(5)
    s = NTR.get_state()
    x = NTR.rand(10)
    NTR.set_state(s)
    same_values(NTR.rand(10), x)
    rs = NTR.RandomState(2)
    s = rs.get_state()
    x = rs.randn(10)
    rs.set_state(s)
    same_values(rs.randn(10), x)
    rs2 = pickle.loads(pickle.dumps(rs))
    same_values(rs2.randint(0, 100, 10), rs.randint(0, 100, 10))


def test_mtrand_namespace():
    # numpy.random.mtrand.RandomState is numpy.random.RandomState and
    # mtrand._rand is the legacy functions' RandomState; emcee builds
    # np.random.mtrand.RandomState() and sets np.random.get_state() on it
    assert np.random.mtrand.RandomState is np.random.RandomState
    assert NTR.mtrand.RandomState is NTR.RandomState
    for name in ("seed", "get_state", "set_state", "rand", "randn", "randint", "normal",
                 "choice", "shuffle"):
        assert getattr(NTR.mtrand, name) is getattr(NTR, name), name
    assert isinstance(NTR.mtrand._rand, NTR.RandomState)
    NTR.seed(7)
    st = NTR.get_state()
    x = NTR.rand(20)
    rs = NTR.mtrand.RandomState()
    rs.set_state(st)
    same_values(rs.rand(20), x)
    NTR.mtrand._rand.seed(3)
    y = NTR.randn(5)
    NTR.seed(3)
    same_values(NTR.randn(5), y)
    # names NumPy's mtrand has that ndtile.random takes from NumPy
    assert callable(NTR.mtrand.hypergeometric)
    assert callable(NTR.mtrand.get_bit_generator)
    for bad in ("default_rng", "Generator", "nonexistent"):
        assert hasattr(np.random.mtrand, bad) == hasattr(NTR.mtrand, bad), bad
    with pytest.raises(AttributeError):
        NTR.mtrand.nonexistent


def test_state_errors():
    g = NTR.default_rng(1)
    with pytest.raises(TypeError, match="state must be a dict"):
        g.bit_generator.state = 5
    with pytest.raises(ValueError, match="state must be for a TilePhilox RNG"):
        g.bit_generator.state = np.random.default_rng(1).bit_generator.state
    with pytest.raises(ValueError):
        NTR.set_state(np.random.get_state())
    with pytest.raises(ValueError):
        g.bit_generator.state = {"bit_generator": "TilePhilox", "state": {"seed": 1}}


def test_spawn():
    kids = NTR.default_rng(3).spawn(3)
    again = NTR.default_rng(3).spawn(3)
    vals = [arr(k.random(20)) for k in kids]
    for k, v in zip(again, vals):
        same_values(k.random(20), v)
    assert not np.array_equal(vals[0], vals[1])
    assert not np.array_equal(vals[0], arr(NTR.default_rng(3).random(20)))


# ---- fallbacks ---------------------------------------------------------------------------

def test_unimplemented_samplers_fall_back_reproducibly(fallback_warnings):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        a = NTR.default_rng(6).vonmises(0.0, 3.0, size=50)
        b = NTR.default_rng(6).vonmises(0.0, 3.0, size=50)
        c = NTR.default_rng(6).zipf(nt.asarray([2.0, 3.0, 4.0]))
        d = NTR.default_rng(6).zipf(nt.asarray([2.0, 3.0, 4.0]))
        NTR.seed(4)
        e = NTR.vonmises(0.0, 1.0, 10)
        NTR.seed(4)
        f = NTR.vonmises(0.0, 1.0, 10)
        NTR.seed(4)
        p1 = NTR.logseries([0.5, 0.9])
        NTR.seed(4)
        p2 = NTR.logseries([0.5, 0.9])
    names = {str(m.message).split(";")[0] for m in w}
    assert any("random.Generator.vonmises" in n for n in names)
    assert any("random.Generator.zipf" in n for n in names)
    assert any("random.vonmises" in n for n in names)
    for x, y in ((a, b), (c, d), (e, f), (p1, p2)):
        assert isinstance(x, nt.ndarray)
        same_values(x, y)
    assert _fallback.is_fallback(NTR.vonmises)
    for name in ("rand", "randn", "randint", "random", "random_sample", "normal", "uniform",
                 "poisson", "binomial", "exponential", "gamma", "choice", "permutation",
                 "shuffle", "seed", "standard_normal"):
        assert not _fallback.is_fallback(getattr(NTR, name)), name
    # classes and non-samplers are NumPy's own (the bit generators' names
    # take ndtile arrays: test_numpy_bit_generators_take_ndtile_arrays)
    assert NTR.BitGenerator is np.random.BitGenerator
    assert issubclass(NTR.SeedSequence, np.random.SeedSequence)
    with pytest.raises(AttributeError):
        NTR.not_a_function
    with pytest.raises(AttributeError):
        NTR.default_rng(0).not_a_method


def test_native_samplers_do_not_warn(monkeypatch, fallback_warnings):
    monkeypatch.setenv("NDTILE_FALLBACK", "error")
    g = NTR.default_rng(0)
    _draw_all(g)
    g.shuffle(nt.arange(10))
    g.choice(nt.arange(5.0), 3, replace=False)
    NTR.seed(0)
    NTR.rand(3)
    NTR.randint(5, size=3)
    NTR.shuffle(nt.arange(4))
    with pytest.raises(NotImplementedError):
        g.vonmises(0.0, 1.0)


# ---- errors as NumPy's ----------------------------------------------------------------------

GEN_ERRORS = [
    "g.random(dtype=np.int64)", "g.random(dtype=np.float16)", "g.standard_normal(dtype=int)",
    "g.standard_gamma(1.0, dtype=np.int32)", "g.random(size=2.0)", "g.random(size=(2.0,))",
    "g.random(-1)", "g.random((2, -1))", "g.uniform(0, np.inf)", "g.uniform(1, 0)",
    "g.uniform(np.zeros(2), np.inf)", "g.uniform([1.0], 0)", "g.uniform(np.nan, 1)",
    "g.normal(0, -1)", "g.normal(0, -0.0)", "g.normal(np.zeros(3), [-0.0, 1, 1])",
    "g.normal([1j])", "g.normal(1j)", "g.normal('a')",
    "g.normal(np.zeros(3), 1, size=(3, 2))", "g.normal(np.zeros((2, 3)), 1, size=(3,))",
    "g.exponential(-1)", "g.exponential([-1, 2])",
    "g.gamma(-1)", "g.gamma(1, -1)", "g.gamma(1, [1, -2])", "g.standard_gamma(-1)",
    "g.poisson(-1)", "g.poisson(np.nan)", "g.poisson(1e19)", "g.binomial(-1, .5)",
    "g.binomial(5, 1.5)", "g.binomial(5, np.nan)", "g.binomial(5, -0.1)",
    "g.integers(5, dtype=bool)", "g.integers(0, 2**64)", "g.integers(-1, 2, dtype=np.uint64)",
    "g.integers(0, 0)", "g.integers(0, -1, endpoint=True)", "g.integers(3, 3)",
    "g.integers(5, 3, endpoint=True)", "g.integers(0, 5, dtype=float)",
    "g.integers(-2**70, 5)", "g.integers(0, 2**70)", "g.integers(0, 300, dtype=np.uint8)",
    "g.integers(-129, 0, dtype=np.int8)", "g.integers(0, 5, size=-1)", "g.integers(0, 'a')",
    "g.choice(0)", "g.choice([])", "g.choice(5, 6, replace=False)", "g.choice(-1)",
    "g.choice(5.5)", "g.choice(5, -1)", "g.choice(5, p=[.5, .5])",
    "g.choice([[1, 2]], 2, axis=2)", "g.permutation(2.0)", "g.permutation(np.array(5))",
    "g.permutation([[1, 2], [3, 4]], axis=2)", "g.shuffle(np.array(5))", "g.shuffle((1, 2))",
    "g.shuffle(np.arange(6), axis=1)",
    "D(-1)", "D(1.5)", "D([1, -2])", "D('a')",
]
LEGACY_ERRORS = [
    "R(-1)", "R(2**32)", "R(1.5)", "r.seed(-1)", "r.seed(2**32)", "r.seed(1.5)",
    "r.rand(2.5)", "r.rand(-1)", "r.random_sample(-1)", "r.randint(0, 0)", "r.randint(3, 3)",
    "r.randint(-1, dtype=np.uint8)", "r.randint(0, 300, dtype=np.uint8)",
    "r.randint(5, dtype=bool)", "r.randint(0, 5, dtype=float)", "r.uniform(0, np.inf)",
    "r.uniform(np.zeros(2), np.inf)", "r.normal(0, -1)", "r.exponential(-1)",
    "r.exponential([1, -2])", "r.gamma(-1)", "r.gamma(1, -1)", "r.standard_gamma(-1)",
    "r.poisson(-1)", "r.binomial(5, 1.5)", "r.binomial(-5, .5)", "r.choice(0)",
    "r.choice([])", "r.choice([[1]])", "r.choice(5, 6, replace=False)", "r.choice(5.5)",
    "r.choice(-1)", "r.permutation(np.array(5))", "r.shuffle(np.array(5))",
]


def _error_of(expr, env):
    try:
        eval(expr, env)
    except Exception as e:
        return type(e), str(e)
    return None


@pytest.mark.parametrize("expr", GEN_ERRORS)
def test_generator_errors_as_numpy(expr):
    mine = _error_of(expr, {"np": np, "g": NTR.default_rng(0), "D": NTR.default_rng})
    theirs = _error_of(expr, {"np": np, "g": np.random.default_rng(0),
                              "D": np.random.default_rng})
    assert theirs is not None
    assert mine == theirs, expr


@pytest.mark.parametrize("expr", LEGACY_ERRORS)
def test_legacy_errors_as_numpy(expr):
    for mod, npmod in ((NTR.RandomState(0), np.random.RandomState(0)), (NTR, np.random)):
        mine = _error_of(expr, {"np": np, "r": mod, "R": NTR.RandomState})
        theirs = _error_of(expr, {"np": np, "r": npmod, "R": np.random.RandomState})
        assert theirs is not None
        assert mine == theirs, expr


def test_parameter_shape_mismatch():
    g = NTR.default_rng(0)
    for f in (lambda: g.uniform(np.zeros(2), [1, 2, 3]), lambda: g.normal(nt.zeros(2), nt.ones(3)),
              lambda: g.exponential(nt.ones(3), size=(2,))):
        with pytest.raises(ValueError):
            f()


def test_rng_binding_errors():
    r = _core.Rng(1)
    with pytest.raises(ValueError):
        _core.Rng(-1)
    with pytest.raises(TypeError):
        r.random((2,), 4)
    with pytest.raises(TypeError):
        r.poisson((2,), 9, 1.0)
    with pytest.raises(ValueError, match="negative dimensions"):
        r.random((-1,), -1)
    with pytest.raises(ValueError, match="state must be"):
        r.set_state((1, 2))
    assert r.get_state() == (1, 0, 0)
    r.set_state((9, 3, 5))
    assert r.get_state() == (9, 3, 5)
    x = r.integers((4,), 8, 2**64 - 4, 2**64, False)
    assert arr(x).min() >= 2**64 - 4
    assert r.get_state() == (9, 3, 6)
    # a failed draw does not advance the generator
    with pytest.raises(ValueError):
        r.normal((3,), -1, 0.0, -1.0)
    assert r.get_state() == (9, 3, 6)


_BAD_ARG_CALLS = [
    "rs.multinomial('a', [0.5, 0.5])", "rs.multinomial(b'3', [0.5, 0.5])",
    "rs.multinomial(1j, [0.5, 0.5])", "rs.multinomial(None, [0.5, 0.5])",
    "rs.multinomial(5.5, [0.5, 0.5])", "rs.multinomial(5, 'a')", "rs.multinomial(5, 1j)",
    "rs.multinomial(5, [[0.5, 0.5]])", "rs.multinomial(5, None)", "rs.multinomial(5, object())",
    "g.multinomial('a', [0.5, 0.5])", "g.multinomial('3', [0.5, 0.5])",
    "g.multinomial(1j, [0.5, 0.5])", "g.multinomial(None, [0.5, 0.5])",
    "g.multinomial(5.5, [0.5, 0.5])", "g.multinomial([5, 'a'], [0.5, 0.5])",
    "rs.dirichlet(None)", "g.dirichlet(1.0)", "g.dirichlet('a')", "rs.dirichlet(object())",
    "rs.choice(5, 'a')", "g.choice(5, [1, 'a'])", "g.choice(5, 2.5)",
    "rs.multivariate_normal([1, 'a'], [[1, 0], [0, 1]])",
    "g.multivariate_normal([1, 'a'], [[1, 0], [0, 1]])",
    "g.multivariate_normal(1j, [[1, 0], [0, 1]])", "g.multivariate_normal([0, 0], [1j, 0])",
    "rs.multivariate_normal([1j, 0], [[1, 0], [0, 1]])",
    "rs.shuffle('a')", "g.shuffle('a')", "rs.shuffle('ab')",
    "rs.random_integers([1, 'a'], 5)", "rs.random_integers([1, 2], 5, 2)",
    "g.negative_binomial(None, 0.5)", "g.negative_binomial(5, None)",
    "g.negative_binomial(float('nan'), 0.5)", "g.negative_binomial([None, 1], 0.5)",
    "g.negative_binomial(np.array([1.0, np.nan]), 0.5)", "g.negative_binomial([0, 1], 0.5)",
]


@pytest.mark.parametrize("call", _BAD_ARG_CALLS)
def test_random_bad_arguments_raise_numpys_exceptions(call):
    # NumPy's exception type (and message) for arguments of a wrong type:
    # RandomState.multinomial's n is a C long (TypeError), its pvals
    # converted to float64 first; Generator's n converted to int64; dirichlet
    # takes len(alpha) first; choice's size is np.prod(size, dtype=intp);
    # shuffle of one element swaps nothing; random_integers with array
    # bounds passed a dtype NumPy's has not; Generator.negative_binomial
    # reads None as NaN and refuses a NaN n by name
    res = []
    for m in (np, nt):
        env = {'rs': m.random.RandomState(0), 'g': m.random.default_rng(0), 'np': m}
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            try:
                r = eval(call, env)
            except Exception as e:      # noqa: BLE001
                res.append((type(e), str(e)))
            else:
                res.append((None, getattr(r, 'shape', None)))
    (te, me), (tg, mg) = res
    assert tg is te or (te is not None and tg is not None and issubclass(te, tg)), (res, call)
    if te is not None and te.__name__ != 'UFuncTypeError':
        assert mg == me


@pytest.mark.parametrize("name", ["PCG64", "PCG64DXSM", "MT19937", "Philox", "SFC64"])
def test_numpy_bit_generators_take_ndtile_arrays(name):
    # np.random.PCG64(seed_array) and np.random.SeedSequence(np.arange(4))
    # raised TypeError ("SeedSequence expects int or sequence of ints"):
    # NumPy's classes check for numpy.ndarray (NumPy's test_smoke
    # test_seed_array). ndtile's names give NumPy's classes NumPy copies,
    # and stay NumPy's classes for isinstance, pickling and Generator.
    cls, np_cls = getattr(NTR, name), getattr(np.random, name)
    for seed in (nt.array([1, 2], dtype=nt.uint64), nt.arange(1500, dtype=nt.uint32)[::3],
                 nt.array([[1, 2], [3, 4]], dtype=nt.int64)[:, 1]):
        got, want = cls(seed), np_cls(np.asarray(seed))
        assert str(got.state) == str(want.state)
        assert isinstance(got, np_cls) and isinstance(want, cls) and issubclass(np_cls, cls)
        assert str(pickle.loads(pickle.dumps(got)).state) == str(got.state)
        assert np.random.Generator(got).random() == np.random.Generator(want).random()
    if name == "Philox":
        key = nt.array([3, 4], dtype=nt.uint64)
        assert str(cls(key=key).state) == str(np_cls(key=np.array([3, 4], np.uint64)).state)
    for bad in ([1.5], 7, [-1]):                 # NumPy's errors
        with pytest.raises(Exception) as want_exc:
            np_cls(np.array(bad))
        with pytest.raises(want_exc.type, match=re.escape(str(want_exc.value))):
            cls(nt.array(bad))


def test_numpy_seed_sequence_takes_ndtile_arrays():
    ss, want = NTR.SeedSequence(nt.arange(4)), np.random.SeedSequence(np.arange(4))
    assert (ss.generate_state(3) == want.generate_state(3)).all()
    assert isinstance(want, NTR.SeedSequence) and isinstance(ss, np.random.SeedSequence)
    kids = ss.spawn(2)
    assert all(isinstance(k, NTR.SeedSequence) for k in kids)
    assert (kids[1].generate_state(2) == want.spawn(2)[1].generate_state(2)).all()
    assert (NTR.SeedSequence(7, spawn_key=(nt.arange(3)[1],)).generate_state(2) ==
            np.random.SeedSequence(7, spawn_key=(1,)).generate_state(2)).all()
    with pytest.raises(ValueError, match="expected non-negative integer"):
        NTR.SeedSequence(nt.array([-1]))
    # a default_rng seeded with one is one draw of it, as before
    assert NTR.default_rng(NTR.SeedSequence(nt.arange(4))).random() == \
        NTR.default_rng(np.random.SeedSequence(np.arange(4))).random()
