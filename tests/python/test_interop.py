"""NumPy interoperability: __array__, __array_ufunc__, __array_function__,
DLPack, the array API namespace; NumPy arrays, scalars, lists accepted."""
import re
import warnings

import numpy as np
import pytest

import ndtile as nt
from _helpers import make, assert_same


def test_numpy_asarray():
    a = make(np.float32, (4, 5))
    x = nt.asarray(a)
    b = np.asarray(x)
    assert type(b) is np.ndarray and b.dtype == np.float32
    np.testing.assert_array_equal(b, a)
    np.testing.assert_array_equal(np.asarray(x, dtype=np.float64), a.astype(np.float64))
    np.testing.assert_array_equal(np.array(x[::2, ::-1]), a[::2, ::-1])
    if nt.nranks() == 1:
        # the buffer protocol lends the array's memory: NumPy's view shares it
        v = np.asarray(x, copy=False)
        v[0, 0] = 7
        assert float(x[0, 0]) == 7
        del v
    else:
        with pytest.raises(ValueError):   # several ranks lend no memory
            np.asarray(x, copy=False)
    assert np.asarray(x, copy=True) is not np.asarray(x)


@pytest.mark.parametrize("dtype", [np.float64, np.int32, np.bool_, np.complex64, np.uint8])
def test_view_as_numpy_class(dtype):
    # a.view(numpy.ndarray) (or a NumPy subclass, positional or type=) is
    # NumPy's view of the array's memory, as np.asarray(a) is; a type that is
    # no ndarray class is NumPy's ValueError
    for shape, key in [((3, 4), (slice(None, None, 2), slice(None, None, -1))),
                       ((), Ellipsis), ((0, 3), Ellipsis), ((6,), slice(1, None))]:
        a = make(dtype, shape)[key]
        x = nt.asarray(make(dtype, shape))[key]
        for f in (lambda y: y.view(np.ndarray), lambda y: y.view(type=np.ndarray),
                  lambda y: y.view(np.uint8, np.ndarray),
                  lambda y: y.view(dtype=np.int16, type=np.ndarray)):
            try:
                e = f(a)
            except ValueError as ex:
                if nt.nranks() == 1:
                    # (on several ranks the view is NumPy's view of a
                    # C-ordered copy, deviations.md 16: no layout error)
                    with pytest.raises(ValueError, match=re.escape(str(ex))):
                        f(x)
                continue
            r = f(x)
            assert type(r) is np.ndarray and r.dtype == e.dtype and r.shape == e.shape
            np.testing.assert_array_equal(r, e)
        if len(shape) == 2:
            assert type(x.view(np.matrix)) is np.matrix
            np.testing.assert_array_equal(x.view(np.matrix), a.view(np.matrix))
    x = nt.arange(4.)
    for bad in (list, int):
        for f in (np.arange(4.).view, x.view):
            with pytest.raises(ValueError, match="Type must be a sub-type of ndarray type"):
                f(type=bad)
    with pytest.raises(TypeError, match="Cannot change data-type"):
        x.view(list)            # a dtype to NumPy: object
    if nt.nranks() == 1:
        v = x.view(np.ndarray)
        v[1] = 7                # the same memory, both ways
        assert float(x[1]) == 7
        x[2] = 8
        assert v[2] == 8
        del v
        x.flags.writeable = False
        assert not x.view(np.ndarray).flags.writeable


def test_numpy_ufuncs_dispatch_to_ndtile():
    a = make(np.float64, (10,))
    x = nt.asarray(a)
    for r, e in [(np.add(x, 1), a + 1), (np.sin(x), np.sin(a)), (a + x, a + a),
                 (x + a, a + a), (np.float64(2) * x, 2 * a), (np.maximum(a, x), a),
                 (np.add.reduce(x), np.add.reduce(a)), (np.multiply.outer(x, a),
                                                        np.multiply.outer(a, a))]:
        if isinstance(e, np.ndarray):
            assert isinstance(r, nt.ndarray), type(r)
        assert_same(r, e, 1e-13)
    out = nt.zeros(10)
    assert np.add(x, x, out=out) is out
    assert_same(out, a + a)


