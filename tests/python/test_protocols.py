"""NumPy's array protocols: the buffer protocol (memoryview, np.asarray
sharing memory), a.ctypes, a.data, pickling, copy= in asarray/from_dlpack.

The array's memory is lent in place (docs/design.md, "Lending memory"):
writes on either side show on the other, and deferred work on a lent store
is finished when the call that recorded it returns."""
import ctypes
import gc
import os
import pickle
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import ndtile as nt
from _helpers import DTYPES, NAMES, make

# On several ranks (tests/mpi/run.py runs the suite so) an array has no host
# memory of its own: exports raise BufferError, NumPy copies through __array__
LENDS = nt.nranks() == 1
lending = pytest.mark.skipif(not LENDS, reason="several ranks lend no memory")

# ---- PyObject_GetBuffer with explicit flags (what C consumers ask for) ----------
PyBUF = dict(SIMPLE=0, WRITABLE=1, FORMAT=4, ND=8, STRIDES=0x18, C=0x38, F=0x58, ANY=0x98,
             FULL=0x11d, RECORDS_RO=0x1c)


class Py_buffer(ctypes.Structure):
    _fields_ = [('buf', ctypes.c_void_p), ('obj', ctypes.py_object), ('len', ctypes.c_ssize_t),
                ('itemsize', ctypes.c_ssize_t), ('readonly', ctypes.c_int), ('ndim', ctypes.c_int),
                ('format', ctypes.c_char_p), ('shape', ctypes.POINTER(ctypes.c_ssize_t)),
                ('strides', ctypes.POINTER(ctypes.c_ssize_t)), ('suboffsets', ctypes.c_void_p),
                ('internal', ctypes.c_void_p)]


_get = ctypes.pythonapi.PyObject_GetBuffer
_get.argtypes = [ctypes.py_object, ctypes.POINTER(Py_buffer), ctypes.c_int]
_rel = ctypes.pythonapi.PyBuffer_Release
_rel.argtypes = [ctypes.POINTER(Py_buffer)]


def get_buffer(obj, flags):
    """What a C consumer sees: the fields, or the exception raised."""
    b = Py_buffer()
    try:
        _get(obj, ctypes.byref(b), flags)
    except Exception as e:
        return type(e), str(e)
    nd = b.ndim
    r = (b.len, b.itemsize, b.readonly, nd, b.format,
         tuple(b.shape[k] for k in range(nd)) if b.shape else None,
         tuple(b.strides[k] for k in range(nd)) if b.strides else None)
    _rel(ctypes.byref(b))
    return r


def run_default(code):
    env = {k: v for k, v in os.environ.items() if not k.startswith("NDTILE_")}
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr


def views(a):
    """NumPy-style views of a 2-d array: the same calls work on both."""
    return {
        'whole': lambda x: x, 'T': lambda x: x.T, 'step': lambda x: x[:, ::2],
        'neg': lambda x: x[::-1], 'negcol': lambda x: x[1:, ::-3], 'row': lambda x: x[1],
        'elem': lambda x: x[1, 2], 'empty': lambda x: x[:0], 'bcast': lambda x: nt.broadcast_to(
            x[0], (3,) + x.shape[1:]) if isinstance(x, nt.ndarray) else np.broadcast_to(
            x[0], (3,) + x.shape[1:]),
    }


# ---- memoryview ----------------------------------------------------------------
@lending
@pytest.mark.parametrize("dt", DTYPES, ids=NAMES)
@pytest.mark.parametrize("shape", [(), (0,), (1,), (5,), (3, 4), (2, 0, 3), (1500,), (33, 47)])
def test_memoryview_matches_numpy(dt, shape):
    a = make(dt, shape)
    x = nt.asarray(a)
    m, e = memoryview(x), memoryview(a)
    for attr in ('format', 'itemsize', 'ndim', 'shape', 'strides', 'nbytes', 'readonly',
                 'c_contiguous', 'f_contiguous', 'contiguous'):
        assert getattr(m, attr) == getattr(e, attr), attr
    np.testing.assert_array_equal(np.asarray(m), a)
    assert m.tobytes() == e.tobytes()


