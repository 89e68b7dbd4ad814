"""Arrays of very many tiles (hundreds of thousands at small tile sizes):
values against NumPy, and what each tile costs on top of its data.

A 4 GiB array in 4 KiB tiles (NumPy's test_identityless_reduction_huge_array
under the suite's tiles) was killed at 14 GB of resident memory: a max over
axis 0 of a (2, N) array named every input tile in every result tile's task
(quadratic), and every tile kept the last task that wrote or read it (1.5
to 3.5 KB a tile for each op). The memory checks run in a child process
with tiles of their own size, so that nothing else of the suite's process
counts; their bounds are generous (several times what is measured) but far
below what either fault cost."""
import os
import subprocess
import sys
import textwrap

import numpy
import pytest

import ndtile as np
from ndtile import _core


def run_child(code, env_extra=None, as_limit=None, timeout=300, prelude=""):
    env = {k: v for k, v in os.environ.items() if not k.startswith("NDTILE_")}
    env.update(env_extra or {})
    pre = None
    if as_limit:
        import resource

        def pre():
            resource.setrlimit(resource.RLIMIT_AS, (as_limit, as_limit))
    r = subprocess.run([sys.executable, "-c", prelude + textwrap.dedent(code)], env=env,
                       capture_output=True, text=True, timeout=timeout, preexec_fn=pre)
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout


STATUS = """
def status():
    d = {}
    with open('/proc/self/status') as f:
        for line in f:
            k, _, v = line.partition(':')
            if k in ('VmRSS', 'VmPTE', 'VmHWM'):
                d[k] = int(v.split()[0]) * 1024
    with open('/proc/self/maps') as f:
        d['maps'] = sum(1 for _ in f)
    return d
"""


@pytest.mark.parametrize("op", ["maximum", "minimum", "add"])
def test_axis0_reduce_of_two_rows(op):
    # the NumPy test's shape, smaller: each result tile folds one block of
    # each row (the direct fold), whatever the number of tiles
    n = 1 << 21   # 1,024 tiles a row at the suite's 4 KiB tiles
    x = numpy.zeros((2, n), numpy.uint8)
    x[:, 0] = [1, 3]
    x[:, -1] = [4, 1]
    x[:, 12345] = [7, 9]
    a = np.asarray(x)
    f, g = getattr(np, op), getattr(numpy, op)
    r = f.reduce(a, axis=0)
    e = g.reduce(x, axis=0)
    assert r.dtype == e.dtype and r.shape == e.shape
    numpy.testing.assert_array_equal(numpy.asarray(r), e)
    assert r[0] == e[0] and r[-1] == e[-1]


@pytest.mark.parametrize("shape,axis", [((3, 40000), 0), ((2, 3, 5000), 0),
                                        ((2, 3, 5000), (0, 1)), ((4, 2, 3001), 1),
                                        ((5, 7000), (0,))])
def test_direct_fold_boxes(shape, axis):
    # result tiles whose box spans several kept axes, a middle reduced
    # axis, strided and offset views; float sums: NumPy's bits (row order)
    x = numpy.random.default_rng(5).standard_normal(shape)
    a = np.asarray(x)
    for v, w in ((a, x), (a[..., 1:], x[..., 1:]), (a[..., ::3], x[..., ::3]),
                 (a[::-1], x[::-1])):
        for fn in ("sum", "max", "min"):
            r = getattr(v, fn)(axis=axis)
            e = getattr(w, fn)(axis=axis)
            assert r.shape == e.shape and r.dtype == e.dtype
            numpy.testing.assert_array_equal(numpy.asarray(r), e)
        r = v.sum(axis=axis, keepdims=True)
        numpy.testing.assert_array_equal(numpy.asarray(r), w.sum(axis=axis, keepdims=True))


def test_two_row_reduce_is_linear_in_the_tiles():
    # 32K tiles of 1 KiB: quadratic, each result tile's task named 16K
    # tiles (and reserved room for 16K uses in each): gigabytes
    out = run_child("""
        import numpy, ndtile as np
        n = 1 << 24
        s0 = status()
        a = np.zeros((2, n), numpy.uint8)
        a[:, 0] = [1, 3]
        a[:, -1] = [4, 1]
        r = np.maximum.reduce(a, axis=0)
        assert int(r[0]) == 3 and int(r[-1]) == 4 and int(r.sum()) == 7
        del a
        s1 = status()
        print((s1['VmHWM'] - s0['VmRSS']) / (2 * n // 1024))
    """, {"NDTILE_TILE_BYTES": "1k"}, prelude=STATUS)
    per_tile = float(out.split()[-1])
    # data: 1 KiB a tile of the input, half that of the result
    assert per_tile < 1536 + 2048, f"{per_tile:.0f} bytes a tile"


