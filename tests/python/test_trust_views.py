"""Views versus copies, and read-only arrays, against NumPy.

Every function that may return a view must alias exactly as NumPy's does: a
write through the result changes what it changes in NumPy, and a later
write to the base shows in the result only where NumPy's result is a view.
Checked by writing both ways (not through shares_memory), on contiguous,
stepped, negative-step, transposed, 0-d, empty and complex-part bases; the
suite's 4096-byte tiles make the larger bases span many tiles, and
test_default_settings repeats the main cases at default settings (2 MiB
tiles) in a child process.
"""
import os
import subprocess
import sys
import textwrap

import numpy
import pytest

import ndtile as np


def run_default(code):
    if np.nranks() > 1:
        pytest.skip("a child of one rank cannot start MPI again (the rank settings are fuzzed)")
    env = {k: v for k, v in os.environ.items() if not k.startswith("NDTILE_")}
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr


# (name, shape of the root, dtype, view of the root)
BASES = [
    ('contig', (6, 8), 'f8', lambda r: r),
    ('rows', (6, 8), 'f8', lambda r: r[1:4]),
    ('step', (6, 8), 'f8', lambda r: r[:, ::2]),
    ('negstep', (6, 8), 'f8', lambda r: r[::-1]),
    ('negstep1', (6, 8), 'f8', lambda r: r[:, ::-1]),
    ('T', (6, 8), 'f8', lambda r: r.T),
    ('col', (6, 8), 'f8', lambda r: r[:, 1:2]),
    ('3d', (6, 8), 'f8', lambda r: r.reshape(2, 3, 8).transpose(1, 0, 2)),
    ('empty', (6, 8), 'f8', lambda r: r[:0]),
    ('0d', (6, 8), 'f8', lambda r: r[1, 2, ...]),
    ('1dstep', (6, 8), 'f8', lambda r: r[1, ::3]),
    ('issue', (4, 7), 'f8', lambda r: r[:3, -4::5]),
    ('real', (6, 8), 'c16', lambda r: r.real),
    ('imag', (6, 8), 'c16', lambda r: r.imag),
    ('big', (300, 40), 'f8', lambda r: r),             # many 4096-byte tiles
    ('bigstep', (300, 40), 'f8', lambda r: r[::-3, 1::2]),
    ('bigT', (300, 40), 'f8', lambda r: r.T),
]

OPS = {
    'ravel': lambda m, x: x.ravel(),
    'ravel_F': lambda m, x: x.ravel('F'),
    'ravel_A': lambda m, x: x.ravel('A'),
    'ravel_K': lambda m, x: x.ravel('K'),
    'np.ravel': lambda m, x: m.ravel(x),
    'np.ravel_K': lambda m, x: m.ravel(x, order='K'),
    'flatten': lambda m, x: x.flatten(),
    'flatten_F': lambda m, x: x.flatten('F'),
    'flatten_K': lambda m, x: x.flatten('K'),
    'reshape': lambda m, x: x.reshape(-1),
    'np.reshape_copy': lambda m, x: m.reshape(x, (-1,), copy=True),
    'asarray': lambda m, x: m.asarray(x),
    'asarray_C': lambda m, x: m.asarray(x, order='C'),
    'asarray_F': lambda m, x: m.asarray(x, order='F'),
    'array': lambda m, x: m.array(x),
    'array_nocopy': lambda m, x: m.array(x, copy=False),
    'ascontiguousarray': lambda m, x: m.ascontiguousarray(x),
    'asfortranarray': lambda m, x: m.asfortranarray(x),
    'squeeze': lambda m, x: m.squeeze(x),
    'expand_dims': lambda m, x: m.expand_dims(x, 0),
    'transpose': lambda m, x: x.transpose(),
    'T': lambda m, x: x.T,
    'swapaxes': lambda m, x: m.swapaxes(x, 0, -1) if x.ndim else x[...],
    'moveaxis': lambda m, x: m.moveaxis(x, 0, -1) if x.ndim else x[...],
    'real': lambda m, x: x.real,
    'view': lambda m, x: x.view(),
    'astype_nocopy': lambda m, x: x.astype(x.dtype, copy=False),
    'astype': lambda m, x: x.astype(x.dtype),
    'atleast_3d': lambda m, x: m.atleast_3d(x),
    'copy': lambda m, x: x.copy(),
    'conj': lambda m, x: x.conj(),
    'np.conj': lambda m, x: m.conj(x),
    'flip': lambda m, x: m.flip(x),
    'ellipsis': lambda m, x: x[...],
    'newaxis': lambda m, x: x[None],
    'int': lambda m, x: x[0] if x.ndim and len(x) else x[...],
    'np.intp': lambda m, x: x[numpy.intp(0)] if x.ndim and len(x) else x[...],
    '0d_array': lambda m, x: x[numpy.array(0)] if x.ndim and len(x) else x[...],
    '0d_ndtile': lambda m, x: x[m.array(0)] if x.ndim and len(x) else x[...],
    '0d_uint8': lambda m, x: x[numpy.array(0, numpy.uint8)] if x.ndim and len(x) else x[...],
    '0d_then_slice': lambda m, x: x[numpy.array(0), 1:] if x.ndim >= 2 and len(x) else x[...],
    'slice_then_0d': lambda m, x: x[:, numpy.array(0)] if x.ndim >= 2 and x.size else x[...],
    'int_then_0d': lambda m, x: x[0, numpy.array(0)] if x.ndim >= 3 and x.size else x[...],
    'ellipsis_0d': lambda m, x: x[..., numpy.array(0)] if x.ndim and x.size else x[...],
    'newaxis_0d': lambda m, x: x[None, numpy.array(0)] if x.ndim and len(x) else x[...],
    'list': lambda m, x: x[[0]] if x.ndim and len(x) else x[...],
    'True': lambda m, x: x[True],
    'False': lambda m, x: x[False],
    'np.True_': lambda m, x: x[numpy.True_],
    'True_int': lambda m, x: x[True, 0] if x.ndim and len(x) else x[...],
    'mask': lambda m, x: x[x > 2],
    'flat_slice': lambda m, x: x.flat[:],
    'flat_part': lambda m, x: x.flat[1:3],
    'flat_ellipsis': lambda m, x: x.flat[...],
    'split': lambda m, x: m.split(x, 1)[0] if x.ndim else x[...],
}