@lending
@pytest.mark.parametrize("dt", [np.int16, np.float64, np.complex128, np.bool_])
def test_memoryview_of_views_matches_numpy(dt):
    a = make(dt, (6, 9))
    x = nt.asarray(a)
    for name, f in views(a).items():
        m, e = memoryview(f(x)), memoryview(f(a))
        assert (m.shape, m.strides, m.format, m.readonly, m.c_contiguous, m.f_contiguous) == \
            (e.shape, e.strides, e.format, e.readonly, e.c_contiguous, e.f_contiguous), name
        np.testing.assert_array_equal(np.asarray(m), np.asarray(e), err_msg=name)


@lending
def test_memoryview_real_imag_parts():
    a = make(np.complex128, (4, 5))
    x = nt.asarray(a)
    for part in ('real', 'imag'):
        m, e = memoryview(getattr(x, part)), memoryview(getattr(a, part))
        assert (m.format, m.strides, m.shape) == (e.format, e.strides, e.shape)
        np.testing.assert_array_equal(np.asarray(m), getattr(a, part))
    v = np.asarray(x.imag)
    v[0, 0] = 42
    assert complex(x[0, 0]).imag == 42


@lending
@pytest.mark.parametrize("flags", list(PyBUF))
def test_getbuffer_flags_match_numpy(flags):
    a = make(np.float64, (6, 8))
    x = nt.asarray(a)
    ro, xro = a.copy(), x.copy()
    ro.flags.writeable = False
    xro.flags.writeable = False
    cases = [(x, a), (xro, ro)] + [(f(x), f(a)) for f in views(a).values()]
    for got, exp in cases:
        g, e = get_buffer(got, PyBUF[flags]), get_buffer(exp, PyBUF[flags])
        assert g == e, (flags, got.shape, got.strides)


@lending
def test_memory_is_shared_both_ways():
    a = make(np.float64, (30, 40))
    x = nt.asarray(a)          # many tiles under the suite's 4 KiB tiles
    m = memoryview(x)
    m[3, 5] = -1.5
    assert float(x[3, 5]) == -1.5
    x[4] = 2.0
    assert m[4, 39] == 2.0
    x += 1                     # deferred on tiles: finished when the call returns
    assert m[3, 5] == -0.5 and m[4, 0] == 3.0
    n = np.asarray(x)          # NumPy's asarray uses the buffer: no copy, as NumPy's
    assert np.shares_memory(n, np.asarray(x))
    n[0, 0] = 123.0
    assert float(x[0, 0]) == 123.0
    y = x[::-2, 1::3]          # a view spanning tiles, strided and reversed
    v = np.asarray(y)
    v[...] = 7
    exp = a + 1
    exp[3, 5], exp[4], exp[0, 0] = -0.5, 3.0, 123.0
    exp[::-2, 1::3] = 7
    np.testing.assert_array_equal(nt.asnumpy(x) if hasattr(nt, 'asnumpy') else np.array(x), exp)


@lending
def test_readonly_arrays_lend_readonly_memory():
    x = nt.arange(10.0)
    x.flags.writeable = False
    m = memoryview(x)
    assert m.readonly
    with pytest.raises(TypeError, match="cannot modify read-only memory"):
        m[0] = 1.0
    e = np.arange(10.0)
    e.flags.writeable = False
    for arr in (x, e):      # ctypes checks the export's flag itself
        with pytest.raises(TypeError, match="underlying buffer is not writable"):
            (ctypes.c_char * 80).from_buffer(arr)
    assert get_buffer(x, PyBUF['WRITABLE']) == (ValueError, "buffer source array is read-only")
    with pytest.raises(ValueError, match="assignment destination is read-only"):
        np.asarray(x)[0] = 1
    b = nt.broadcast_to(nt.arange(3.0), (4, 3))
    assert memoryview(b).readonly and memoryview(b).strides == (0, 8)


