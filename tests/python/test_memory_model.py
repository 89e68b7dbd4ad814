"""NumPy's memory model on ndtile arrays (issue 20): views of another
itemsize, in-place dtype/shape changes, resize, .base, frombuffer,
__array_interface__, tobytes/ravel orders, as_strided and index tricks.
Every check runs the same program on NumPy (the oracle) and compares
values, dtype, shape, exception type and aliasing (a write through a view
changes exactly what it changes in NumPy)."""
import os
import subprocess
import sys
import textwrap
import warnings

import numpy
import pytest

import ndtile as nt
from ndtile.lib.stride_tricks import as_strided, sliding_window_view


def same(got, want):
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            same(g, w)
        return
    if isinstance(want, numpy.ndarray):
        assert type(got) is nt.ndarray, type(got)
        g = numpy.asarray(got)
        assert g.dtype == want.dtype and g.shape == want.shape, (g.dtype, g.shape, want.dtype,
                                                                 want.shape)
        assert numpy.array_equal(g, want, equal_nan=True), (g, want)
        return
    assert type(got) is type(want) and got == want, (got, want)


def both(fn):
    """fn(module) on ndtile and on NumPy: (ndtile result, NumPy result), or
    the exception types when NumPy raises."""
    try:
        want = fn(numpy)
    except Exception as e:
        with pytest.raises(type(e)):
            fn(nt)
        return None
    return fn(nt), want


def run_default(code):
    env = {k: v for k, v in os.environ.items() if not k.startswith("NDTILE_")}
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr


@pytest.fixture(autouse=True)
def _no_fallback(monkeypatch):
    # a silent copy was the bug: the views below must not fall back
    monkeypatch.setenv("NDTILE_FALLBACK", "error")


# ---- view(dtype) of another itemsize: a true view -------------------------------
VIEW_CASES = [
    ('int64', (4,), 'int32', None),
    ('int64', (3, 4), 'int16', None),
    ('int32', (6,), 'int64', None),
    ('int32', (3, 4), 'int64', None),
    ('float64', (5,), 'uint8', None),
    ('uint8', (4, 8), 'float32', None),
    ('complex128', (3,), 'float64', None),
    ('float32', (4,), 'complex64', None),
    ('int16', (3, 4), 'int32', (slice(None), slice(None, 2))),    # rows apart
    ('int64', (6, 4), 'int32', (slice(1, 5), slice(None))),       # an offset
    ('int64', (6, 4), 'int32', (slice(None, None, -1), slice(None))),   # negative rows
    ('int8', (4, 8), 'int32', (slice(None), slice(4, None))),
]


@pytest.mark.parametrize("src,shape,dst,key", VIEW_CASES)
def test_view_other_itemsize_aliases_like_numpy(src, shape, dst, key):
    def prog(m):
        a = m.arange(int(numpy.prod(shape)), dtype=src).reshape(shape)
        if key is not None:
            a = a[key]
        v = a.view(dst)
        before = v.copy()
        v[...] = 0
        v[(0,) * (v.ndim - 1) + (slice(0, 1),)] = 7       # a write through the view
        mid = a.copy()
        a[...] = 3                                         # a write through the base
        return before, mid, v.copy(), a.copy(), v.shape, v.strides
    r = both(prog)
    if r is None:
        return
    got, want = r
    same(got[:4], want[:4])
    assert got[4] == want[4]
    assert got[5] == want[5]


def test_view_other_itemsize_base_and_flags():
    z = nt.zeros(4, dtype=nt.int64)
    v = z.view(nt.int32)
    assert v.base is z and not v.flags.owndata and v.flags.writeable
    assert nt.shares_memory(z, v) and nt.may_share_memory(z, v)
    r = nt.zeros(4, dtype=nt.int64)
    r.flags.writeable = False
    rv = r.view(nt.int8)
    assert not rv.flags.writeable
    with pytest.raises(ValueError):
        rv[0] = 1


def test_flags_compare_with_numpys_flags():
    # an ndtile array's flags equal a NumPy array's flags when the bits are
    # the same (both orders of ==), as two NumPy arrays' flags compare
    for a in (numpy.arange(12.0).reshape(3, 4), numpy.zeros((2, 3), order='F'),
              numpy.arange(5)[::2], numpy.ones(()), numpy.arange(40000).reshape(200, 200)):
        x = nt.asarray(a.copy(order='K'))
        na = a.copy(order='K')
        assert (x.flags == na.flags) and (na.flags == x.flags) and not (x.flags != na.flags)
        ro = na.copy()
        ro.flags.writeable = False
        assert x.flags != ro.flags and ro.flags != x.flags
    v = nt.arange(10)[::2]
    assert v.flags == numpy.arange(10)[::2].flags
    assert v.flags != numpy.arange(5).flags


def test_view_other_itemsize_numpy_errors():
    for make in (lambda m: m.arange(6, dtype=m.int32).reshape(2, 3).view(m.int64),
                 lambda m: m.arange(6).reshape(2, 3).T.view(m.int32),
                 lambda m: m.array(5, dtype=m.int64).view(m.int32),
                 lambda m: m.arange(3, dtype=m.int16).view(m.int32)):
        both(make)