def _writes(opname, bname, direction):
    shape, dt, view = next((s, d, v) for n, s, d, v in BASES if n == bname)
    op = OPS[opname]
    out = []
    for m in (numpy, np):
        root = m.arange(int(numpy.prod(shape)), dtype=dt).reshape(shape)
        x = view(root)
        res = op(m, x)
        if m is numpy and not isinstance(res, numpy.ndarray):    # a scalar: nothing aliases
            assert numpy.asarray(op(np, view(np.arange(int(numpy.prod(shape)), dtype=dt)
                                            .reshape(shape)))) == res
            return
        if direction == 'result':
            res[...] = -7
        else:
            x[...] = -5
        out.append((numpy.asarray(root), numpy.asarray(res)))
    (rn, sn), (rt, st) = out
    assert rt.dtype == rn.dtype and numpy.array_equal(rt, rn), "writes reached other elements"
    assert st.shape == sn.shape and st.dtype == sn.dtype
    assert numpy.array_equal(st, sn), "view/copy differs from NumPy's"


@pytest.mark.parametrize("direction", ['result', 'base'])
@pytest.mark.parametrize("bname", [b[0] for b in BASES])
@pytest.mark.parametrize("opname", list(OPS))
def test_aliasing_as_numpy(opname, bname, direction):
    _writes(opname, bname, direction)


def test_issue_examples():
    a = np.arange(12).reshape(3, 4)
    v = a[numpy.array(1)]
    v[0] = 99
    assert a[1].tolist() == [4, 5, 6, 7]
    w = a[numpy.intp(1)]        # a NumPy integer scalar is a basic index: a view
    w[0] = 99
    assert a[1].tolist() == [99, 5, 6, 7]
    b = np.arange(28.).reshape(4, 7)[:3, -4::5]
    r = b.ravel()
    b[...] = -5
    assert r.tolist() == [3.0, 10.0, 17.0]


def test_0d_index_element_is_scalar_and_assignment_writes():
    a = np.arange(12).reshape(3, 4)
    e = a[1, numpy.array(2)]
    assert not isinstance(e, np.ndarray) and e == 6
    a[numpy.array(1)] = 0          # assignment through an advanced index writes into a
    a[np.array(2), numpy.array(3)] = 5
    exp = numpy.arange(12).reshape(3, 4)
    exp[1] = 0
    exp[2, 3] = 5
    assert numpy.array_equal(numpy.asarray(a), exp)


class _Idx:
    def __index__(self):
        return 1


