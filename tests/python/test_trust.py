"""Regression tests for silent wrong results, run in a child process at the
default settings (2 MiB tiles, the default inline threshold, all workers),
where arrays take the deferred and fused paths real programs take. The
suite's conftest uses 4096-byte tiles, which hid these."""
import os
import subprocess
import sys
import textwrap


def run_default(code):
    env = {k: v for k, v in os.environ.items() if not k.startswith("NDTILE_")}
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr


def test_slice_writes_into_one_store_all_land():
    # fusion kept only the last of several writes into one store
    run_default("""
        import numpy
        import ndtile as np
        r = np.zeros(65538); r[:32769] = 1.0; r[32769:] = 1.0
        assert r.sum() == 65538.0
        z = np.zeros((300, 300)); z[:150] = 1; z[150:] = 1
        assert z.sum() == 90000.0
        a = np.arange(40000.0)
        assert np.concatenate([a, a]).sum() == 1599960000.0
        b = numpy.arange(40000.0)
        assert numpy.array_equal(numpy.asarray(np.stack([a, a + 1, a * 2])), numpy.stack([b, b + 1, b * 2]))
        y, x = np.indices((256, 256))
        assert int(y.sum()) == 8355840 and int(x.sum()) == 8355840
        # several pieces, written in several orders, some overwritten again
        n = 200_000
        ref = numpy.zeros(n); got = np.zeros(n)
        for lo, hi, v in [(0, 70000, 1.0), (70000, 140000, 2.0), (140000, n, 3.0),
                          (50000, 100000, 4.0), (0, 70000, 5.0)]:
            ref[lo:hi] = v; got[lo:hi] = v
        assert numpy.array_equal(numpy.asarray(got), ref)
        # in-place ops on disjoint halves, then a read
        w = np.arange(n, dtype=np.float64); wr = numpy.arange(n, dtype=numpy.float64)
        w[: n // 2] += 1; w[n // 2:] *= 2; wr[: n // 2] += 1; wr[n // 2:] *= 2
        assert numpy.array_equal(numpy.asarray(w), wr)
    """)


def test_shape_messages_of_0d_destinations_are_text():
    # the message buffers for a 0-d side were never written (garbage, then a
    # UnicodeDecodeError instead of NumPy's ValueError)
    import pytest
    import ndtile as nt
    with pytest.raises(ValueError, match=r"into shape \(\)"):
        nt.zeros(())[...] = nt.arange(5.0)
    with pytest.raises(ValueError, match=r"output operand with shape \(\)"):
        nt.add(nt.ones(3), 1, out=nt.zeros(()))


def test_shares_memory_is_exact():
    # shares_memory answered "same store": a[:2] and a[2:] "shared"
    import numpy
    import ndtile as nt
    A = numpy.arange(24.0).reshape(4, 6)
    C = numpy.zeros(6, complex)
    B, D = nt.asarray(A), nt.asarray(C)
    pairs = [lambda x: (x[:2], x[2:]), lambda x: (x[:, ::2], x[:, 1::2]),
             lambda x: (x[::-1], x[1:2]), lambda x: (x.T, x[3]), lambda x: (x[1:, 0], x[0, :]),
             lambda x: (x[0, 0], x[0, 0:1]), lambda x: (x[:0], x), lambda x: (x, x.copy())]
    cpairs = [lambda x: (x.real, x.imag), lambda x: (x.imag, x[1:].imag),
              lambda x: (x.real[::2], x[1::2].real), lambda x: (x.imag, x)]
    for base, mine, fs in ((A, B, pairs), (C, D, cpairs)):
        for f in fs:
            p, q = f(base)
            r, s = f(mine)
            assert nt.shares_memory(r, s) == numpy.shares_memory(p, q)
            assert nt.may_share_memory(r, s) == numpy.may_share_memory(p, q)
            # two NumPy arrays: NumPy's answer (ndtile's said False)
            assert nt.shares_memory(p, q) == numpy.shares_memory(p, q)
            assert nt.may_share_memory(p, q) == numpy.may_share_memory(p, q)
    assert not nt.shares_memory(B, A)
    assert nt.may_share_memory(A[1:], A) and nt.shares_memory(A[::-1], A, max_work=10)
    assert not nt.may_share_memory([1, 2], [1, 2]) and not nt.may_share_memory(B, B.__array__())