def test_view_other_itemsize_chain_and_ops():
    # a view of a view, read and written in one call (ops see the overlap)
    def prog(m):
        a = m.arange(8, dtype=m.int64)
        b = a.view(m.int32)
        c = b.view(m.int16)
        c[::4] = -1
        m.add(b[:8], 1, out=b[8:])        # reads one half, writes the other
        a += a.view(m.int64)
        return a.copy(), b.copy(), c.copy()
    same(*both(prog))


def test_view_other_itemsize_at_default_tiles():
    # arrays of several 2 MiB tiles: the view spans tile boundaries
    run_default("""
        import numpy, ndtile as np
        for m, tag in ((np, 'nt'), (numpy, 'np')):
            pass
        n = 700_000
        a = np.arange(n, dtype=np.int64); an = numpy.arange(n, dtype=numpy.int64)
        assert a._ntiles > 1
        v = a.view(np.int32); vn = an.view(numpy.int32)
        v[1::2] = 5; vn[1::2] = 5
        v[262143:262150] = -7; vn[262143:262150] = -7
        assert numpy.array_equal(numpy.asarray(a), an)
        a *= 3; an *= 3
        assert numpy.array_equal(numpy.asarray(v), vn)
        s = a.sum(); assert int(s) == int(an.sum())
        u = a[1000:].view(np.uint8); un = an[1000:].view(numpy.uint8)
        assert u.shape == un.shape and int(u.sum()) == int(un.sum())
        del v, u
        a[:] = 1; assert int(a.sum()) == n
    """)


# ---- a.dtype = ..., a.shape = ... ----------------------------------------------
def test_dtype_assignment():
    def prog(m):
        a = m.arange(6, dtype=m.int64)
        a.dtype = m.int32
        a[1] = 9
        b = m.arange(4, dtype=m.float32)
        b.dtype = m.int32          # same size
        return a.copy(), a.shape, a.flags.owndata, b.copy()
    got, want = both(prog)
    same(got[0], want[0])
    assert got[1:3] == want[1:3]
    same(got[3], want[3])
    a = nt.arange(4, dtype=nt.int64)
    v = a[1:]
    a.dtype = nt.int16
    assert a.base is None and v.base is a and a.shape == (16,)
    assert v[1:].base is a and a[2:].base is a
    v[0] = -1
    assert nt.asarray(a)[4:8].tolist() == [-1, -1, -1, -1]


def test_dtype_assignment_errors():
    for make in (lambda m: setattr(m.arange(6, dtype=m.int32).reshape(2, 3), 'dtype', m.int64),
                 lambda m: setattr(m.arange(6).reshape(2, 3).T, 'dtype', m.int32),
                 lambda m: setattr(m.arange(3), 'dtype', None)):
        both(make)


def test_shape_assignment():
    def prog(m):
        a = m.arange(6)
        a.shape = (2, 3)
        a[1, 1] = 50
        return a.copy(), a.flags.owndata
    got, want = both(prog)
    same(got[0], want[0])
    assert got[1] == want[1]
    for make in (lambda m: setattr(m.arange(6), 'shape', (4,)),
                 lambda m: setattr(m.arange(6).reshape(2, 3).T, 'shape', (6,))):
        both(make)
    with pytest.raises(AttributeError, match="Incompatible shape for in-place modification"):
        nt.arange(6).reshape(2, 3).T.shape = (6,)


# ---- resize ----------------------------------------------------------------------
@pytest.mark.parametrize("args", [(8,), ((2, 3),), (2, 3), (3,), (0,), ((3, 0),)])
def test_resize_in_place(args):
    def prog(m):
        a = m.arange(1, 5, dtype=m.float32)
        a.resize(*args)
        return a.copy(), a.flags.owndata
    got, want = both(prog)
    same(got[0], want[0])
    assert got[1] == want[1]


@pytest.mark.parametrize("shape", [(3, 3), (6,), (2, 2), (3, 4), (1,), (4, 2, 2)])
def test_resize_keeps_fortran_memory_order(shape):
    # NumPy keeps a Fortran-ordered array's memory (column-major) and its
    # order; it used to raise "single-segment"
    def prog(m):
        a = m.asfortranarray(m.arange(6.0).reshape(2, 3))
        a.resize(shape, refcheck=False)
        return a.copy(), (a.flags.f_contiguous, a.flags.c_contiguous, a.shape)
    got, want = both(prog)
    same(got[0], want[0])
    assert got[1] == want[1]
    with pytest.raises(ValueError, match="single-segment"):     # NumPy's check comes first
        nt.asfortranarray(nt.arange(6.0).reshape(2, 3))[:, ::2].resize(3, refcheck=False)
    with pytest.raises(ValueError, match="does not own its data"):
        nt.asfortranarray(nt.arange(6.0).reshape(2, 3))[:, :2].resize(3, refcheck=False)