def test_numpy_functions_dispatch_to_ndtile():
    a = make(np.float64, (6, 4))
    x = nt.asarray(a)
    assert_same(np.sum(x), np.sum(a), 1e-12)
    assert_same(np.sum(x, axis=0), np.sum(a, axis=0), 1e-12)
    assert_same(np.concatenate([x, x]), np.concatenate([a, a]))
    assert_same(np.reshape(x, (4, 6)), np.reshape(a, (4, 6)))
    assert_same(np.where(x > 0, x, 0), np.where(a > 0, a, 0))
    assert_same(np.mean(x, axis=1), np.mean(a, axis=1), 1e-12)
    assert_same(np.transpose(x), a.T)
    assert_same(np.clip(x, -1, 1), np.clip(a, -1, 1))
    assert np.shape(x) == (6, 4)
    assert_same(np.zeros_like(x), np.zeros_like(a))
    assert_same(np.sort(x, axis=0), np.sort(a, axis=0))       # native: no warning


def test_numpy_functions_without_ndtile_version(fallback_warnings):
    a = make(np.float64, (6, 4))
    x = nt.asarray(a)
    with pytest.warns(RuntimeWarning, match="apply_over_axes"):
        r = np.apply_over_axes(np.sum, x, [0])
    assert_same(r, np.apply_over_axes(np.sum, a, [0]), 1e-12)
    assert_same(np.lexsort((x,), axis=0), np.lexsort((a,), axis=0))   # native (n-d keys)
    with pytest.warns(RuntimeWarning, match="i0"):
        assert_same(np.i0(x), np.i0(a))
    assert_same(np.median(x), np.median(a))   # native: dispatched without a warning


def test_lists_scalars_and_numpy_everywhere():
    assert_same(nt.add([1, 2, 3], 1), np.add([1, 2, 3], 1))
    assert_same(nt.sum([[1, 2], [3, 4]], axis=0), np.sum([[1, 2], [3, 4]], axis=0))
    assert_same(nt.concatenate([[1, 2], np.array([3.0])]), np.concatenate([[1, 2], [3.0]]))
    assert_same(nt.where([True, False], [1, 2], [3, 4]), np.where([True, False], [1, 2], [3, 4]))
    assert_same(nt.zeros(3) + [1, 2, 3], np.zeros(3) + [1, 2, 3])
    assert_same([1, 2, 3] * nt.ones(3), [1, 2, 3] * np.ones(3))
    assert_same(nt.maximum(np.arange(4), 2), np.maximum(np.arange(4), 2))
    assert_same(nt.mean(5.0), np.mean(5.0))


def test_dlpack():
    a = make(np.float64, (3, 4))
    x = nt.asarray(a)
    assert x.__dlpack_device__() == (1, 0)
    b = np.from_dlpack(x)
    np.testing.assert_array_equal(b, a)


def test_array_namespace():
    x = nt.zeros(3)
    assert x.__array_namespace__() is nt
    xp = x.__array_namespace__()
    assert_same(xp.sum(xp.ones(3)), np.float64(3.0))


def test_submodules_present():
    a = make(np.float64, (4, 4)) + 4 * np.eye(4)
    x = nt.asarray(a)
    r = nt.linalg.inv(x)   # native (src/ops/linalg.c)
    assert isinstance(r, nt.ndarray)
    np.testing.assert_allclose(np.asarray(r), np.linalg.inv(a), rtol=1e-12)
    assert_same(nt.linalg.norm(x), np.linalg.norm(a), 1e-13)
    assert_same(nt.linalg.norm(x[0]), np.linalg.norm(a[0]), 1e-13)
    assert_same(nt.linalg.norm(x, axis=1), np.linalg.norm(a, axis=1), 1e-13)
    assert_same(nt.linalg.norm(x[0], np.inf), np.linalg.norm(a[0], np.inf))
    f = nt.fft.fft(x[0])          # native since feat/fft: no fallback warning
    assert isinstance(f, nt.ndarray)
    np.testing.assert_allclose(np.asarray(f), np.fft.fft(a[0]), rtol=1e-12)
    # ndtile.random runs on the core's Philox: reproducible, not NumPy's streams
    nt.random.seed(3)
    r1 = nt.random.rand(5)
    nt.random.seed(3)
    assert_same(r1, np.asarray(nt.random.rand(5)))
    rng = nt.random.default_rng(7)
    g = rng.normal(size=(3, 2))
    assert_same(g, np.asarray(nt.random.default_rng(7).normal(size=(3, 2))))
    eig = nt.linalg.eigh(x + x.T)
    assert isinstance(eig.eigenvalues, nt.ndarray)