def test_index_protocol_object_is_basic():
    a = np.arange(12).reshape(3, 4)
    v = a[_Idx()]
    v[0] = 50
    assert a[1, 0] == 50 and numpy.arange(12).reshape(3, 4)[_Idx()].tolist() == [4, 5, 6, 7]


@pytest.mark.parametrize("order", ['C', 'F', 'A', 'K', 'c', None])
def test_ravel_values(order):
    n = numpy.arange(24.).reshape(2, 3, 4)
    t = np.arange(24.).reshape(2, 3, 4)
    views = [lambda r: r, lambda r: r.T, lambda r: r[:, ::-1].transpose(2, 0, 1),
             lambda r: r.transpose(1, 0, 2), lambda r: r[::-1, :, ::2],
             lambda r: r[:, :1], lambda r: r[0].T[::-1]]
    for f in views:
        assert numpy.array_equal(numpy.asarray(f(t).ravel(order)), f(n).ravel(order))
        assert numpy.array_equal(numpy.asarray(f(t).flatten(order)), f(n).flatten(order))
    for shape in [(2, 3), (3, 1), (1,), ()]:
        b = np.broadcast_to(np.arange(float(shape[-1] if shape else 1)).reshape(shape[-1:]),
                            (2,) + shape) if shape else np.broadcast_to(np.array(1.), (2,))
        nb = numpy.broadcast_to(numpy.asarray(b)[0], b.shape)
        assert numpy.array_equal(numpy.asarray(b.ravel(order)), nb.ravel(order))


def test_ravel_bad_order():
    a = np.arange(3)
    with pytest.raises(ValueError, match="order must be one of"):
        a.ravel('X')
    with pytest.raises(ValueError, match="order must be one of"):
        a.flatten('CF')
    with pytest.raises(TypeError):
        a.ravel(1)


def test_reshape_to_empty_shape_message():
    for shape in [(), (2, 3)]:
        a = np.arange(6).reshape(shape) if shape else np.arange(6)
        with pytest.raises(ValueError) as e:
            a.reshape(())
        assert str(e.value) == "cannot reshape array of size 6 into shape ()"
    assert np.arange(1).reshape(()).shape == ()
    with pytest.raises(ValueError, match=r"into shape \(4,\)"):
        np.arange(6).reshape(4)
    with pytest.raises(ValueError, match=r"into shape \(4,2\)"):
        np.arange(6).reshape(4, 2)


def test_flags_match_numpy():
    for bname, shape, dt, view in BASES + [('bcast', (3,), 'f8', lambda r: r[None, :])]:
        n = view(numpy.arange(int(numpy.prod(shape)), dtype=dt).reshape(shape))
        t = view(np.arange(int(numpy.prod(shape)), dtype=dt).reshape(shape))
        for k in ['C_CONTIGUOUS', 'F_CONTIGUOUS', 'WRITEABLE', 'ALIGNED', 'WRITEBACKIFCOPY',
                  'C', 'F', 'W', 'A', 'X', 'B', 'CA', 'FA', 'FNC', 'FORC', 'BEHAVED',
                  'CARRAY', 'FARRAY', 'CONTIGUOUS', 'FORTRAN']:
            assert t.flags[k] == n.flags[k], (bname, k)
        for k in ['c_contiguous', 'f_contiguous', 'writeable', 'aligned', 'writebackifcopy',
                  'fnc', 'forc', 'behaved', 'carray', 'farray', 'contiguous', 'fortran']:
            assert getattr(t.flags, k) == getattr(n.flags, k), (bname, k)
    a = np.arange(6.)
    assert a.flags.owndata and a.flags['O'] and a.flags.num == numpy.arange(6.).flags.num
    assert not a[1:].flags.owndata and not a.reshape(2, 3).flags.owndata
    assert a.copy().flags.owndata and a.base is None and a[1:].base is not None
    assert repr(a.flags) == repr(numpy.arange(6.).flags)
    assert a.flags == np.arange(3.).flags
    with pytest.raises(KeyError):
        a.flags['c_contiguous']
    with pytest.raises(AttributeError):
        a.flags.c_contiguous = False
    with pytest.raises(AttributeError):
        a.flags.nonsense