@lending
def test_tiled_store_moves_into_one_buffer():
    # a 2-d array tiled along its rows' axis: its tiles are separate buffers
    # (4 KiB tiles, whatever the suite runs with); a view across them is
    # lent after the store moves
    from ndtile import _core
    old = _core.tile_bytes()
    _core.set_tile_bytes(4096)
    try:
        x = nt.asarray(make(np.int32, (5, 3000)))
    finally:
        _core.set_tile_bytes(old)
    assert x._ntiles > 5
    ref = np.array(x)
    v = x[:, ::-7]
    m = memoryview(v)
    np.testing.assert_array_equal(np.asarray(m), ref[:, ::-7])
    x[2] = -5                  # later writes land in the moved memory
    assert np.asarray(m)[2].tolist() == [-5] * m.shape[1]
    np.testing.assert_array_equal(np.array(x[1]), ref[1])
    del m
    y = x * 2                  # and ops after the loan read it as before
    ref[2] = -5
    np.testing.assert_array_equal(np.array(y), ref * 2)


@lending
def test_export_waits_for_pending_readers_and_writers():
    # default tiles: a large array's ops are deferred tasks on workers
    run_default("""
        import numpy, ndtile as np
        for n in (3 << 18, 5 << 20):      # 6 MiB (tiles in separate buffers), 40 MiB (one)
            a = np.arange(n, dtype=np.float64)
            b = a * 2 + 1                   # deferred (fused) reads of a
            m = memoryview(a)               # waits for them: b keeps the old values
            m[n - 1] = -1.0
            m[0] = -1.0
            assert float(b[n - 1]) == 2 * (n - 1) + 1 and float(b[0]) == 1.0
            a += 1                          # a deferred write on the lent store
            assert m[n - 1] == 0.0 and m[n // 2] == n // 2 + 1, (m[n - 1], m[n // 2])
            a[1:] = a[:-1] * 3              # reads and writes it, across tiles
            r = numpy.arange(n, dtype=numpy.float64) + 1
            r[0] = r[-1] = 0.0
            r[1:] = r[:-1] * 3
            assert numpy.array_equal(numpy.asarray(m), r)
            c = a + 0                       # a copy made while lent
            m[5] = 99.0
            assert float(c[5]) == r[5] and float(a[5]) == 99.0
            del m
            a -= 1                          # deferred again after the loan
            r[5] = 99.0
            assert numpy.array_equal(numpy.asarray(a), r - 1)
            f = (a * 3)[::-1]               # a fused result, not computed yet
            assert memoryview(f)[0] == 3 * (r[-1] - 1)
    """)


@lending
def test_no_leak_and_array_freed_after_release():
    import weakref
    _, data0, _ = _leak_counters()
    for _ in range(20):
        x = nt.arange(3000.0)
        m = memoryview(x)
        w = weakref.ref(x)
        del x
        assert w() is not None     # the memoryview keeps the array
        del m
        gc.collect()
        assert w() is None
    assert _leak_counters()[1] <= data0


def _leak_counters():
    nt._core.sync()
    gc.collect()
    return nt._core.memory_usage()


# ---- a.data, a.ctypes ------------------------------------------------------------
@lending
def test_data_is_the_arrays_memory():
    x = nt.arange(6).reshape(2, 3)
    d = x.data
    assert isinstance(d, memoryview) and d.shape == (2, 3) and d.format == 'l'
    d[1, 1] = 40
    assert int(x[1, 1]) == 40


@lending
@pytest.mark.parametrize("shape", [(), (0,), (7,), (3, 4)])
def test_ctypes_matches_numpy(shape):
    a = make(np.float64, shape)
    x = nt.asarray(a)
    c, e = x.ctypes, a.ctypes
    assert c.data == _core_address(x) and c.data != 0
    for attr in ('shape', 'strides'):
        g, w = getattr(c, attr), getattr(e, attr)
        assert (g is None) == (w is None)
        if g is not None:
            assert type(g)._type_ is type(w)._type_ and list(g) == list(w)
    assert c.shape_as(ctypes.c_short) is None if not shape else \
        list(c.shape_as(ctypes.c_short)) == list(shape)
    assert c.strides_as(ctypes.c_longlong) is None if not shape else \
        list(c.strides_as(ctypes.c_longlong)) == list(a.strides)
    assert isinstance(c._as_parameter_, ctypes.c_void_p)
    assert c._as_parameter_.value == c.data


def _core_address(x):
    return nt._core.buffer_address(memoryview(x))


