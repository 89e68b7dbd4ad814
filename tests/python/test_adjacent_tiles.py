"""Stores of 32 MiB or more are mapped in one piece with their 2 MiB tiles
back to back, and tasks then use views across tiles in place instead of
gathering them (ndt_bind). The suite's 4096-byte tiles never make such
stores, so this runs a child process with the default 2 MiB tiles and
compares the operations that read or write whole lines across tiles with
NumPy."""
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
    w = nt.asarray(a.copy())
    w.sort()
    same(w, np.sort(a, kind='stable'))
    print("ok")
""")


def test_sorts_scans_and_selection_in_place_across_adjacent_tiles():
    env = dict(os.environ)
    env.pop("NDTILE_TILE_BYTES", None)          # the default 2 MiB tiles
    env["NDTILE_TILE_BYTES"] = str(2 << 20)
    r = subprocess.run([sys.executable, "-c", CHILD], env=env, capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    assert r.stdout.strip().endswith("ok")