WRITES = {
    'setitem': (lambda a: a.__setitem__(0, 1), "assignment destination is read-only"),
    'setitem_oob': (lambda a: a.__setitem__(99, 1), "assignment destination is read-only"),
    'setitem_slice': (lambda a: a.__setitem__(slice(1, 3), np.ones(2)),
                      "assignment destination is read-only"),
    'setitem_list': (lambda a: a.__setitem__([0, 2], 1), "assignment destination is read-only"),
    'setitem_mask': (lambda a: a.__setitem__(a > 2, 1), "assignment destination is read-only"),
    'setitem_0d': (lambda a: a.__setitem__(numpy.array(1), 1),
                   "assignment destination is read-only"),
    'iadd': (lambda a: a.__iadd__(1), "output array is read-only"),
    'imul_array': (lambda a: a.__imul__(np.ones(a.shape)), "output array is read-only"),
    'ipow': (lambda a: a.__ipow__(2), "output array is read-only"),
    'add_out': (lambda a: np.add(a, 1, out=a), "output array is read-only"),
    'sqrt_out': (lambda a: np.sqrt(a, out=a), "output array is read-only"),
    'copyto': (lambda a: np.copyto(a, 1), "assignment destination is read-only"),
    'copyto_where': (lambda a: np.copyto(a, 1, where=a > 2), None),
    'fill': (lambda a: a.fill(1), "assignment destination is read-only"),
    'sort': (lambda a: a.sort(), "sort array is read-only"),
    'partition': (lambda a: a.partition(1), "partition array is read-only"),
    'put': (lambda a: np.put(a, [0], [1]), "put: output array is read-only"),
    'a.put': (lambda a: a.put([0], [1]), "put: output array is read-only"),
    'matmul_out': (lambda a: np.matmul(np.ones((a.size, 1)), np.ones(1), out=a),
                   "output array is read-only"),
    'flat_set': (lambda a: a.flat.__setitem__(0, 1), "underlying array is read-only"),
    'flat=': (lambda a: setattr(a, 'flat', 1), "array is read-only"),
    'real=': (lambda a: setattr(a, 'real', 1), "assignment destination is read-only"),
    'sum_out': (lambda a: np.sum(np.ones((2, a.size)), axis=0, out=a), None),
    'clip_out': (lambda a: np.clip(a, 0, 1, out=a), None),
}


@pytest.mark.parametrize("name", list(WRITES))
@pytest.mark.parametrize("size", [6, 1500])
def test_read_only_writes_raise(name, size):
    f, msg = WRITES[name]
    for how in ('setflags', 'attr', 'item', 'view'):
        a = np.arange(float(size))
        ref = numpy.arange(float(size))
        if how == 'setflags':
            a.setflags(write=False)
            ref.setflags(write=False)
        elif how == 'attr':
            a.flags.writeable = False
            ref.flags.writeable = False
        elif how == 'item':
            a.flags['W'] = False
            ref.flags['W'] = False
        else:       # a view of a read-only array is read-only
            a.flags.writeable = False
            a = a[:]
            ref.flags.writeable = False
            ref = ref[:]
        assert not a.flags.writeable
        with pytest.raises(ValueError) as e:
            f(a)
        if msg is not None:
            assert str(e.value) == msg
        with pytest.raises(ValueError):    # NumPy raises ValueError for the same write
            f(ref) if name not in ('matmul_out',) else np.matmul(
                numpy.ones((size, 1)), numpy.ones(1), out=ref)
        assert numpy.array_equal(numpy.asarray(a), numpy.arange(float(size))), "data changed"


def test_writeable_again():
    a = np.arange(6.)
    a.flags.writeable = False
    v = a[1:4]
    assert not v.flags.writeable
    with pytest.raises(ValueError, match="cannot set WRITEABLE flag to True of this array"):
        v.flags.writeable = True
    with pytest.raises(ValueError, match="cannot set WRITEABLE flag to True of this array"):
        v.setflags(write=True)
    w = a[:2]
    a.flags.writeable = True            # the owner may always be made writeable
    assert a.flags.writeable and not v.flags.writeable and not w.flags.writeable
    v.flags.writeable = True            # ... and then its views may be too
    v[0] = 50
    assert a[1] == 50
    with pytest.raises(ValueError):
        w[0] = 1
    u = a[2:]                           # a writeable view made read-only and back
    u.setflags(write=False)
    assert a.flags.writeable and a[:1].flags.writeable
    u.setflags(write=True)
    u[0] = 7
    assert a[2] == 7
    c = v.copy()                        # copies of read-only arrays are writeable
    v.flags.writeable = False
    assert c.flags.writeable and v.astype(numpy.float32).flags.writeable
    assert v.reshape(3, 1).flags.writeable is False and v.T.flags.writeable is False
    with pytest.raises(ValueError):
        a.setflags(uic=True)