@pytest.mark.parametrize("n", [12, 300 * 200])      # one tile, several tiles
@pytest.mark.parametrize("view", ["reshape", "T", "view", "sub", "readonly", "strided", "held"])
def test_resize_same_size_is_a_new_shape(view, n):
    # NumPy: a resize to the same number of elements only sets the shape (in
    # the array's memory order), also for a view or an array others refer to;
    # ndtile refused it ("does not own its data" / "references")
    class Sub(nt.ndarray):
        pass

    def prog(m):
        base = m.arange(n, dtype=m.float64)
        a = {"reshape": lambda: base.reshape(-1, 4),
             "T": lambda: base.reshape(-1, 4).T,
             "view": lambda: base.view(),
             "sub": lambda: base.view(Sub if m is nt else numpy.ndarray),
             "readonly": lambda: base.reshape(4, -1),
             "strided": lambda: base.reshape(-1, 4)[:, ::2],
             "held": lambda: base}[view]()
        if view == "readonly":
            a.flags.writeable = False
        other = a.view()    # noqa: F841 (a referenced elsewhere)
        a.resize((2, n // 2) if view != "strided" else (n // 2,))
        shape = a.shape, a.flags.c_contiguous, a.flags.f_contiguous
        if view != "readonly":
            a[0, 0] = -1.0       # still the same memory: base sees it
        return numpy.array(a) if m is nt else a.copy(), numpy.array(base).copy(), shape
    r = both(prog)
    if r is not None:
        got, want = r
        for g, w in zip(got[:2], want[:2]):
            assert numpy.array_equal(g, w)
        assert got[2] == want[2]


def test_resize_reference_rules():
    def refs(m):
        a = m.arange(4)
        v = a[1:]     # noqa: F841 (the view refers to a)
        a.resize(8)
    both(refs)
    with pytest.raises(ValueError, match="cannot resize an array that references"):
        refs(nt)
    with pytest.raises(ValueError, match="does not own its data"):
        nt.arange(4)[1:].resize(8)
    a = nt.arange(4)
    v = a[1:]
    a.resize(6, refcheck=False)
    assert nt.asarray(a).tolist() == [0, 1, 2, 3, 0, 0] and a.flags.owndata
    assert nt.asarray(v).tolist() == [1, 2, 3]
    both(lambda m: m.arange(3).resize(-1, refcheck=False))
    # np.resize is another function: a new array, the data repeated
    same(nt.resize(nt.arange(3), 7), numpy.resize(numpy.arange(3), 7))


@pytest.mark.parametrize("case", range(9))
def test_resize_numpy_rules(case):
    # resize(()) is a 0-d shape (it did nothing); the same size needs no
    # new memory, so a view may change shape in place and stays a view (it
    # raised "does not own its data"); refcheck is parsed as an int; a weak
    # reference forbids a resize that moves memory, even without refcheck
    def prog(m):
        import weakref
        if case == 0:
            a = m.zeros((1,))
            a.resize(())
            b = m.zeros(())
            b.resize((1,))
            return a.shape, b.shape, a.size
        if case == 1:
            a = m.eye(3)
            a.resize(())
            return a.shape, a.copy()
        if case == 2:
            x = m.zeros((10, 0), int)
            v = x[...]
            v.resize((0, 10))
            v.resize((0, 100))
            return v.shape, x.shape
        if case == 3:
            x = m.arange(40000)
            v = x[:]
            v.resize((200, 200))
            v[0, 0] = 7
            return v.shape, int(x[0]), m.shares_memory(v, x)
        if case == 4:
            x = m.arange(6).reshape(2, 3).T     # Fortran order, a view
            x.resize((3, 2))
            return x.copy(), x.flags.f_contiguous
        if case == 5:
            m.eye(3).resize((3, 3), refcheck='hi')
        if case == 6:
            x = m.eye(3)
            r = weakref.ref(x)          # noqa: F841
            x.resize((5, 1), refcheck=False)
        if case == 7:
            x = m.arange(40000)[::2]
            x.resize((20000,))
        if case == 8:
            x = m.eye(3)
            r = weakref.ref(x)          # noqa: F841
            x.resize((9,), refcheck=False)      # same size: allowed
            return x.copy()
    r = both(prog)
    if r is None:
        assert case in (5, 6, 7)       # NumPy raised, and ndtile the same type
        return
    got, want = r
    if isinstance(want, tuple):
        for g, w in zip(got, want):
            if isinstance(w, numpy.ndarray):
                same(g, w)
            else:
                assert g == w
    elif want is not None:
        same(got, want)


# ---- .base -----------------------------------------------------------------------
def test_base_points_where_numpy_points():
    x = nt.arange(10)
    assert x.base is None
    assert x[1:].base is x and x[1:][::2].base is x and x.T.base is x
    assert x.reshape(2, 5).base is x and x.view().base is x
    assert x.copy().base is None
    v = nt.arange(6)[1:]            # the owner lives as long as the view
    assert v.base is not None and v.base.shape == (6,)


def test_ndarray_constructor_buffer_is_a_view():
    # ndarray(shape, dtype, buffer=...) is a view of the buffer's memory in
    # NumPy (writes show both ways, .base the buffer); ndtile copied it.
    # Contiguous views are shared now (a strided one is still a copy)
    def prog(m):
        x = m.ndarray(())
        x[()] = 5
        y = m.ndarray((), buffer=x)
        y[()] = 6
        b = bytearray(8 * 40000)
        z = m.ndarray((2,), dtype='f8', buffer=b, offset=8)
        z[1] = 3
        v = m.ndarray((200, 199), dtype='f8', buffer=b, offset=8 * 200)
        v[199, 198] = 4
        v2 = m.ndarray((4,), dtype='i4', buffer=b)
        ro = m.ndarray((2,), dtype='f8', buffer=bytes(16))
        return (float(x[()]), numpy.frombuffer(b)[:4].tolist(), float(numpy.frombuffer(b)[-1]),
                z.base is b, v.shape, v2.tolist(), ro.flags.writeable)
    got, want = both(prog)
    assert got == want


@pytest.mark.parametrize('dtype', ['f8', 'i4', 'u1', '?', 'c16'])
@pytest.mark.parametrize('shape', [(2, 3), (1, 2, 3, 1), (4, 1), (3, 0), (5,)])
def test_ndarray_constructor_buffer_order_f_is_a_view(dtype, shape):
    # ndarray(shape, dtype, buffer, order='F') reads the memory in Fortran
    # order and is a view of it (writes show both ways, f_contiguous, .base
    # the buffer); ndtile made a C-ordered copy
    def prog(m):
        n = int(numpy.prod(shape))
        b = bytearray(numpy.arange(n + 2).astype(dtype).tobytes())
        x = m.ndarray(shape, dtype, buffer=b, offset=numpy.dtype(dtype).itemsize, order='F')
        before = numpy.array(x).tolist()
        if n:
            x[(0,) * len(shape)] = 1
            x[tuple(k - 1 for k in shape)] = 0
        ro = m.ndarray(shape, dtype, buffer=bytes(b), order='F')
        return (before, numpy.array(x).tolist(), numpy.frombuffer(b, dtype).tolist(),
                x.flags.f_contiguous, x.flags.c_contiguous,
                # (an empty one is a fresh array in ndtile, writeable)
                n and x.flags.owndata, n and x.base is b,
                # (NumPy's strides of a length 1 axis vary)
                n and tuple(s for s, k in zip(x.strides, shape) if k > 1),
                n and ro.flags.writeable, (x.T * 1).tolist())
    got, want = both(prog)
    assert got == want


def test_ndarray_constructor_buffer_order_f_at_default_settings():
    # larger than a tile: the shared memory through deferred work
    run_default("""
        import numpy
        import ndtile as np
        shape = (1000, 700)
        b = bytearray(numpy.arange(700000, dtype=numpy.float64).tobytes())
        x = np.ndarray(shape, numpy.float64, b, order='F')
        want = numpy.ndarray(shape, numpy.float64, bytearray(b), order='F')
        assert x.flags.f_contiguous and x.base is b
        assert numpy.array_equal(numpy.asarray(x), want)
        x *= 2.0
        x[:, 3] = -1.0
        want *= 2.0
        want[:, 3] = -1.0
        assert numpy.array_equal(numpy.ndarray(shape, numpy.float64, b, order='F'), want)
        assert float(x.sum()) == float(want.sum())
    """)


def test_frombuffer_readonly_and_base():
    buf = b'abcd'
    a = nt.frombuffer(buf, nt.uint8)
    n = numpy.frombuffer(buf, numpy.uint8)
    assert a.flags.writeable == n.flags.writeable is False
    assert a.base is buf and n.base is buf
    with pytest.raises(ValueError):
        a[0] = 1
    w = nt.frombuffer(bytearray(b'abcd'), nt.uint8)
    assert w.flags.writeable
    same(a, n)


@pytest.mark.parametrize("dtype", ["uint8", "int16", "int32", "float32", "float64",
                                   "complex128", "bool"])
@pytest.mark.parametrize("n", [1, 7, 5000])
def test_frombuffer_shares_a_writable_buffer(dtype, n):
    # NumPy's frombuffer is a view of the buffer: writes through either side
    # are seen by the other (it was a silent copy)
    isz = numpy.dtype(dtype).itemsize
    src = (numpy.arange(n) % 2).astype(dtype).tobytes()
    buf_nt, buf_np = bytearray(src), bytearray(src)
    a, e = nt.frombuffer(buf_nt, dtype), numpy.frombuffer(buf_np, dtype)
    assert a.flags.writeable and not a.flags.owndata and e.flags.writeable
    assert type(a.base) is type(e.base) and a[1:].base is a
    a[n // 2] = 1
    e[n // 2] = 1
    assert buf_nt == buf_np
    numpy.frombuffer(buf_nt, dtype)[0] = 1     # the buffer's owner writes
    e[0] = 1
    same(a, e)
    same(a.sum(), e.sum())
    # count and offset
    k = n // 2
    a2 = nt.frombuffer(buf_nt, dtype, count=k, offset=isz)
    e2 = numpy.frombuffer(buf_np, dtype, count=k, offset=isz)
    if k:
        a2[-1] = 0
        e2[-1] = 0
    same(a2, e2)
    assert buf_nt == buf_np


def test_frombuffer_releases_the_buffer():
    # the buffer is held while any array over it lives, as in NumPy: a
    # bytearray cannot be resized while exported
    b = bytearray(80)
    a = nt.frombuffer(b)
    v = a[::2]
    del a
    with pytest.raises(BufferError):
        b.append(0)
    v[0] = 3.0
    assert numpy.frombuffer(b)[0] == 3.0
    del v
    import gc
    gc.collect()
    b.append(0)                      # released: resizing works again


def test_frombuffer_unaligned_is_a_copy_swapped_is_numpys_view():
    b = bytearray(numpy.arange(5.0).tobytes()) + bytearray(1)
    a = nt.frombuffer(b, "f8", 4, 1)
    e = numpy.frombuffer(b, "f8", 4, 1)
    assert numpy.array_equal(numpy.asarray(a), e, equal_nan=True)
    # a non-native dtype is not an ndtile dtype (deviation 13): NumPy's
    # array over the buffer, sharing its memory
    a = nt.frombuffer(b, ">f8", 4, 0)
    assert type(a) is numpy.ndarray and a.dtype == numpy.dtype(">f8")
    assert a.tobytes() == numpy.frombuffer(b, ">f8", 4, 0).tobytes()
    assert numpy.shares_memory(a, numpy.frombuffer(b, "u1"))


_BUFFER_CASES = {
    # NumPy's array over a buffer the core does not share (empty, strided,
    # misaligned): ndtile's copy is flagged as NumPy's view (it was
    # writeable and owned its data, .base None)
    "empty 2-d": lambda m, b, dt: m.ndarray((3, 0), dt, buffer=b),
    "empty 1-d": lambda m, b, dt: m.ndarray((0,), dt, buffer=b),
    "empty at the end": lambda m, b, dt: m.ndarray((2, 0), dt, buffer=b, offset=len(b)),
    "strided": lambda m, b, dt: m.ndarray((2,), dt, buffer=b,
                                          strides=(2 * numpy.dtype(dt).itemsize,)),
    "misaligned": lambda m, b, dt: m.ndarray((2,), dt, buffer=b, offset=1),
    "frombuffer empty": lambda m, b, dt: m.frombuffer(b, dt, count=0),
    "frombuffer at the end": lambda m, b, dt: m.frombuffer(b, dt, offset=len(b)),
    "frombuffer misaligned": lambda m, b, dt: m.frombuffer(b, dt, count=2, offset=1),
}


@pytest.mark.parametrize("case", sorted(_BUFFER_CASES))
@pytest.mark.parametrize("kind", [bytes, bytearray])
@pytest.mark.parametrize("dtype", ["uint8", "int32", "float64", "complex128", "bool"])
def test_array_over_a_buffer_it_cannot_share_is_flagged_as_numpys(case, kind, dtype):
    make = _BUFFER_CASES[case]
    if dtype in ("uint8", "bool") and "misaligned" in case:
        pytest.skip("every offset is aligned for one byte")
    src = numpy.arange(48, dtype=numpy.uint8).astype(bool if dtype == "bool" else "u1")
    b_nt, b_np = kind(src.tobytes()), kind(src.tobytes())
    a, e = make(nt, b_nt, dtype), make(numpy, b_np, dtype)
    assert type(a) is nt.ndarray
    assert a.flags.writeable == e.flags.writeable == (kind is bytearray)
    assert a.flags.owndata == e.flags.owndata is False
    assert type(a.base) is type(e.base)
    if e.base is b_np:
        assert a.base is b_nt
    same(a, e)
    if not e.flags.writeable:
        with pytest.raises(ValueError):
            a[...] = 1
        with pytest.raises(ValueError):
            a.setflags(write=True)
    same(a.reshape(-1)[:1].base is a, e.reshape(-1)[:1].base is e)


def test_array_over_a_strided_buffer_at_default_settings(default_settings):
    # larger than a 2 MiB tile: the copy of a buffer the core cannot share
    n = 400_000
    buf = numpy.arange(2 * n, dtype=numpy.float64).tobytes()
    a = nt.ndarray((n,), "f8", buffer=buf, strides=(16,))
    e = numpy.ndarray((n,), "f8", buffer=buf, strides=(16,))
    assert not a.flags.writeable and not a.flags.owndata and a.base is buf
    same(a, e)
    same(a.sum(), e.sum())
    with pytest.raises(ValueError):
        a[0] = 1.0


def test_frombuffer_shares_memory_at_default_settings():
    # many tiles, deferred and fused work on the buffer's memory, every call
    # leaving it settled for the buffer's owner
    from test_trust import run_default
    run_default("""
        import numpy
        import ndtile as np
        n = 3_000_000
        b = bytearray(numpy.arange(n, dtype=numpy.float64).tobytes())
        a = np.frombuffer(b)
        a *= 2.0
        a += 1.0
        m = numpy.frombuffer(b)
        assert m[0] == 1.0 and m[-1] == 2.0 * (n - 1) + 1.0, (m[0], m[-1])
        m[n // 2] = 0.0
        want = float((2.0 * numpy.arange(n) + 1.0).sum() - (2.0 * (n // 2) + 1.0))
        assert float(a.sum()) == want, (float(a.sum()), want)
        c = np.sqrt(a) + a            # a fused chain reading the buffer
        mc = numpy.sqrt(m) + m
        assert numpy.array_equal(numpy.asarray(c), mc)
        a[::3] = -1.0
        m2 = numpy.arange(n, dtype=numpy.float64) * 2 + 1; m2[n // 2] = 0; m2[::3] = -1
        assert numpy.array_equal(m, m2)
        r = np.frombuffer(bytes(b), count=1000)
        assert not r.flags.writeable and float(r[999]) == m[999]
    """)


# ---- __array_interface__ --------------------------------------------------------
@pytest.mark.parametrize("make", [lambda m: m.arange(5.0),
                                  lambda m: m.arange(12, dtype=m.int32).reshape(3, 4).T,
                                  lambda m: m.arange(12.0)[::-2],
                                  lambda m: m.zeros((0, 3))])
def test_array_interface(make):
    a = make(nt)
    n = make(numpy)
    ai, ni = a.__array_interface__, n.__array_interface__
    for k in ('strides', 'descr', 'typestr', 'shape', 'version'):
        assert ai[k] == ni[k], k
    assert ai['data'][1] is False

    class Holder:
        __array_interface__ = ai
    h = numpy.asarray(Holder())
    assert numpy.array_equal(h, n)
    if a.size:
        h[(0,) * a.ndim] = 42           # the interface is a's own memory
        assert nt.asarray(a)[(0,) * a.ndim] == 42


def test_array_interface_readonly():
    a = nt.arange(3)
    a.flags.writeable = False
    assert a.__array_interface__['data'][1] is True


# ---- __array_struct__ -----------------------------------------------------------
class _StructOf:
    """An object exposing another array's memory by __array_struct__ (as
    NumPy's test_array_coercion makes one): it holds the array too."""
    def __init__(self, a):
        self.a = a
        self.__array_struct__ = a.__array_struct__


_STRUCT_ARRAYS = [lambda m: m.arange(5.0), lambda m: m.arange(12, dtype=m.int32).reshape(3, 4).T,
                  lambda m: m.arange(12.0)[::-2], lambda m: m.zeros((0, 3)),
                  lambda m: m.zeros((), m.complex64), lambda m: m.ones((2, 3), bool)[:, 1:],
                  lambda m: m.arange(24, dtype=m.uint16).reshape(2, 3, 4)[:, ::2, 1:3]]


@pytest.mark.skipif(nt.nranks() > 1, reason='several ranks lend no memory')
@pytest.mark.parametrize("make", _STRUCT_ARRAYS)
def test_array_struct_shares_the_arrays_memory(make):
    # NumPy's __array_struct__ (ndtile had none): NumPy's array made from it
    # has the dtype, shape, strides and flags of NumPy's, over a's memory
    a, e = make(nt), make(numpy)
    cap = a.__array_struct__
    assert type(cap) is type(e.__array_struct__)
    g, w = numpy.asarray(_StructOf(a)), numpy.asarray(_StructOf(e))
    assert (g.dtype, g.shape, g.strides) == (w.dtype, w.shape, w.strides)
    for f in ('c_contiguous', 'f_contiguous', 'writeable'):
        assert getattr(g.flags, f) == getattr(w.flags, f), f
    assert numpy.array_equal(g, w)
    if a.size:
        g[(0,) * a.ndim] = 1            # a's own memory, both ways
        assert nt.asarray(a)[(0,) * a.ndim] == 1
        a[(-1,) * a.ndim] = 0
        assert g[(-1,) * a.ndim] == 0
        assert numpy.shares_memory(g, numpy.asarray(a))


@pytest.mark.skipif(nt.nranks() > 1, reason='several ranks lend no memory')
def test_array_struct_keeps_the_array_and_its_flags():
    a = nt.arange(6.0)
    cap = a.__array_struct__
    del a                               # the capsule holds the array
    class Holder:
        __array_struct__ = cap
    assert numpy.array_equal(numpy.asarray(Holder()), numpy.arange(6.0))
    r = nt.arange(3)
    r.flags.writeable = False           # NumPy's test_readonly_flag_protocols
    n = numpy.arange(3)
    n.flags.writeable = False
    assert numpy.asarray(_StructOf(r)).flags.writeable is \
        numpy.asarray(_StructOf(n)).flags.writeable is False


@pytest.mark.default_settings
def test_array_struct_at_default_settings():
    # many tiles moved into one buffer, lent while the array lives
    n = 600_000
    a, e = nt.arange(n, dtype=nt.float64) * 2, numpy.arange(n, dtype=numpy.float64) * 2
    if nt.nranks() > 1:
        with pytest.raises(AttributeError):
            a.__array_struct__
        return
    g = numpy.asarray(_StructOf(a[::3]))
    assert numpy.array_equal(g, e[::3]) and g.strides == e[::3].strides
    a += 1
    assert g[1] == e[3] + 1


# ---- tobytes / ravel / flatten orders ----------------------------------------------
def _layouts(m):
    a = m.arange(24, dtype=m.int32).reshape(2, 3, 4)
    return [a, m.asfortranarray(a), a.transpose(2, 0, 1), a[:, ::-1, ::2],
            m.asfortranarray(a)[::-1], a[:, 1:, :3]]


@pytest.mark.parametrize("order", ['C', 'F', 'A', 'K', 'c', 'a'])
def test_tobytes_ravel_orders_follow_layout(order):
    for a, n in zip(_layouts(nt), _layouts(numpy)):
        assert a.strides == n.strides
        assert a.tobytes(order=order) == n.tobytes(order=order)
        same(a.ravel(order), n.ravel(order))
        same(a.flatten(order), n.flatten(order))


def test_tobytes_bad_order():
    for o in ('X', 1, 'KK'):
        both(lambda m: m.arange(3).tobytes(o))


# ---- as_strided / sliding_window_view ---------------------------------------------
def test_as_strided_inside_memory_and_aliasing():
    x = nt.arange(9).reshape(3, 3)
    same(as_strided(x[0, 1:], (2,), (16,)),
         numpy.lib.stride_tricks.as_strided(numpy.arange(9).reshape(3, 3)[0, 1:], (2,), (16,)))
    with pytest.raises(ValueError, match="outside the memory"):
        as_strided(x[2, 1:], (2,), (16,))        # NumPy would read past the buffer
    with pytest.raises(ValueError, match="outside the memory"):
        as_strided(x[0], (2,), (-8,))

    def prog(m):
        y = m.zeros(10)
        st = m.lib.stride_tricks
        v = st.as_strided(y, (3, 4), (16, 8))
        v[1, 1] = 5
        w = st.as_strided(y[5:], (3,), (-8,))
        w[:] = 7
        s = st.sliding_window_view(y, 3, writeable=True)
        s[0, 2] = 9
        return y.copy(), v.copy(), w.copy()
    same(*both(prog))
    w = sliding_window_view(nt.arange(6), 3)
    assert not w.flags.writeable
    with pytest.raises(ValueError):
        w[0, 0] = 1
    r = as_strided(nt.zeros(4), (2,), (8,), writeable=False)
    with pytest.raises(ValueError):
        r[0] = 1


def test_as_strided_byte_strides_of_views(monkeypatch):
    # strides that cut elements (a fallback on gathered data) read the bytes
    # of the view's own memory, as NumPy's do: the gathered copy of a
    # strided view has another layout, so it read other values (or past the
    # copy); a stride on an axis of length 1 is never used (a true view)
    monkeypatch.setenv("NDTILE_FALLBACK", "warn")       # strides within elements fall back
    warnings.simplefilter('ignore', RuntimeWarning)
    x = numpy.arange(40000, dtype=numpy.int32)
    c = numpy.arange(40000) * (1 + 1j)
    nst = numpy.lib.stride_tricks
    cases = [(lambda a: a[3::2], (5,), (6,)), (lambda a: a[::-3], (4, 2), (-6, -2)),
             (lambda a: a[100:][::7], (3,), (30,))]
    for f, shape, strides in cases:
        want = nst.as_strided(f(x), shape, strides)
        got = as_strided(f(nt.asarray(x)), shape, strides)
        same(got, want)
    got = as_strided(nt.asarray(c)[::-2].imag, (3,), (-20,))
    same(got, nst.as_strided(c[::-2].imag, (3,), (-20,)))
    with pytest.raises(ValueError, match="outside"):
        as_strided(nt.asarray(x)[-3:], (3,), (6,))      # past the memory: refused
    a = numpy.arange(16)[::2].reshape(2, 1, 2, 2).swapaxes(-1, -2)
    st = list(a.strides)
    st[1] = 123
    t = nt.arange(16)[::2].reshape(2, 1, 2, 2).swapaxes(-1, -2)
    v = as_strided(t, strides=st)
    assert nt.shares_memory(v, t)
    same(v.ravel(order='K'), nst.as_strided(a, strides=st).ravel(order='K'))


def test_as_strided_at_default_tiles():
    run_default("""
        import numpy, ndtile as np
        from ndtile.lib.stride_tricks import as_strided
        big = np.zeros(600_000); ref = numpy.zeros(600_000)
        assert big._ntiles > 1
        v = as_strided(big[100:], (1000, 3), (8 * 500, 8)); v[:, 1] = 1; v[-1, -1] = 2
        rv = numpy.lib.stride_tricks.as_strided(ref[100:], (1000, 3), (8 * 500, 8))
        rv[:, 1] = 1; rv[-1, -1] = 2
        assert numpy.array_equal(numpy.asarray(big), ref)
        try:
            as_strided(big[100:], (1000, 3), (8 * 700, 8))
        except ValueError:
            pass
        else:
            raise AssertionError("a view past the memory was made")
    """)


# ---- index tricks and Python-function wrappers ----------------------------------
TRICKS = [
    lambda m: m.mgrid[0:3, 0:2], lambda m: m.mgrid[0:1:5j, 0:2], lambda m: m.mgrid[0:5],
    lambda m: m.mgrid[0:1:3j], lambda m: m.mgrid[0.5:3, 0:2], lambda m: m.ogrid[0:3, 0:2],
    lambda m: m.ogrid[0:1:3j, 1:2], lambda m: m.ogrid[2:5], lambda m: m.mgrid[5],
    lambda m: m.mgrid[0:3, 1], lambda m: m.mgrid[()], lambda m: m.ogrid[()],
    lambda m: m.mgrid[0:2:1j], lambda m: m.mgrid[1:2:1j, 0:3:2],
    lambda m: m.r_[1:3, [5, 6]], lambda m: m.r_[1, 2.5, [3]],
    lambda m: m.r_[m.arange(2), 0, 0, m.arange(2)], lambda m: m.r_['0,2,1', [1, 2, 3], [4, 5, 6]],
    lambda m: m.r_['-1', [[1, 2]], [[3]]], lambda m: m.r_[-1:1:6j, [0] * 3, 5, 6],
    lambda m: m.r_[m.array([1], m.int8), 300], lambda m: m.r_['x', 1],
    lambda m: m.c_[m.arange(2), m.arange(2)], lambda m: m.c_[m.array([[1, 2, 3]]), 0, 0,
                                                             m.array([[4, 5, 6]])],
    lambda m: m.unravel_index(m.arange(6), (2, 3)), lambda m: m.unravel_index(5, (2, 3)),
    lambda m: m.unravel_index([1, 5], (2, 3), order='F'), lambda m: m.unravel_index(6, (2, 3)),
    lambda m: m.unravel_index(m.array([1.0]), (2, 3)), lambda m: m.unravel_index(-1, (2, 3)),
    lambda m: m.unravel_index(m.array([[3, 0], [1, 2]], m.int32), (4,)),
    lambda m: m.ix_([0, 1], [1]), lambda m: m.ix_([True, False, True]),
    lambda m: m.vectorize(lambda v: v + 1)(m.arange(3)),
    lambda m: m.vectorize(lambda v, w: v * w)(m.arange(3.0), m.arange(3)[:, None]),
    lambda m: m.apply_along_axis(m.sum, 0, m.arange(6.0).reshape(2, 3)),
    lambda m: m.apply_along_axis(lambda v: v * 2, 1, m.arange(6).reshape(2, 3)),
    lambda m: m.apply_along_axis(lambda v: m.outer(v, v), 0, m.arange(6).reshape(2, 3)),
    lambda m: m.apply_along_axis(m.sum, 0, m.zeros((0, 3))),
]


@pytest.mark.parametrize("k", range(len(TRICKS)))
def test_index_tricks_return_ndtile(k):
    r = both(TRICKS[k])
    if r is not None:
        same(*r)


def test_frompyfunc_identity_none_is_not_the_default():
    # NumPy: identity=None makes the ufunc reorderable without an identity
    # (a reduce over several axes works, an empty one raises); leaving it out
    # allows one axis only. ndtile dropped identity=None.
    def mul(a, b):
        return a * b
    ones = numpy.ones((2, 3))
    for kw in ({}, {'identity': None}, {'identity': 1}):
        for args, rkw in (([2, 3, 4], {}), (ones, {'axis': (0, 1)}), ([], {}), (ones, {})):
            res = []
            for m in (numpy, nt):
                f = m.frompyfunc(mul, nin=2, nout=1, **kw)
                try:
                    res.append(('ok', numpy.asarray(f.reduce(args, **rkw)).tolist()))
                except ValueError as e:
                    res.append(('ValueError', str(e)))
            assert res[0] == res[1], (kw, rkw)


def test_frompyfunc_and_key_objects():
    f = nt.frompyfunc(lambda v: v + 1, 1, 1)
    r = f(nt.arange(3))
    want = numpy.frompyfunc(lambda v: v + 1, 1, 1)(numpy.arange(3))
    # object arrays are NumPy arrays in ndtile (the core holds no objects)
    assert r.dtype == want.dtype and r.tolist() == want.tolist()
    assert f.nin == 1 and f.nout == 1
    assert nt.s_ is numpy.s_ and nt.index_exp is numpy.index_exp
    assert nt.s_[1:2, ::3] == numpy.s_[1:2, ::3]
    assert len(nt.r_) == len(numpy.r_) == 0


def test_frombuffer_of_an_ndtile_array_has_it_as_base():
    # NumPy's frombuffer(numpy_array).base is the array (gh-21612); so is
    # ndtile's of an ndtile array, with the memory shared
    x = nt.arange(10)
    a = nt.frombuffer(x)
    assert a.base is x and numpy.frombuffer(numpy.arange(10)).base is not None
    a[1] = 2.0
    assert x[1] == numpy.float64(2.0).view(numpy.int64)
    b = nt.frombuffer(bytearray(16))
    assert type(b.base) is memoryview


# ---- setflags(align=...): NumPy's ALIGNED flag, this array's only --------------------
def _align_flags(m, dt, shape, view, how):
    a = m.arange(int(numpy.prod(shape))).astype(dt).reshape(shape)
    if view:
        a = a[..., ::2] if a.ndim else a[...]
    if how == 'setflags':
        a.setflags(align=False)
    elif how == 'attr':
        a.flags.aligned = False
    else:
        a.flags['A'] = False
    f = a.flags
    out = [f.aligned, f.behaved, f.carray, f['ALIGNED'], f.num, repr(f)]
    # a view and a copy are aligned again; the array's own flag stays clear
    out += [a[...].flags.aligned, a.copy().flags.aligned, a.T.flags.aligned, a.flags.aligned]
    a.setflags(align=True)
    out += [a.flags.aligned, a.flags.num, a.flags.behaved]
    a.setflags(write=False, align=0)
    out += [a.flags.aligned, a.flags.writeable, a.flags.behaved, a.flags.num]
    return out


@pytest.mark.parametrize('dt', ['bool', 'int8', 'uint16', 'int64', 'float32', 'float64',
                                'complex128'])
@pytest.mark.parametrize('shape', [(), (0,), (7,), (3, 4)])
@pytest.mark.parametrize('view', [False, True])
@pytest.mark.parametrize('how', ['setflags', 'attr', 'item'])
def test_setflags_align(dt, shape, view, how):
    got, want = both(lambda m: _align_flags(m, dt, shape, view, how))
    assert got == want, (got, want)


@pytest.mark.default_settings
def test_setflags_align_default_settings():
    # an array of several 2 MiB tiles, and a strided view of it
    for view in (False, True):
        got, want = both(lambda m: _align_flags(m, 'float64', (600, 1000), view, 'setflags'))
        assert got == want