def test_matmul_of_complex_part_views():
    # the matrix-vector path took store-element strides for the view's own
    # (re0, im0, re1, ... read as a float matrix)
    import numpy
    import ndtile as nt
    c = (numpy.arange(8) + 10j * numpy.arange(8)).reshape(4, 2)
    v = numpy.array([1.0, 100.0])
    x, y = nt.asarray(c), nt.asarray(v)
    for f in (lambda p, q: p.real @ q, lambda p, q: p.imag @ q, lambda p, q: q @ p.real.T,
              lambda p, q: p.real.T.T @ q, lambda p, q: p.real @ p.imag.T):
        assert numpy.array_equal(numpy.asarray(f(x, y)), f(c, v))


def test_garbage_collected_inside_a_core_call_does_not_deadlock():
    # the floating-point capture hook runs Python inside a core call; a
    # collection there freed arrays, whose dealloc took the core lock again
    run_default("""
        import gc, warnings
        import ndtile as np
        warnings.simplefilter('ignore')
        gc.set_threshold(1)
        class Cyc:
            def __init__(self):
                self.me = self
                self.a = np.ones(10)
        x = np.ones(100_000)
        for i in range(300):
            Cyc()
            y = x * 2.0 + 1
            x = y.astype('float32').astype('float64')
        assert float(x[0]) == float('inf')
    """)


def _same_outcome(f):
    import numpy
    import ndtile as nt
    out = []
    for m in (numpy, nt):
        try:
            r = f(m)
            out.append(('ok', numpy.asarray(r).dtype, numpy.asarray(r).tolist()))
        except Exception as e:     # noqa: BLE001 - the class is what is compared
            out.append(type(e).__mro__[[c.__module__ for c in type(e).__mro__].index('builtins')])
    assert out[0] == out[1], out


def test_fuzz_found_deviations():
    import numpy
    cases = [
        lambda m: m.flip(m.asarray(numpy.array(3))) * 0 + 1,       # 0-d flip is a scalar
        lambda m: m.zeros((2, 6))[numpy.array([], 'int64'), [6]],   # empty broadcast: no bounds check
        lambda m: m.zeros((2, 6))[numpy.array([], 'int64'), 10],
        lambda m: m.zeros((6, 0), 'int64') ** -2,                   # nothing to raise for
        lambda m: m.array([2], 'uint64') ** m.array([-1], 'int64'),  # a float64 loop
        lambda m: m.array([2], 'uint8') ** m.array([-1], 'int8'),
        lambda m: m.zeros((0, 0)).max(axis=1),                      # no identity, empty result
        lambda m: m.zeros((0, 0)).argmax(axis=-1, keepdims=True),
        lambda m: m.zeros((0, 0)).max(axis=1, initial=3),
        lambda m: m.zeros((0, 3)).max(axis=1),
    ]
    for f in cases:
        _same_outcome(f)
    # one element given a sequence: the element type's conversion, as NumPy
    for dt in ('float64', 'int64', 'complex128', 'bool', 'uint8'):
        for v in (numpy.arange(5.0), numpy.ones((1, 1)), numpy.ones(1), [1], [1, 2], (1,), 3):
            def f(m, dt=dt, v=v):
                a = m.zeros(10, dt)
                a[3] = m.asarray(v) if isinstance(v, numpy.ndarray) else v
                return a
            _same_outcome(f)