@lending
def test_ctypes_pointer_writes_and_c_calls():
    x = nt.arange(12.0).reshape(3, 4)
    p = x.ctypes.data_as(ctypes.POINTER(ctypes.c_double))   # keeps the loan
    p[5] = -2.0
    assert float(x[1, 1]) == -2.0
    x += 1
    assert p[5] == -1.0
    libc = ctypes.CDLL(None)
    libc.memset.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_size_t]
    libc.memset(x.ctypes, 0, x.nbytes)        # _as_parameter_
    np.testing.assert_array_equal(np.array(x), np.zeros((3, 4)))
    with pytest.raises(AttributeError):
        x.ctypes.data = 0


# ---- pickling ------------------------------------------------------------------
@pytest.mark.parametrize("dt", DTYPES, ids=NAMES)
def test_pickle_every_dtype_and_view(dt):
    a = make(dt, (30, 41))               # many tiles under the suite's small tiles
    x = nt.asarray(a)
    cases = [(x, a), (x[::-1, ::-3], a[::-1, ::-3]), (x.T, a.T), (x[2, 3], a[2, 3]),
             (x[:0], a[:0]), (nt.asarray(a[1, 1]), np.asarray(a[1, 1])), (x[5], a[5])]
    for proto in range(pickle.HIGHEST_PROTOCOL + 1):
        for got, exp in cases:
            if not isinstance(got, nt.ndarray):
                continue
            r = pickle.loads(pickle.dumps(got, protocol=proto))
            assert type(r) is nt.ndarray and r.dtype == exp.dtype and r.shape == exp.shape
            np.testing.assert_array_equal(np.array(r), exp)
            assert r.flags.writeable and r.flags.owndata
            # NumPy's layout: a Fortran-ordered array (x.T) comes back Fortran-ordered
            e = pickle.loads(pickle.dumps(exp, protocol=proto))
            assert (r.flags.c_contiguous, r.flags.f_contiguous) == \
                (e.flags.c_contiguous, e.flags.f_contiguous)


