"""Paths that only arrays of the default 2 MiB tiles take (the suite runs
with 4096-byte tiles, see conftest.py), in a child process with the
default:

- stores of 4 MiB or more are one buffer with their tiles back to back,
  and tasks use views across tiles in place instead of gathering them
  (ndt_bind): sorts, scans, selection and unique along lines across tiles;
- reductions over leading axes fold the rows of blocks that hold several
  of them one at a time, as NumPy does (the same bits), and a result of
  fewer tiles than twice the workers is combined by several tasks, each
  over a piece of the result tile."""
import os
import subprocess
import sys
import textwrap

CHILD = textwrap.dedent("""
    import numpy as np
    import ndtile as nt

    def same(got, want):
        got = np.asarray(got)
        assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, want.dtype)
        assert got.tobytes() == want.tobytes()

    g = np.random.default_rng(5)
    a = np.round(g.standard_normal(5_000_000) * 1000.0)          # 40 MB, 20 tiles
    a[::101] = np.nan
    a[::103] = -0.0
    x = nt.asarray(a)
    same(nt.sort(x), np.sort(a, kind='stable'))
    same(nt.argsort(x, kind='stable'), np.argsort(a, kind='stable'))
    same(nt.sort(x[::-1]), np.sort(a[::-1], kind='stable'))
    p, q = np.partition(a, [10, 2_500_000]), nt.partition(x, [10, 2_500_000])
    same(np.asarray(q)[[10, 2_500_000]], p[[10, 2_500_000]])
    i = np.asarray(nt.argpartition(x, 2_500_000))
    assert a[i[2_500_000]] == p[2_500_000] or np.isnan(p[2_500_000])
    s = a[~np.isnan(a)]
    y = nt.asarray(s)
    same(nt.cumsum(y), np.cumsum(s))
    same(nt.diff(y), np.diff(s))
    v, c = nt.unique(y, return_counts=True)
    wv, wc = np.unique(s, return_counts=True)
    same(v, wv)
    same(c, wc)
    same(nt.searchsorted(nt.sort(y), y[:1000]), np.searchsorted(np.sort(s), s[:1000]))
    m = g.standard_normal((2500, 2048))                            # rows cross tiles in place
    z = nt.asarray(m)
    same(nt.sort(z, axis=0), np.sort(m, axis=0, kind='stable'))
    same(nt.sort(z, axis=None), np.sort(m, axis=None))
    same(nt.argsort(z[:, 7], kind='stable'), np.argsort(m[:, 7], kind='stable'))
    np.testing.assert_allclose(np.asarray(nt.cumsum(z, axis=0)), np.cumsum(m, axis=0),
                               rtol=1e-12, atol=1e-9)
    for dt in (np.float64, np.float32, np.int64):
        r = (g.standard_normal((300, 40000)) * 100).astype(dt)
        y = nt.asarray(r)
        # NumPy adds the rows one at a time when the last axis is kept; so
        # does the direct fold, also for blocks of several rows: same bits
        same(nt.sum(y, axis=0), r.sum(axis=0))
        same(nt.max(y, axis=0), r.max(axis=0))
        same(nt.min(y[::2, 1::3], axis=0), r[::2, 1::3].min(axis=0))
        same(y[::2, 1::3].sum(axis=0), r[::2, 1::3].sum(axis=0))
        t = nt.asarray(r[:, :3000].reshape(300, 30, 100))
        same(nt.sum(t, axis=(0, 1)), r[:, :3000].reshape(300, 30, 100).sum(axis=(0, 1)))
        same(nt.sum(t, axis=1), r[:, :3000].reshape(300, 30, 100).sum(axis=1))
        if dt != np.int64:
            same(nt.mean(y, axis=0), r.mean(axis=0))
    w = nt.asarray(a.copy())
    w.sort()
    same(w, np.sort(a, kind='stable'))
    print("ok")
""")


def test_default_tile_paths_match_numpy():
    env = dict(os.environ)
    env.pop("NDTILE_TILE_BYTES", None)          # the default 2 MiB tiles
    env["NDTILE_TILE_BYTES"] = str(2 << 20)
    r = subprocess.run([sys.executable, "-c", CHILD], env=env, capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    assert r.stdout.strip().endswith("ok")