def test_per_tile_memory_and_mappings():
    # 100K tiles of 1 KiB per array: a run (zeros, arange) and a result
    # whose tiles are allocated one by one (a + 1, a lazy store); after the
    # work each tile costs its data and its record, no task or mapping
    out = run_child("""
        import numpy, ndtile as np
        nt = 100000
        n = nt * 1024
        s0 = status()
        z = np.zeros(n, numpy.uint8)
        z[0] = 1
        a = np.arange(n, dtype=numpy.uint8)
        b = a + z
        c = (b * 3) ^ a
        tot = int(c.sum(dtype=numpy.uint64))
        mx = int(c.max())
        sample = numpy.asarray(c[::997])
        s1 = status()
        x = numpy.arange(n, dtype=numpy.uint8)
        y = x.copy(); y[0] += 1
        e = (y * 3) ^ x
        assert tot == int(e.sum(dtype=numpy.uint64)) and mx == int(e.max())
        numpy.testing.assert_array_equal(sample, e[::997])
        # four arrays of nt tiles each
        print((s1['VmRSS'] - s0['VmRSS']) / (4 * nt), (s1['VmPTE'] - s0['VmPTE']) / (4 * nt),
              s1['maps'] - s0['maps'])
    """, {"NDTILE_TILE_BYTES": "1k"}, prelude=STATUS)
    rss, pte, maps = (float(v) for v in out.split()[-3:])
    assert rss < 1024 + 1024, f"{rss:.0f} bytes of RSS a tile"   # was ~2,600 more
    assert pte < 64, f"{pte:.1f} bytes of page tables a tile"    # ~8 for its data page
    assert maps < 1000, f"{maps:.0f} new mappings"               # vm.max_map_count: 65530


def test_memory_goes_back_after_del():
    # with the buffer cache off, freeing arrays of many tiles gives their
    # memory back to the system (the runs are unmapped, the tiles of a
    # lazy result and the records go back to malloc, which trims)
    out = run_child("""
        import gc, numpy, ndtile as np
        n = 64 * 1024 * 1024
        s0 = status()
        a = np.arange(n, dtype=numpy.uint8)
        b = a + 1
        assert int(b[-1]) == (n % 256) and int(b.sum(dtype=numpy.uint64)) > 0
        s1 = status()
        del a, b
        gc.collect()
        np.sum(np.ones(10))   # a sync
        s2 = status()
        print(s1['VmRSS'] - s0['VmRSS'], s2['VmRSS'] - s0['VmRSS'])
    """, {"NDTILE_TILE_BYTES": "4k", "NDTILE_CACHE_BYTES": "0"}, prelude=STATUS)
    grown, left = (int(v) for v in out.split()[-2:])
    assert grown > 100 << 20   # the two arrays' data were there
    assert left < grown / 4, f"{left >> 20} MiB of {grown >> 20} MiB left after del"


def test_out_of_memory_with_many_tiles_is_an_error():
    # an address-space limit below what the arrays need (the budget told
    # otherwise): tiles allocated one by one fail, and that is a
    # MemoryError at the op or its next wait; earlier arrays stay good
    out = run_child("""
        import numpy, ndtile as np
        a = np.arange(64 * 1024 * 1024, dtype=numpy.uint8)
        keep, err = [], None
        try:
            for i in range(200):
                keep.append(a + i)
                int(keep[-1][-1])
        except MemoryError as e:
            err = e
        assert err is not None and len(keep) < 200, len(keep)
        keep.clear()
        import gc; gc.collect()
        assert int(a[-1]) == 255 and int((a + 1)[-1]) == 0
        print('ok', len(keep))
    """, {"NDTILE_TILE_BYTES": "4k", "NDTILE_MAX_MEMORY": "1T"}, as_limit=3 << 30)
    assert "ok" in out