@pytest.mark.parametrize("dt", [np.float32, np.int64, np.complex128, np.bool_])
@pytest.mark.parametrize("n", [60, pytest.param(80_000, marks=pytest.mark.default_settings)])
def test_pickle_protocol5_out_of_band(dt, n):
    # NumPy's protocol 5: a C- or F-contiguous array's data out of band
    # (one PickleBuffer, read-only where the array is, and the array loaded
    # from a read-only buffer read-only again); another array's in band
    a = make(dt, (8, n))         # > 2 MiB at n = 80,000 for the wider dtypes
    x = nt.asarray(a)
    cases = [lambda m: m, lambda m: m[::2], lambda m: m.T, lambda m: m[:, 1:3],
             lambda m: m[3], lambda m: m[3, 4], lambda m: m[:0], lambda m: m[::-1, ::3],
             lambda m: m[:, 5], lambda m: m[2:4]]
    for f in cases:
        for ro in (False, True):
            exp, got = f(a), f(x)
            if not isinstance(got, nt.ndarray):
                continue
            exp = np.asarray(exp)
            if ro:
                exp = exp.view()
                exp.flags.writeable = False
                got = got.view()
                got.flags.writeable = False
            res = []
            for v in (exp, got):
                bufs = []
                s = pickle.dumps(v, protocol=5, buffer_callback=bufs.append)
                r = pickle.loads(s, buffers=bufs)
                res.append((len(bufs), [b.raw().readonly for b in bufs], r.dtype, r.shape,
                            r.flags.c_contiguous, r.flags.f_contiguous, r.flags.writeable))
                if v is got:
                    assert type(r) is nt.ndarray
                    np.testing.assert_array_equal(np.array(r), exp)
                r2 = pickle.loads(pickle.dumps(v, protocol=5))      # in band
                res.append((r2.flags.writeable, r2.flags.c_contiguous, r2.flags.f_contiguous))
            assert res[2:] == res[:2], (f, ro)
    # a 3-d transpose of a C-contiguous array: out of band too, loaded as
    # the same transposed view (NumPy's axis_order)
    b = make(dt, (4, 3, n // 10))
    for axes in [(1, 0, 2), (2, 0, 1), (0, 2, 1)]:
        for key in [Ellipsis, (slice(None), slice(None, None, 2))]:
            res = []
            for v in (b.transpose(axes)[key], nt.asarray(b).transpose(axes)[key]):
                bufs = []
                r = pickle.loads(pickle.dumps(v, protocol=5, buffer_callback=bufs.append),
                                 buffers=bufs)
                np.testing.assert_array_equal(np.asarray(r), b.transpose(axes)[key])
                res.append((len(bufs), r.shape, r.strides, r.flags.c_contiguous,
                            r.flags.f_contiguous, r.flags.writeable))
            assert res[1] == res[0], (axes, key)
    x2 = x[::2]
    bufs = []
    r = pickle.loads(pickle.dumps(x2, protocol=5, buffer_callback=bufs.append), buffers=bufs)
    r[0, 0] = 5                              # a copy of its own
    assert x2[0, 0] == a[0, 0]


@pytest.mark.skipif(not LENDS, reason="starts a process of its own")
def test_pickle_large_array_default_tiles():
    run_default("""
        import pickle, numpy, ndtile as np
        a = np.arange(3 << 19, dtype=np.float64).reshape(3 << 9, 1024)   # 12 MiB: 6 tiles
        assert a._ntiles > 1
        for proto in (2, 5):
            r = pickle.loads(pickle.dumps(a[::-1, 3:], protocol=proto))
            assert type(r) is np.ndarray
            assert numpy.array_equal(numpy.asarray(r), numpy.asarray(a)[::-1, 3:])
            r = pickle.loads(pickle.dumps(a.T, protocol=proto))   # Fortran-ordered
            assert r.flags.f_contiguous and not r.flags.c_contiguous
            assert numpy.array_equal(numpy.asarray(r), numpy.asarray(a).T)
    """)


# ---- copy= -----------------------------------------------------------------------
def test_asarray_copy_false():
    x = nt.arange(6.0).reshape(2, 3)
    assert nt.asarray(x, copy=False) is x
    assert nt.asarray(x, dtype=np.float64, copy=False) is x
    assert nt.asarray(x, copy=None) is x
    y = nt.asarray(x, copy=True)
    assert y is not x and not nt.shares_memory(x, y)
    with pytest.raises(ValueError, match="Unable to avoid copy"):
        nt.asarray(x, dtype=np.float32, copy=False)
    with pytest.raises(ValueError, match="Unable to avoid copy"):
        nt.asarray(x, order='F', copy=False)
    with pytest.raises(ValueError, match="Unable to avoid copy"):
        nt.asarray([1, 2], copy=False)            # as NumPy
    with pytest.raises(ValueError, match="Unable to avoid copy"):
        np.asarray([1, 2], copy=False)
    # NumPy shares a NumPy array's memory; ndtile needs its tiles: a copy
    with pytest.raises(ValueError, match="Unable to avoid copy"):
        nt.asarray(np.arange(3), copy=False)


@lending
def test_from_dlpack_copy():
    x = nt.arange(5.0)
    for y in (nt.from_dlpack(x), nt.from_dlpack(x, copy=False)):
        # NumPy's is a new view of the memory (not x: see
        # test_from_dlpack_of_an_ndtile_array_is_a_view)
        assert y is not x and nt.shares_memory(x, y) and y.shape == x.shape
    y = nt.from_dlpack(x, copy=True)
    assert y is not x and np.array_equal(np.array(y), np.array(x))
    with pytest.raises(ValueError, match="Device not understood"):
        nt.from_dlpack(x, device='gpu')
    a = np.arange(4)
    r = nt.from_dlpack(a)
    assert type(r) is nt.ndarray and np.array_equal(np.array(r), a)
    with pytest.raises(BufferError):
        nt.from_dlpack(a, copy=False)
    # NumPy imports an ndtile array without a copy: the same memory
    v = np.from_dlpack(x)
    v[1] = -4.0
    assert float(x[1]) == -4.0
    w = np.from_dlpack(x, copy=True)
    w[2] = 100.0
    assert float(x[2]) == 2.0
    ro = nt.arange(3.0)
    ro.flags.writeable = False
    with pytest.raises(BufferError):           # NumPy's rule for read-only arrays
        ro.__dlpack__()
    assert np.array_equal(np.from_dlpack(ro), [0.0, 1.0, 2.0])


class _DlpackSub(nt.ndarray):
    pass


class _NpDlpackSub(np.ndarray):
    pass


@pytest.mark.parametrize("big", [False, pytest.param(True, marks=pytest.mark.default_settings)])
def test_from_dlpack_of_an_ndtile_array_is_a_view(big):
    # NumPy's from_dlpack of its own array is a new view of the memory, a
    # plain ndarray (a subclass's too), read-only where the array is;
    # ndtile returned the array itself, so y.shape = ... reshaped x too
    n = 300 * 1024 if big else 12          # 2.4 MiB of float64 at default settings
    a = make(np.float64, (n,))
    cases = [lambda m: m.array(a), lambda m: m.array(a)[::-3],
             lambda m: m.array(a).reshape(-1, 4)[1:, ::2], lambda m: m.array(a)[:0],
             lambda m: m.array(a)[5, ...], lambda m: m.array(a).reshape(-1, 2).T,
             lambda m: m.array(a).view(_DlpackSub if m is nt else _NpDlpackSub)]
    for make_x in cases:
        for readonly in (False, True):
            got = []
            for m in (np, nt):
                x = make_x(m)
                if readonly:
                    x.flags.writeable = False
                y = m.from_dlpack(x)
                res = [y is x, type(y) is m.ndarray, m.shares_memory(x, y) if x.size else True,
                       y.flags.writeable, y.shape, y.strides == x.strides]
                if x.ndim == 1 and x.size > 1 and not readonly:
                    y.shape = (1, x.size)               # y's own shape
                    res.append(x.shape)
                    y[0, 0] = -7.0                       # the same memory
                    res.append(float(np.asarray(x).ravel()[0]))
                got.append(res)
            assert got[0] == got[1]


@lending
@pytest.mark.parametrize("big", [False, pytest.param(True, marks=pytest.mark.default_settings)])
def test_nested_iters_over_the_arrays_memory(big):
    # np.nested_iters ran NumPy's on gathered copies (the fallback): 'K'
    # order followed the copy's layout, not a flipped view's, and writes
    # through readwrite / writebackifcopy operands were lost. It is
    # NumPy's, as nditer is, over the memory the arrays lend
    n = 300 * 1024 if big else 6        # 2.4 MiB+ of float64 at default settings
    base = np.arange(2 * n * 2, dtype=np.float64).reshape(2, n, 2)
    views = [lambda x: x, lambda x: x[::-1, ::-1, ::-1], lambda x: x.transpose(2, 0, 1),
             lambda x: x[:, 1::2]]
    for view in views:
        got = []
        for m in (np, nt):
            x = view(m.array(base))
            for axes in ([[0], [1, 2]], [[0, 1], [2]], [[2, 0], [1]]):
                for order in ('K', 'C', 'F'):
                    i, j = m.nested_iters(x, axes, order=order)
                    got.append([[float(v) for v, __ in zip(j, range(8))]
                                for _, __ in zip(i, range(3))])
        assert got[:len(got) // 2] == got[len(got) // 2:]
        res = []
        for m in (np, nt):
            x = view(m.array(base))[:, :3, :3]      # (a view of a large array)
            i, j = m.nested_iters(x, [[0], [1, 2]], op_flags=['readwrite'])
            for _ in i:
                for y in j:
                    y[...] = -y
            a32 = view(m.array(base, dtype=np.float32))[:, :4, :4]
            i, j = m.nested_iters(a32, [[0], [1, 2]], op_flags=['readwrite', 'updateifcopy'],
                                  casting='same_kind', op_dtypes='f8')
            with i, j:
                for _ in i:
                    for y in j:
                        y[...] += 1
            res.append((np.asarray(x).sum(), np.asarray(x)[0, 0, 0], np.asarray(a32).tolist()))
        assert res[0] == res[1]


@pytest.mark.skipif(LENDS, reason="one process lends its memory")
def test_several_ranks_refuse_to_lend():
    x = nt.arange(10.0)
    with pytest.raises(BufferError, match="several ranks"):
        memoryview(x)
    v = np.asarray(x)              # NumPy falls back to __array__: a copy
    v[0] = 5.0
    assert float(x[0]) == 0.0
    with pytest.raises(BufferError):
        x.__dlpack__(copy=False)
    assert np.array_equal(np.from_dlpack(x), np.arange(10.0))


@pytest.mark.skipif(not LENDS, reason="starts ranks itself")
def test_several_ranks_refuse_to_lend_launched():
    code = textwrap.dedent("""
        import numpy, ndtile as np
        a = np.arange(100000.0)
        try:
            memoryview(a)
            raise SystemExit("lent on several ranks")
        except BufferError:
            pass
        v = numpy.asarray(a)
        v[0] = 7.0
        assert float(a[0]) == 0.0 and v[-1] == 99999.0
        print("ok", np.nranks())
    """)
    path = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"ndtile_lend_{os.getpid()}.py")
    with open(path, "w") as f:
        f.write(code)
    try:
        env = {k: v for k, v in os.environ.items() if not k.startswith("NDTILE_")}
        r = subprocess.run([sys.executable, "-m", "ndtile", "--ranks", "2", path], env=env,
                           capture_output=True, text=True, timeout=300)
    finally:
        os.unlink(path)
    assert r.returncode == 0 and "ok 2" in r.stdout, r.stdout + r.stderr


@lending
def test_floating_point_errors_reported_at_the_export():
    # deferred work's floating-point flags are due when the memory is lent
    for read in (memoryview, np.asarray):
        seen = []
        with nt.errstate(over='call', call=lambda what, flag: seen.append(what)):
            x = nt.asarray(np.full(40000, 1e308))
            x *= 10                             # deferred: its flags are due at the next read
            assert seen == []
            read(x)
            assert seen == ['overflow']         # reported at the export
        assert np.asarray(x)[0] == np.inf and seen == ['overflow']   # once; the values stay
    with nt.errstate(over='raise'):             # 'raise' runs the op at its call, as NumPy
        x = nt.array([1e308, 1.0])
        with pytest.raises(FloatingPointError, match="overflow encountered in add"):
            nt.add.at(x, [0], 1e308)
    with nt.errstate(over='warn'):
        y = nt.asarray(np.full(40000, 1e308)) * 10
        with pytest.warns(RuntimeWarning, match="overflow encountered in multiply"):
            m = memoryview(y)
        assert m[0] == np.inf


def test_array_protocol_object_returning_an_ndtile_array():
    # an object whose __array__ hands back an ndtile array (a wrapper of
    # one): array/asarray take it (NumPy's asarray refused it, "object
    # __array__ method not producing an array"), calling __array__ once;
    # a result that is no array at all is still NumPy's ValueError
    base = nt.asarray(make(np.float64, (300, 200)))
    calls = []

    class Wrap:
        def __array__(self, dtype=None, copy=None):
            calls.append(1)
            return base

    r = nt.asarray(Wrap())
    assert r is base and len(calls) == 1
    f = nt.asarray(Wrap(), dtype=np.float32)
    np.testing.assert_array_equal(np.asarray(f), np.asarray(base).astype(np.float32))
    c = nt.array(Wrap())        # NumPy trusts __array__ for the copy: base itself
    np.testing.assert_array_equal(np.asarray(c), np.asarray(base))

    class NumPyWrap:
        def __array__(self, dtype=None, copy=None):
            return np.arange(40000).reshape(200, 200)
    got = nt.asarray(NumPyWrap())
    assert isinstance(got, nt.ndarray) and got.dtype == np.int64 and got.shape == (200, 200)

    class Bad:
        def __array__(self, dtype=None, copy=None):
            return [1, 2]
    for m in (np, nt):
        with pytest.raises(ValueError, match="not producing an array"):
            m.asarray(Bad())


# ---- the sequence protocol (PySequence_Check / PySequence_GetItem) -------------
_seq_check = ctypes.pythonapi.PySequence_Check
_seq_check.argtypes = [ctypes.py_object]
_seq_check.restype = ctypes.c_int
_seq_item = ctypes.pythonapi.PySequence_GetItem
_seq_item.argtypes = [ctypes.py_object, ctypes.c_ssize_t]
_seq_item.restype = ctypes.py_object


def seq_item(a, i):
    try:
        return _seq_item(a, i)
    except Exception as e:
        return type(e)


@pytest.mark.parametrize("dt", DTYPES, ids=NAMES)
def test_sequence_protocol_matches_numpy(dt):
    # an array is a sequence to C code as NumPy's is: PySequence_Check, a[i]
    # through sq_item (negative i counted from the end), on views too
    a = make(dt, (4, 6))
    for name, f in views(a).items():
        x, y = f(a), f(nt.asarray(a))
        assert _seq_check(y) == _seq_check(x), name
        n = x.shape[0] if x.ndim else 1
        # (not i < -n: PySequence_GetItem adds n first, and ndtile's ndarray,
        # a Python subclass, then sees an index in range)
        for i in (0, n - 1, -1, -n, n):
            r, s = seq_item(x, i), seq_item(y, i)
            if isinstance(r, type):
                assert s is r, (name, i)
            else:
                np.testing.assert_array_equal(np.asarray(s), r)


@pytest.mark.parametrize("shape", [(3,), (2, 4), (0,), (1,)])
def test_array_as_a_shape_argument(shape):
    # NumPy takes an integer array where it wants a sequence of integers
    # (its shape converter); ndtile's arrays pass there too: np.empty with an
    # ndtile shape, and ndtile's own object-dtype empty (NumPy underneath)
    want = np.empty(np.array(shape), dtype=object).shape
    assert np.empty(nt.array(shape), dtype=object).shape == want
    assert nt.empty(nt.array(shape), dtype='O').shape == want
    assert nt.zeros(nt.array(shape)[::-1], dtype='O').shape == \
        np.zeros(np.array(shape)[::-1], dtype='O').shape
    assert tuple(np.ones(nt.array(shape), dtype=np.int8).shape) == want


@pytest.mark.parametrize("n", [6, 0])
def test_zero_d_array_as_a_shape(n):
    # a 0-d array is a sequence type but not iterable: a shape of one
    # integer, as in NumPy (its converter falls back to the integer)
    for mk in (nt.array, np.array):
        a, b = nt.arange(n), np.arange(n)
        a.shape, b.shape = mk(n), np.array(n)
        assert a.shape == b.shape
        assert nt.arange(n).reshape(mk(n)).shape == np.arange(n).reshape(np.array(n)).shape
        assert nt.zeros(mk(n), dtype=np.int16).shape == np.zeros(np.array(n)).shape
    a = nt.arange(6)
    with pytest.raises(TypeError):
        a.shape = nt.array(2.5)
    with pytest.raises(TypeError):
        np.arange(6).shape = np.array(2.5)


def _zero_d_likes(m):
    """Objects whose __array__ gives module m's 0-d array (ndtile's for
    code written for `import ndtile as np`), one with __float__ and
    __int__, one with __len__, and one giving a 1-d array."""
    class Plain:
        def __array__(self, dtype=None, copy=None):
            return m.array(3.0)

    class Ints:
        def __array__(self, dtype=None, copy=None):
            return m.array(4, dtype=m.int32)

    class Floaty:
        def __array__(self, dtype=None, copy=None):
            return m.array(2.5)

        def __float__(self):
            return 7.5

        def __int__(self):
            return 7

    class Sized:
        def __array__(self, dtype=None, copy=None):
            return m.array(True)

        def __len__(self):
            return 0

    class One:
        def __array__(self, dtype=None, copy=None):
            return m.array([1.0, 2.0])
    return [Plain(), Ints(), Floaty(), Sized(), One()]


@pytest.mark.parametrize("k", range(5))
@pytest.mark.parametrize("dtype", [None, np.float32, np.int64, np.complex128, np.bool_, object,
                                   'U4'])
def test_list_of_zero_d_array_likes(k, dtype):
    # np.array([q, q]) of objects whose __array__ gives a 0-d array: NumPy
    # takes the dtype from the 0-d array and converts each object itself
    # (float(q): a TypeError unless q has __float__; q itself in an object
    # array); ndtile built the array of the 0-d arrays' values when __array__
    # gave ndtile's 0-d array
    def build(m):
        q = _zero_d_likes(m)[k]
        try:
            r = m.array([q, [q, q][0]], dtype=dtype)
        except Exception as e:      # noqa: BLE001
            return type(e), str(e)
        if r.dtype == object:
            return r.shape, [type(v).__name__ for v in r.ravel()]
        return r.dtype, r.shape, np.asarray(r).tolist()
    assert build(nt) == build(np)