def test_matmul_operator():
    a, b = make(np.float64, (4, 5), 1), make(np.float64, (5, 3), 2)
    x, y = nt.asarray(a), nt.asarray(b)
    assert_same(x @ y, a @ b, 1e-13)
    assert_same(a @ y, a @ b, 1e-13)
    assert_same(np.dot(x, y), np.dot(a, b), 1e-13)
    assert_same(nt.matmul(x, y), np.matmul(a, b), 1e-13)


@pytest.mark.skipif(nt.nranks() > 1, reason="on many ranks every rank must make its calls "
                    "in the same order, which threads do not")
def test_threads_share_the_runtime():
    import threading
    errors = []

    def work(seed):
        try:
            a = make(np.float64, (300, 200), seed)
            x = nt.asarray(a)
            for _ in range(20):
                x = x * 1.0001 + 0.5
                a = a * 1.0001 + 0.5
            assert_same(x.sum(axis=0), a.sum(axis=0), 1e-12)
            assert_same(x[3:9, ::7], a[3:9, ::7])
        except Exception as e:     # pragma: no cover
            errors.append(e)
    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors


_LIST_RACE = """
import sys, threading
import ndtile as np
kind = sys.argv[1]
arrs = [np.array([1, 2, 3]) for _ in range(400)]
done = []
def read(b):
    b.wait()
    try:
        for _ in range(25):
            r = np.broadcast(arrs) if kind == 'broadcast' else np.asarray(arrs)
            assert r.shape == (400, 3), r.shape
    finally:
        done.append(1)
def replace(b):
    rng = np.random.RandomState(7)
    b.wait()
    while len(done) < 3:
        i, v = rng.randint(0, 400), rng.randint(0, 9, size=3)
        arrs[i] = v
b = threading.Barrier(4)
ts = [threading.Thread(target=read, args=(b,)) for _ in range(3)]
ts.append(threading.Thread(target=replace, args=(b,)))
for t in ts:
    t.start()
for t in ts:
    t.join()
print('ok')
"""


@pytest.mark.skipif(nt.nranks() > 1, reason="on many ranks every rank must make its calls "
                    "in the same order, which threads do not")