def test_read_only_views_from_functions():
    x = np.arange(12.).reshape(3, 4)
    for f in [lambda m, x: m.broadcast_to(x, (2, 3, 4)), lambda m, x: x.diagonal(),
              lambda m, x: m.diagonal(x, 1), lambda m, x: m.diag(x),
              lambda m, x: x.imag, lambda m, x: m.imag(x)]:
        r, rn = f(np, x), f(numpy, numpy.asarray(x))
        assert r.flags.writeable == rn.flags.writeable == False  # noqa: E712
        with pytest.raises(ValueError, match="read-only"):
            r[...] = 1
    assert numpy.array_equal(numpy.asarray(x), numpy.arange(12.).reshape(3, 4))
    b = np.broadcast_to(x[0], (3, 4))  # NumPy lets it be made writeable: its base is
    b.flags.writeable = True
    d = x.diagonal()
    d.flags.writeable = True
    d[0] = 100
    assert x[0, 0] == 100
    xr = np.arange(4.)
    xr.flags.writeable = False
    with pytest.raises(ValueError):
        np.broadcast_to(xr, (2, 4)).flags.writeable = True
    # results that must stay writeable
    assert all(t.flags.writeable for t in np.broadcast_arrays(x, x[0]))
    assert np.full((2, 3), 1.0).flags.writeable and np.zeros(3).flags.writeable
    z = np.zeros((3, 3))
    np.fill_diagonal(z, 2)
    assert np.diag(np.arange(3.)).flags.writeable and float(z.sum()) == 6.0


def test_conj_method_of_real_is_the_array():
    a = np.arange(4.)
    assert a.conj() is a and a.conjugate() is a
    c = np.arange(4.) * 1j
    assert not c.conj()._same_store(c)


def test_dot_read_only_out_not_acceptable():
    out = np.zeros((2, 2))
    out.flags.writeable = False
    with pytest.raises(ValueError, match="output array is not acceptable"):
        np.dot(np.ones((2, 3)), np.ones((3, 2)), out=out)


def test_default_settings():
    # 2 MiB tiles: these arrays span several
    run_default("""
        import numpy
        import ndtile as np
        n = 700
        for b, bn in [(np.arange(n * n, dtype=float).reshape(n, n),
                       numpy.arange(n * n, dtype=float).reshape(n, n))]:
            for f in [lambda x: x[:, ::3].ravel(), lambda x: x.T.ravel(),
                      lambda x: x[::-1].ravel('K'), lambda x: x.T.ravel('K'),
                      lambda x: x[numpy.array(5)], lambda x: x[:, numpy.array(5)],
                      lambda x: x.flat[10:20000], lambda x: x.ravel(),
                      lambda x: np.asfortranarray(x) if isinstance(x, np.ndarray)
                      else numpy.asfortranarray(x),
                      lambda x: x.T.flatten('K')]:
                for direction in ('result', 'base'):
                    root, rootn = b.copy(), bn.copy()
                    r, rn = f(root), f(rootn)
                    if direction == 'result':
                        r[...] = -7; rn[...] = -7
                    else:
                        root[...] = -5; rootn[...] = -5
                    assert numpy.array_equal(numpy.asarray(root), rootn)
                    assert numpy.array_equal(numpy.asarray(r), rn)
        a = np.arange(n * n, dtype=float)
        a.flags.writeable = False
        for f in [lambda: a.__iadd__(1), lambda: a.__setitem__(slice(None), 0),
                  lambda: a.fill(0), lambda: np.multiply(a, 2, out=a),
                  lambda: a.reshape(n, n).T.__setitem__(0, 1)]:
            try:
                f()
            except ValueError:
                pass
            else:
                raise AssertionError("wrote into a read-only array")
        assert float(a.sum()) == numpy.arange(n * n, dtype=float).sum()
    """)


def test_strides_of_complex_part_views():
    for f in [lambda m: m.zeros((3, 4), complex).real,
              lambda m: m.zeros((3, 4), complex).imag[:, ::2],
              lambda m: m.zeros((3, 4), numpy.complex64).T.real,
              lambda m: m.zeros((1, 4), complex).real, lambda m: m.zeros((3, 4)).T,
              lambda m: m.zeros((3, 4))[::-1], lambda m: m.zeros((3, 4))]:
        assert f(np).strides == f(numpy).strides
