"""Nothing leaks: each family of operations runs in a loop, and neither
ndtile's own counters (bytes of live arrays and of data buffers,
_core.memory_usage), nor the process's resident memory, nor Python's
allocations (tracemalloc) nor the reference counts of the inputs grow.

The arrays are a few tiles large under the suite's small tiles, so that the
deferred (tiled) paths run, not only the inline ones."""
import gc
import io
import sys
import tracemalloc

import numpy
import pytest

import ndtile as np
from ndtile import _core

ROUNDS = 30


def rss_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096


def counters():
    _core.sync()
    gc.collect()
    used, data, _ = _core.memory_usage()
    return used, data


def no_growth(step, inputs, rounds=ROUNDS):
    """Runs step() `rounds` times after a warm-up; fails when memory or the
    inputs' reference counts grow."""
    for _ in range(3):
        step()
    base_refs = [sys.getrefcount(x) for x in inputs]
    used0, data0 = counters()
    rss0 = rss_bytes()
    tracemalloc.start()
    try:
        t0 = tracemalloc.get_traced_memory()[0]
        for _ in range(rounds):
            step()
        used1, data1 = counters()
        t1 = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    rss1 = rss_bytes()
    refs = [sys.getrefcount(x) for x in inputs]
    assert used1 <= used0, f"live array bytes grew {used0} -> {used1}"
    assert data1 <= data0, f"data buffer bytes grew {data0} -> {data1}"
    assert refs == base_refs, f"input refcounts grew {base_refs} -> {refs}"
    # Python objects: a few KiB of caches may settle, never per round
    assert t1 - t0 < 64 * 1024 + rounds * 256, f"Python allocations grew {t1 - t0} bytes"
    assert rss1 - rss0 < 16 << 20, f"RSS grew {(rss1 - rss0) >> 20} MiB"


@pytest.fixture
def a():
    return np.arange(20_000.0).reshape(100, 200) / 7


@pytest.fixture
def b():
    return np.linspace(-3, 3, 20_000).reshape(100, 200)


def test_creation():
    def step():
        x = np.zeros((64, 100))
        y = np.ones(5000, dtype=np.int32)
        z = np.full((30, 30), 2.5)
        w = np.arange(7000) + np.eye(10).sum()
        v = np.asarray(numpy.arange(6000.0))
        del x, y, z, w, v
    no_growth(step, [])


def test_elementwise_and_fused_chains(a, b):
    def step():
        c = a + b
        d = a * b - c / 3 + np.sqrt(abs(b)) * 2
        e = np.where(a > b, a, b)
        f = np.exp(-(a * a)) + np.sin(b) * np.cos(a)
        a2 = a.copy()
        a2 += 1
        a2 *= b
        float(d.sum() + e.sum() + f.sum() + a2.sum())
    no_growth(step, [a, b])


def test_reductions(a, b):
    def step():
        float(a.sum())
        a.mean(axis=0)
        b.max(axis=1)
        float(np.std(a))
        int(np.argmax(b))
        np.cumsum(a, axis=1)
        bool((a > 1).any())
        np.count_nonzero(b > 0)
    no_growth(step, [a, b])


def test_boolean_mask_reads_and_writes(a, b):
    def step():
        m = a > 500
        r = a[m]
        float(r.sum())
        c = a.copy()
        c[m] = 0.0
        c[b < 0] = b[b < 0]
        float(c.sum())
    no_growth(step, [a, b])


def test_fancy_indexing_reads_and_writes(a):
    idx = np.arange(0, 100, 3)
    cols = numpy.array([1, 5, 7, 199])
    def step():
        r = a[idx]
        s = a[:, cols]
        t = a[idx, idx]
        c = a.copy()
        c[idx] = 1.0
        c[idx, idx] = 2.0
        float(r.sum() + s.sum() + t.sum() + c.sum())
    no_growth(step, [a, idx])


def test_slicing_reshape_transpose(a):
    def step():
        v = a[::2, 1:-1]
        w = a[::-1, ::-3]
        t = a.T
        r = a.reshape(200, 100)
        s = np.transpose(a.reshape(10, 10, 200), (2, 0, 1))
        c = a.copy()
        c[10:20, ::5] = w[:10, :40]
        float(v.sum() + t.sum() + r.sum() + s.sum() + c.sum())
    no_growth(step, [a])


def test_sort_unique(a, b):
    def step():
        np.sort(b, axis=1)
        np.argsort(b.ravel())
        np.unique((a * 10).astype(np.int64) % 17)
        np.partition(b.ravel(), 500)
    no_growth(step, [a, b])


def test_concatenate_split_stack(a, b):
    def step():
        c = np.concatenate([a, b], axis=0)
        parts = np.split(c, 4, axis=1)
        s = np.stack([a, b])
        float(sum(float(p.sum()) for p in parts) + s.sum())
    no_growth(step, [a, b])


def test_matmul(a, b):
    m = a[:, :100]
    def step():
        float((m @ m).sum())
        float(np.dot(b.T, a).sum())
    no_growth(step, [a, b, m])


def test_fft():
    x = np.linspace(0, 1, 8192)
    def step():
        f = np.fft.fft(x)
        g = np.fft.irfft(np.fft.rfft(x))
        float(abs(f).sum() + g.sum())
    no_growth(step, [x])


def test_linalg():
    m = np.eye(40) * 3 + np.ones((40, 40)) / 100
    v = np.ones(40)
    def step():
        np.linalg.solve(m, v)
        np.linalg.inv(m)
        float(np.linalg.norm(m))
        np.linalg.det(m)
    no_growth(step, [m, v])


def test_random():
    rng = np.random.default_rng(5)
    def step():
        float(rng.random(10_000).sum())
        float(rng.normal(size=(50, 100)).sum())
        float(np.random.uniform(0, 1, 7000).sum())
    no_growth(step, [rng])


def test_astype_and_conversion_to_numpy(a):
    def step():
        numpy.asarray(a.astype(np.float32))
        (a > 3).astype(np.int8).tolist()
        a.astype(np.complex128).real.sum()
        numpy.asarray(a[::3, ::2])
        float(a[5, 7])
        a.tolist()
    no_growth(step, [a])


def test_printing(a):
    def step():
        s = io.StringIO()
        print(a, file=s)
        repr(a[:3, :3])
        str(np.float64(1.5) * a[0, 0])
    no_growth(step, [a])


def test_mask_read_of_a_large_array_does_not_leak():
    # a[mask] leaked its two index arrays (62 MiB per read of a 2000^2
    # float64 array); at default tiles, where RSS is a fair measure (tiny
    # tiles fragment malloc's heap: RSS creeps while nothing is in use)
    old = _core.tile_bytes()
    _core.set_tile_bytes(2 << 20)
    try:
        x = np.ones((1000, 1000))
        m = x > 0
        def step():
            float(x[m].sum())
            y = x.copy()
            y[m] = 2.0
            float(y.sum())
        no_growth(step, [x, m], rounds=5)
    finally:
        _core.set_tile_bytes(old)