def test_floating_point_flags_as_numpy():
    # vectorised branchy loops raised flags for arms not taken ((1+1j) /
    # (2+3j): divide by zero), gcc's isfinite/isless are signalling compares
    # (0.0 // nan: invalid), and SLEEF's log1p/exp2/atanh raise nothing
    import warnings
    import numpy
    import ndtile as nt

    def msgs(f):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter('always')
            numpy.asarray(f())
        return sorted({str(k.message) for k in w})

    cases = [('true_divide', 'complex128', (1 + 1j, 2 + 3j)), ('true_divide', 'complex64', (0j, -1j)),
             ('true_divide', 'complex128', (1 + 0j, 0j)), ('reciprocal', 'complex128', (7j,)),
             ('floor_divide', 'float64', (0.0, numpy.nan)), ('remainder', 'float32', (1.0, numpy.nan)),
             ('fmod', 'float64', (0.0, numpy.nan)), ('floor_divide', 'float64', (1.0, 0.0)),
             ('log1p', 'float64', (-3.5,)), ('exp2', 'float64', (1e300,)), ('arctanh', 'float32', (7.0,)),
             ('sqrt', 'float64', (-1.0,)), ('log', 'float32', (0.0,))]
    for name, dt, vals in cases:
        for n in (1, 40, 100_000):
            with numpy.errstate(all='ignore'):
                xs = [numpy.full(n, v).astype(dt) for v in vals]
            want = msgs(lambda: getattr(numpy, name)(*xs))
            got = msgs(lambda: getattr(nt, name)(*[nt.asarray(x) for x in xs]))
            assert got == want, (name, dt, vals, n, got, want)


def test_fuzz_found_assignment_and_where_rules():
    import numpy

    def mask_value(m, v):
        a = m.zeros((2, 2))
        a[a == 0] = v(m)
        return a

    def lead_axes(m):
        a = m.zeros((3, 2))
        a[[0, 2]] = m.arange(4.0).reshape((1, 1, 2, 2))
        b = m.zeros((2, 2))
        b[[1], ::-1] = m.arange(2.0).reshape((1, 1, 2))
        return m.concatenate([a.ravel(), b.ravel()])

    def floordiv_into(m):
        a = m.zeros(1, 'uint16')
        a //= m.ones(2, 'int8')          # the cast error comes before the shape's
        return a

    for f in (lambda m: mask_value(m, lambda m: m.zeros((1, 1, 1))),
              lambda m: mask_value(m, lambda m: m.zeros(1)), lead_axes, floordiv_into,
              lambda m: m.arange(6).reshape(2, 3).sum(axis=0, where=m.asarray(numpy.ones((2, 2, 3), bool))),
              lambda m: m.arange(6).reshape(2, 3).sum(axis=0, where=m.asarray(numpy.ones((2, 2), bool))),
              lambda m: m.arange(6).reshape(2, 3).sum(axis=0, where=m.asarray(numpy.ones((2, 1), bool)))):
        _same_outcome(f)


def test_full_products_fold_in_numpys_order():
    # per-tile partials met 0 * inf where NumPy's one fold keeps 0:
    # prod(arange(559040, uint64), dtype=float64) is 0.0 in NumPy, was NaN
    run_default("""
        import numpy, warnings
        import ndtile as np
        warnings.simplefilter('ignore')
        g = numpy.random.default_rng(3)
        for n in (559040, 300000):
            a = numpy.arange(n, dtype='uint64')
            b = 1 + g.standard_normal(n) * 0.01
            for x, kw in ((a, {'dtype': 'float64'}), (a.astype(float), {}),
                          (a.astype(float)[::-1], {}), (b, {}), (b[::-3], {}),
                          (b.astype('complex64'), {}), (b.reshape(-1, 10), {})):
                with numpy.errstate(all='ignore'):
                    want = numpy.prod(x, **kw)
                got = numpy.asarray(np.prod(np.asarray(x), **kw))
                assert got.dtype == want.dtype
                assert got.tobytes() == numpy.asarray(want).tobytes() or (
                    numpy.isnan(want) and numpy.isnan(got)), (n, x.dtype, kw, want, got)
    """)


def test_fuzz_found_precedence_of_read_only_and_bounds():
    import numpy

    def inplace(f):
        def run(m):
            b = m.broadcast_to(m.zeros(4, 'int8'), (2, 4))
            f(m, b)
            return b
        return run

    for f in (inplace(lambda m, b: b.__isub__(300)), inplace(lambda m, b: b.__ilshift__(2**40)),
              inplace(lambda m, b: m.fmin(b, 2**40, out=b)), inplace(lambda m, b: b.__ixor__(-1))):
        _same_outcome(f)          # read-only before the scalar's range

    def element(m):
        a = m.zeros((4, 3))
        a[4, 0] = m.ones(3)       # the index's IndexError before the value's
        return a
    _same_outcome(element)