@pytest.mark.parametrize("kind", ["broadcast", "asarray"])
def test_list_of_arrays_replaced_by_another_thread(kind):
    # NumPy reads a list's items by borrowed reference; an ndtile array's
    # buffer export lets other threads run while it waits, and one that
    # replaced the list's items freed the array being exported: a segfault
    # or abort in about one run in three (NumPy's test_multithreading
    # test_arg_locking). A crash here is the subprocess's signal.
    import subprocess
    import sys
    out = subprocess.run([sys.executable, '-c', _LIST_RACE, kind], capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0 and out.stdout.strip() == 'ok', (out.returncode, out.stderr[-2000:])


def test_asarray_does_not_keep_the_source_alive():
    # from_buffer copies: the NumPy array's buffer must be released after,
    # or every conversion leaks its source (twice the memory of the data)
    import sys
    h = np.arange(100000, dtype=np.float64)
    before = sys.getrefcount(h)
    a = nt.asarray(h)
    assert sys.getrefcount(h) == before
    h[:] = 0    # a leaked export would also forbid resizing; writes are fine
    assert float(a[5]) == 5.0


@pytest.mark.skipif(nt.nranks() > 1, reason="starts child processes (no MPI there)")
def test_numpy_code_beside_ndtile_keeps_its_malloc():
    """Converting a large NumPy array must not change how the process's
    malloc treats NumPy's own large temporaries: an earlier version fixed
    glibc's mmap threshold, so every 4 MiB temporary was mapped and faulted
    afresh (~110,000 page faults here instead of ~4,000; NumPy code ~25-50 %
    slower). Page faults of the same NumPy loop, with and without a
    conversion first, each in a fresh process."""
    import os
    import subprocess
    import sys
    prog = (
        "import resource, sys, numpy, ndtile\n"
        "if sys.argv[1] == '1':\n"
        "    ndtile.asarray(numpy.zeros(1 << 20))\n"
        "x = numpy.ones((704, 768))\n"
        "f0 = resource.getrusage(resource.RUSAGE_SELF).ru_minflt\n"
        "for _ in range(100):\n"
        "    y = (x * 2.0 + 1.0) - x.mean()\n"
        "    z = numpy.sqrt(numpy.abs(y))\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - f0)\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith(('NDTILE_', 'MALLOC_'))}
    faults = []
    for conv in ('0', '1'):
        out = subprocess.run([sys.executable, '-c', prog, conv], capture_output=True,
                             text=True, timeout=120, env=env)
        assert out.returncode == 0, out.stderr
        faults.append(int(out.stdout))
    # 100 iterations of fresh 4 MiB mappings would be over 100,000 faults
    assert faults[1] < 2 * faults[0] + 20000, faults


def test_testing_module_compares_ndtile_arrays():
    # `import ndtile as np; np.testing.assert_equal(a, b)`: numpy.testing takes
    # its array path only for numpy.ndarray, so two ndtile arrays reached
    # bool(a == b) and raised "truth value ... ambiguous"
    a = make(np.float64, (300, 200))          # over one default tile
    x, y = nt.asarray(a), nt.asarray(a.copy())
    assert nt.testing is not np.testing
    for f in (nt.testing.assert_equal, nt.testing.assert_array_equal,
              nt.testing.assert_almost_equal, nt.testing.assert_allclose,
              nt.testing.assert_array_almost_equal):
        f(x, y)
        f(x, a)
        f(a, y)
    nt.testing.assert_equal((x, [y[::3, ::-2], {'k': x[1]}]), (a, [a[::3, ::-2], {'k': a[1]}]))
    nt.testing.assert_array_less(x, y + 1)
    nt.testing.assert_array_equal(x, a, strict=True)
    z = y.copy()
    z[123, 45] += 1e-3
    for f in (nt.testing.assert_equal, nt.testing.assert_array_equal,
              nt.testing.assert_allclose):
        with pytest.raises(AssertionError, match='Mismatched elements: 1 /'):
            f(x, z)
    with pytest.raises(AssertionError):        # dtype differs under strict
        nt.testing.assert_array_equal(x, a.astype(np.float32), strict=True)
    with pytest.raises(AssertionError):
        nt.testing.assert_equal(nt.arange(3), nt.arange(4))
    nt.testing.assert_equal(nt.float64(1.5), 1.5)
    nt.testing.assert_equal(nt.squeeze(nt.asarray([[1.5]])), 1.5)
    # the rest is numpy.testing's own: callables get ndtile arrays unchanged
    seen = []
    nt.testing.assert_raises(ZeroDivisionError, lambda v: (seen.append(v), 1 // 0), x)
    assert seen[0] is x
    assert nt.testing.suppress_warnings is np.testing.suppress_warnings
    from ndtile.testing import assert_equal
    assert_equal(x[5:7], a[5:7])


@pytest.mark.parametrize("n", [7, 40000])
def test_array_method_giving_an_ndtile_array(n, request):
    """An object whose __array__ returns an ndtile array (code written for
    `import ndtile as np`) converts as NumPy converts one returning a NumPy
    array: NumPy itself refuses it ('object __array__ method not producing
    an array'), so asarray, array and the functions taking array-likes
    failed. array() copies it."""
    if n > 32768:
        request.getfixturevalue("default_settings")
    base = (np.arange(n, dtype=np.uint64) * 7) % 11

    class Like:
        def __init__(self, m):
            self.arr = m.asarray(base)[::-1]

        def __array__(self, dtype=None, copy=None):
            return self.arr

    a, x = Like(np), Like(nt)
    assert_same(nt.asarray(x), np.asarray(a))
    assert_same(nt.asarray(x, dtype=np.float32), np.asarray(a, dtype=np.float32))
    assert_same(nt.bincount(x), np.bincount(a))
    assert_same(nt.sort(x), np.sort(a))
    assert_same(nt.intersect1d(x, [3, 5, 99]), np.intersect1d(a, [3, 5, 99]))
    # array() trusts an __array__ that takes copy= (NumPy passes copy=True
    # and does not copy again): a write to the result reaches the source
    # in NumPy, and in ndtile
    cn, c = np.array(a), nt.array(x)
    cn[0] = c[0] = 100
    assert int(x.arr[0]) == int(a.arr[0]) == 100


@pytest.mark.parametrize("n", [5, 40000])
def test_objects_whose_array_method_gives_ndtile_inside_lists(n, request):
    """np.array([obj, obj]) and deeper lists of objects whose __array__ returns
    an ndtile array (code written for `import ndtile as np`): NumPy's result
    for the same objects returning NumPy arrays (ndtile refused with NumPy's
    'object __array__ method not producing an array'); their __array__ is
    used, never their sequence methods."""
    if n > 32768:
        request.getfixturevalue("default_settings")
    base = (np.arange(n, dtype=np.int64) * 7) % 11

    def like(m, arr):
        class Like:
            def __array__(self, dtype=None, copy=None):
                return arr

            def __len__(self):
                return 0

            def __getitem__(self, i):
                raise AssertionError("__getitem__ was called")
        return Like()

    for make_args in (lambda m: [like(m, m.asarray(base)), like(m, m.asarray(base)[::-1])],
                      lambda m: ([like(m, m.asarray(base))], (like(m, m.asarray(base)),)),
                      lambda m: [like(m, m.ndarray(shape=(0, 0)))]):
        want = np.array(make_args(np))
        assert_same(nt.array(make_args(nt)), want)
        assert_same(nt.asarray(make_args(nt), dtype=np.float32),
                    np.asarray(make_args(np), dtype=np.float32))
    with pytest.raises(ValueError):      # ragged: NumPy's error still
        nt.array([like(nt, nt.arange(3)), like(nt, nt.arange(4))])


def test_testing_module_takes_objects_whose_array_method_gives_ndtile():
    """ndtile.testing compares an object whose __array__ returns an ndtile
    array (numpy.testing's np.asarray refused it: 'object __array__ method
    not producing an array')."""
    class Like:
        def __array__(self, dtype=None, copy=None):
            return nt.arange(40000.0)[::-1]
    b = np.arange(40000.0)[::-1]
    nt.testing.assert_array_equal(Like(), b)
    nt.testing.assert_allclose(nt.asarray(b), Like())
    nt.testing.assert_equal([Like()], [b])
    with pytest.raises(AssertionError):
        nt.testing.assert_array_equal(Like(), b + 1)


class _InterfaceOf:
    """An object exposing another array's memory by __array_interface__
    (NumPy's test_mem_overlap test_non_ndarray_inputs, gh-5604)."""

    def __init__(self, data):
        self.data = data

    @property
    def __array_interface__(self):
        return self.data.__array_interface__


class _ArrayOf:
    """An object whose __array__ returns the array it holds."""

    def __init__(self, data):
        self.data = data

    def __array__(self, dtype=None, copy=None):
        return self.data


@pytest.mark.parametrize("big", [False, pytest.param(True, marks=pytest.mark.default_settings)])
def test_may_share_memory_of_array_likes(big):
    # may_share_memory / shares_memory of objects known by __array__ or
    # __array_interface__ take them without a copy, as NumPy does: an
    # ndtile array behind one shares memory with its other views (ndtile
    # answered False: it copied the object into a new array)
    n = 600000 if big else 20
    for wrap in (_InterfaceOf, _ArrayOf):
        if wrap is _InterfaceOf and nt.nranks() > 1:
            continue            # several ranks lend no memory (no __array_interface__)
        a, x = np.arange(n), nt.arange(n)
        for f in (lambda v: (v[::2], v[1::2]), lambda v: (v[1::3], v[::2]),
                  lambda v: (v[:n // 2], v[n // 2:]), lambda v: (v[::-1], v[5:6]),
                  lambda v: (v, v[:0])):
            p, q = f(a)
            r, s = f(x)
            for fn in ('shares_memory', 'may_share_memory'):
                e = getattr(np, fn)(wrap(p), q)
                assert getattr(nt, fn)(wrap(r), s) == e, (fn, wrap)
                assert getattr(nt, fn)(s, wrap(r)) == e, (fn, wrap)
                assert getattr(nt, fn)(wrap(r), wrap(s)) == e, (fn, wrap)
        assert not nt.shares_memory(wrap(x), np.arange(n))
        assert not nt.may_share_memory(wrap(x), nt.arange(n))


def test_view_as_numpy_class_at_default_settings(default_settings):
    # an array of several 2 MiB tiles, and a strided view of it: NumPy's view
    # of the memory, writes both ways
    a = np.arange(600_000.0)
    x = nt.arange(600_000.0)
    x = x + 0       # deferred work pending on the tiles
    for key in (slice(None), slice(5, None, 3), slice(None, None, -7)):
        v = x[key].view(np.ndarray)
        assert type(v) is np.ndarray
        np.testing.assert_array_equal(v, a[key])
        if nt.nranks() == 1:
            v[1] = -1
            assert float(x[key][1]) == -1
            x[key][2] = -2
            assert v[2] == -2
            a[key][1], a[key][2] = -1, -2
        del v


@pytest.mark.parametrize("dtype", [np.int8, np.float32, np.complex128, np.bool_])
def test_asmatrix_is_numpys_matrix_view_natively(monkeypatch, dtype):
    # np.matrix is NumPy's class: np.asmatrix(a) of an ndtile array is
    # NumPy's matrix view of its memory (no copy, as NumPy's asmatrix of an
    # ndarray), with no fallback; NumPy's shapes, dtypes and errors
    src = make(dtype, (4, 6))
    if nt.nranks() > 1:
        # on several ranks the memory is not lent: a copy, with the fallback
        # warning (a rank's warnings are not all seen by pytest.warns there)
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            for key in (..., (slice(None, None, 2), slice(1, None, 2)), 0, (0, 0)):
                r, e = nt.asmatrix(nt.asarray(src)[key]), np.asmatrix(src[key])
                assert type(r) is np.matrix and r.dtype == e.dtype and r.shape == e.shape
                np.testing.assert_array_equal(r, e)
        return
    monkeypatch.setenv('NDTILE_FALLBACK', 'error')
    for key in (..., (slice(None, None, 2), slice(1, None, 2)), 0, (0, 0), (slice(0, 0),)):
        a, x = src[key], nt.asarray(src)[key]
        for dt in (None, np.float64):
            with pytest.warns(PendingDeprecationWarning):
                e = np.asmatrix(a, dt)
            with pytest.warns(PendingDeprecationWarning):
                r = nt.asmatrix(x, dt)
            assert type(r) is np.matrix and r.dtype == e.dtype and r.shape == e.shape
            np.testing.assert_array_equal(r, e)
    x = nt.asarray(src)
    with pytest.warns(PendingDeprecationWarning):
        m = nt.asmatrix(x[:, 1:])
    m[1, 1] = 1             # the same memory, both ways
    assert x[1, 2] == 1
    x[0, 1] = 0
    assert m[0, 0] == 0
    y = nt.asarray(src)
    y.flags.writeable = False
    with pytest.warns(PendingDeprecationWarning):
        assert not nt.asmatrix(y).flags.writeable
    with pytest.warns(PendingDeprecationWarning):
        assert nt.asmatrix([[1, 2]]).shape == (1, 2)
    with pytest.warns(PendingDeprecationWarning), pytest.raises(ValueError, match="shape too "
                                                                 "large to be a matrix"):
        nt.asmatrix(nt.zeros((2, 2, 2)))


BM_A = np.arange(4).reshape(2, 2)        # names the bmat strings below look up


def _bmat_cases(m):
    """np.bmat calls of module m (NumPy or ndtile) with m's arrays."""
    A, B = m.asarray(BM_A), m.ones((2, 2), m.float32)
    C = m.arange(6.0).reshape(2, 3)[:, ::-1][:, :2]     # strided
    E = m.zeros((0, 2))
    return [lambda A=A, B=B, C=C: m.bmat('A, B; C, A'), lambda A=A, C=C: m.bmat('A C;C A'),
            lambda: m.bmat('BM_A'), lambda: m.bmat('A, B'), lambda A=A: m.bmat('A, BM_A'),
            lambda: m.bmat([[A, B], [C, A]]), lambda: m.bmat([A, B]), lambda: m.bmat((C,)),
            lambda: m.bmat(C), lambda: m.bmat(5), lambda: m.bmat('A, Z'),
            lambda: m.bmat('X, Y', gdict={'X': A, 'Y': C}),
            lambda: m.bmat('X, Y', ldict={'X': B}, gdict={'X': A, 'Y': C}),
            lambda: m.bmat('X; Y', ldict={}, gdict={'X': A, 'Y': m.ones((1, 3))}),
            lambda: m.bmat([[m.arange(3)], [m.arange(3)]]), lambda: m.bmat(m.zeros((2, 2, 2))),
            lambda: m.bmat([[E], [E[:1]]]), lambda: m.bmat([[E], [A]]), lambda: m.bmat([[1, 2]]),
            lambda: m.bmat(m.arange(3.0)[::2]), lambda: m.bmat(m.zeros(())),
            lambda: m.bmat([[A.astype(m.bool_), A.astype(m.complex64)]])]


def test_bmat_is_native(monkeypatch):
    # np.bmat fell back to NumPy's, whose string form reads the frame that
    # calls it (ndtile's wrapper: NameError for the caller's names); it is
    # ndtile's now: the caller's locals and globals (or ldict/gdict),
    # nested lists, an array (copied), NumPy's errors and its None for
    # another object, the matrix of ndtile's asmatrix
    if nt.nranks() == 1:
        monkeypatch.setenv('NDTILE_FALLBACK', 'error')
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', PendingDeprecationWarning)
        for f, g in zip(_bmat_cases(np), _bmat_cases(nt)):
            try:
                e = f()
            except Exception as exc:        # noqa: BLE001
                with pytest.raises(type(exc)) as got:
                    g()
                assert str(got.value) == str(exc)
                continue
            r = g()
            if e is None:
                assert r is None
                continue
            assert type(r) is np.matrix and r.dtype == e.dtype and r.shape == e.shape
            np.testing.assert_array_equal(r, e)
        # an array is copied (NumPy's matrix(obj))
        x = nt.arange(4.0).reshape(2, 2)
        m = nt.bmat(x)
        x[0, 0] = 9
        assert m[0, 0] == 0
        # NumPy's bmat called with ndtile arrays (its __array_function__)
        r = np.bmat([[x, x]])
        assert type(r) is np.matrix and r.shape == (2, 4) and r[0, 2] == 9


_R_GLOBAL = nt.array([9])


def test_r_and_c_of_a_matrix_string_read_the_callers_names():
    # r_['a, b; c, d'] is NumPy's bmat of the caller's globals, then locals;
    # ndtile handed the string to NumPy's AxisConcatenator, which read its
    # own caller's frame (ndtile's): NameError for the user's local names
    a, b, c, d = (nt.array([k]) for k in (1, 2, 3, 4))
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', PendingDeprecationWarning)
        for got, want in ((nt.r_['a, b; c, d'], [[1, 2, 3, 4]]), (nt.c_['a, b'], [[1, 2]]),
                          (nt.r_['_R_GLOBAL a'], [[9, 1]])):
            assert type(got) is np.matrix and got.tolist() == want
        with pytest.raises(NameError, match="name 'zz' is not defined"):
            nt.r_['zz']
