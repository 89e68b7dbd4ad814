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
                       capture_output=True, text=True, timeout=600)
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
        nt.arange(10.0)[3] = nt.arange(5.0)
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
    assert not nt.shares_memory(B, A)
