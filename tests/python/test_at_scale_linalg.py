"""matmul/dot/einsum, fft, linalg on a large batched stack and on large
matrices (the blocked LU over the workers: the same bits for 1, 2 and 4
workers, in child processes), and random reproducibility at default settings (2 MiB tiles), on operands of several
tiles; compared with NumPy on the same inputs (random: with the same draws
made at other tile sizes and worker counts)."""
import os
import subprocess
import sys

import numpy as np
import pytest

import ndtile as nt
from ndtile import _core
from _helpers import ABOVE_INLINE, n_tiles, make, assert_big, raises_same

pytestmark = pytest.mark.default_settings


def _tol(dt):
    return 1e-4 if np.dtype(dt) in (np.float32, np.complex64) else 1e-11


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.complex128, np.int64, np.int16,
                                np.bool_])
def test_matmul_dot(dt):
    a, b = make(dt, (700, 420), 1, lo=-3, hi=3), make(dt, (420, 650), 2, lo=-3, hi=3)
    x, y = nt.asarray(a), nt.asarray(b)
    t = _tol(dt) if np.dtype(dt).kind in 'fc' else 0
    assert_big(x @ y, a @ b, t)
    assert_big(nt.matmul(x[::-1, ::2], y[::2]), np.matmul(a[::-1, ::2], b[::2]), t)
    assert_big(nt.dot(x, y), np.dot(a, b), t)
    assert_big(nt.dot(y.T, x.T), np.dot(b.T, a.T), t)
    v = make(dt, 420, 3)
    assert_big(x @ nt.asarray(v), a @ v, t)
    assert_big(nt.asarray(v) @ y, v @ b, t)
    # a stack of matrices, broadcast against one
    s = make(dt, (9, 120, 200), 4, lo=-3, hi=3)
    w = make(dt, (200, 130), 5, lo=-3, hi=3)
    assert_big(nt.asarray(s) @ nt.asarray(w), s @ w, t)
    o = np.zeros((700, 650), np.result_type(a, b))
    ox = nt.asarray(o)
    np.matmul(a, b, out=o)
    nt.matmul(x, y, out=ox)
    assert_big(ox, o, t)
    raises_same(lambda: x @ x, lambda: a @ a)
    if np.dtype(dt).kind != 'b':
        n = n_tiles(dt, 1.3)
        p, q = make(dt, n, 6), make(dt, n, 7)
        got, exp = nt.dot(nt.asarray(p), nt.asarray(q)), np.dot(p, q)
        assert np.asarray(got).dtype == exp.dtype
        np.testing.assert_allclose(np.asarray(got), exp, rtol=t * 10 if t else 0)
        got = nt.vdot(nt.asarray(p), nt.asarray(q))
        np.testing.assert_allclose(np.asarray(got), np.vdot(p, q), rtol=t * 10 if t else 0)


def test_einsum_tensordot_inner_outer():
    a, b = make(np.float64, (300, 500), 1), make(np.float64, (500, 400), 2)
    x, y = nt.asarray(a), nt.asarray(b)
    for spec, ops_np, ops_nt in (('ij,jk->ik', (a, b), (x, y)), ('ij->ji', (a,), (x,)),
                                 ('ij->', (a,), (x,)), ('ij,ij->i', (a, a), (x, x)),
                                 ('ii->i', (a[:300, :300],), (x[:300, :300],)),
                                 ('ij,kj->ik', (a, b.T), (x, y.T)), ('i,j->ij', (a[0], b[0]),
                                                                     (x[0], y[0]))):
        assert_big(nt.einsum(spec, *ops_nt), np.einsum(spec, *ops_np), 1e-11)
    t = make(np.float64, (40, 50, 300), 3)
    u = make(np.float64, (300, 50, 20), 4)
    assert_big(nt.tensordot(nt.asarray(t), nt.asarray(u), axes=([1, 2], [1, 0])),
               np.tensordot(t, u, axes=([1, 2], [1, 0])), 1e-11)
    assert_big(nt.einsum('abc,cbd->ad', nt.asarray(t), nt.asarray(u)),
               np.einsum('abc,cbd->ad', t, u), 1e-11)
    assert_big(nt.inner(x, y.T), np.inner(a, b.T), 1e-11)
    assert_big(nt.outer(x[0], y[:, 0]), np.outer(a[0], b[:, 0]))
    assert_big(nt.kron(x[:30, :40], y[:20, :10]), np.kron(a[:30, :40], b[:20, :10]))


@pytest.mark.parametrize("dt", [np.float64, np.complex128, np.float32, np.complex64])
def test_fft(dt):
    # 1.5 tiles of a smooth length (odd lengths with large prime factors are
    # slow in NumPy too); an odd length past the inline threshold below
    n = 3 * (2 << 20) // 2 // np.dtype(dt).itemsize
    a = make(dt, n, 8)
    x = nt.asarray(a)
    t = 1e-3 if np.dtype(dt) in (np.float32, np.complex64) else 1e-9

    def close(got, exp):
        got = np.asarray(got)
        assert got.shape == exp.shape, (got.shape, exp.shape)
        scale = float(np.abs(exp).max())
        np.testing.assert_allclose(got, exp, rtol=t, atol=t * scale)
    close(nt.fft.fft(x), np.fft.fft(a))
    close(nt.fft.ifft(x), np.fft.ifft(a))
    close(nt.fft.fft(x[::-2]), np.fft.fft(a[::-2]))
    close(nt.fft.fft(x[:ABOVE_INLINE]), np.fft.fft(a[:ABOVE_INLINE]))
    if np.dtype(dt).kind == 'f':
        close(nt.fft.rfft(x), np.fft.rfft(a))
        close(nt.fft.irfft(nt.fft.rfft(x), n), np.fft.irfft(np.fft.rfft(a), n))
    m = make(dt, (513, 700), 9)
    y = nt.asarray(m)
    close(nt.fft.fft2(y), np.fft.fft2(m))
    close(nt.fft.fft(y, axis=0), np.fft.fft(m, axis=0))
    close(nt.fft.ifftn(y, s=(400, 800), axes=(0, 1)), np.fft.ifftn(m, s=(400, 800), axes=(0, 1)))
    close(nt.fft.fft(y, norm='ortho'), np.fft.fft(m, norm='ortho'))
    assert_big(nt.fft.fftshift(y), np.fft.fftshift(m))
    assert_big(nt.fft.fftfreq(n, 0.5), np.fft.fftfreq(n, 0.5))


def test_linalg_batched_stack():
    g = np.random.default_rng(10)
    s = g.standard_normal((20000, 4, 4)) + 4 * np.eye(4)      # 2.4 tiles, well conditioned
    x = nt.asarray(s)
    b = g.standard_normal((20000, 4, 2))
    t = 1e-9
    assert_big(nt.linalg.inv(x), np.linalg.inv(s), t)
    assert_big(nt.linalg.det(x), np.linalg.det(s), t)
    assert_big(nt.linalg.solve(x, nt.asarray(b)), np.linalg.solve(s, b), t)
    sg, ld = nt.linalg.slogdet(x)
    es, el = np.linalg.slogdet(s)
    assert_big(sg, es)
    assert_big(ld, el, t)
    spd = s @ np.swapaxes(s, -1, -2)
    assert_big(nt.linalg.cholesky(nt.asarray(spd)), np.linalg.cholesky(spd), t)
    assert_big(nt.linalg.eigvalsh(nt.asarray(spd)), np.linalg.eigvalsh(spd), t)
    assert_big(nt.linalg.svd(x, compute_uv=False), np.linalg.svd(s, compute_uv=False), t)
    assert_big(nt.linalg.norm(x, axis=(1, 2)), np.linalg.norm(s, axis=(1, 2)), t)
    assert_big(nt.linalg.matrix_power(x, 3), np.linalg.matrix_power(s, 3), t)
    assert_big(nt.trace(x, axis1=1, axis2=2), np.trace(s, axis1=1, axis2=2), t)
    v = g.standard_normal(n_tiles(np.float64, 1.3))
    np.testing.assert_allclose(np.asarray(nt.linalg.norm(nt.asarray(v))), np.linalg.norm(v),
                               rtol=1e-12)
    for o in (1, np.inf, -np.inf, 3):
        np.testing.assert_allclose(np.asarray(nt.linalg.norm(nt.asarray(v), o)),
                                   np.linalg.norm(v, o), rtol=1e-11)
    sing = s.copy()
    sing[123] = 0
    raises_same(lambda: nt.linalg.inv(nt.asarray(sing)), lambda: np.linalg.inv(sing))


def _draws():
    r = nt.random.default_rng(1234)
    out = [r.random(n_tiles(np.float64, 1.3)), r.standard_normal((600, 700)),
           r.integers(0, 1000, size=ABOVE_INLINE * 9), r.exponential(2.0, size=ABOVE_INLINE * 5),
           r.random(n_tiles(np.float32, 1.3), dtype=np.float32)]
    nt.random.seed(77)
    out.append(nt.random.rand(ABOVE_INLINE * 8))
    return [np.asarray(o) for o in out]


def test_random_reproducible_across_tiles_and_workers():
    first = _draws()
    again = _draws()
    tiles, workers = _core.tile_bytes(), _core.workers()
    try:
        _core.init(1, 4096, -1)            # the suite's small tiles, one worker
        small = _draws()
        _core.init(3, 1 << 20, -1)
        other = _draws()
    finally:
        _core.init(workers, tiles, -1)
    for f, a, s, o in zip(first, again, small, other):
        assert f.tobytes() == a.tobytes()
        assert f.tobytes() == s.tobytes()
        assert f.tobytes() == o.tobytes()
    u, z, i, e, u32, leg = first
    # and they are draws of the distributions asked for
    assert u.dtype == np.float64 and 0 <= u.min() and u.max() < 1 and abs(u.mean() - 0.5) < 0.01
    assert abs(z.mean()) < 0.01 and abs(z.std() - 1) < 0.01
    assert i.min() >= 0 and i.max() < 1000 and abs(i.mean() - 499.5) < 5
    assert abs(e.mean() - 2.0) < 0.05
    assert u32.dtype == np.float32 and 0 <= u32.min() and u32.max() < 1
    assert abs(leg.mean() - 0.5) < 0.01
    assert len(np.unique(u)) == u.size          # no tile repeated another's stream


# ---- large matrices: solve, inv, det and slogdet as a blocked LU, cholesky
# as a blocked Cholesky, whose pieces are tasks over the workers (order >=
# 512, src/ops/linalg.c) ----
LU_N = 520      # past the blocked LU's order; float64: 2.2 MB, more than a tile


def _large(dt, shape, seed):
    """Well-conditioned (condition number about 3) with a modest det."""
    g = np.random.default_rng(seed)
    a = g.standard_normal(shape)
    if np.dtype(dt).kind == 'c':
        a = a + 1j * g.standard_normal(shape)
    n = shape[-2]
    eye = np.eye(n, shape[-1])
    if np.dtype(dt).kind in 'iu':
        return (np.round(a * 3) + 4 * round(np.sqrt(n)) * eye).astype(dt)
    return (eye + a * (0.3 / np.sqrt(n))).astype(dt)


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.complex128, np.complex64, np.int64])
def test_large_solve_inv_det(dt):
    a = _large(dt, (LU_N, LU_N), 1)
    b = _large(dt, (LU_N, 3), 2)
    x = nt.asarray(a)
    t = 2e-4 if np.dtype(dt) in (np.float32, np.complex64) else 1e-11
    assert_big(nt.linalg.solve(x, nt.asarray(b)), np.linalg.solve(a, b), t)
    assert_big(nt.linalg.solve(x, nt.asarray(b[:, 0])), np.linalg.solve(a, b[:, 0]), t)
    assert_big(nt.linalg.inv(x), np.linalg.inv(a), t)
    sg, ld = nt.linalg.slogdet(x)
    es, el = np.linalg.slogdet(a)
    np.testing.assert_allclose(np.asarray(sg), es, rtol=t)
    np.testing.assert_allclose(np.asarray(ld), el, rtol=t, atol=t)
    assert np.asarray(sg).dtype == es.dtype and np.asarray(ld).dtype == el.dtype
    if np.dtype(dt).kind != 'i':     # (the integer matrix's det overflows)
        d, e = np.asarray(nt.linalg.det(x)), np.linalg.det(a)
        assert d.dtype == e.dtype
        np.testing.assert_allclose(d, e, rtol=t)
    if dt is np.float64:
        # strided and transposed views, a stack with a broadcast right-hand side
        for v, w in ((x.T, a.T), (x[::-1], a[::-1]), (x[:, ::-1], a[:, ::-1])):
            assert_big(nt.linalg.solve(v, nt.asarray(b)), np.linalg.solve(w, b), t)
            assert_big(nt.linalg.inv(v), np.linalg.inv(w), t)
        s = np.stack([a, _large(dt, (LU_N, LU_N), 3)])
        assert_big(nt.linalg.solve(nt.asarray(s), nt.asarray(b)), np.linalg.solve(s, b), t)
        assert_big(nt.linalg.inv(nt.asarray(s)), np.linalg.inv(s), t)
        assert_big(nt.linalg.det(nt.asarray(s)), np.linalg.det(s), t)


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.complex128, np.complex64])
def test_large_solve_many_rhs(dt):
    """The back-substitution by row blocks and right-hand block columns
    (solve's last phase), for 1, 8, n and a ragged number of right-hand
    sides, a strided b and a b of another dtype, and inv's getri phases
    for a matrix whose pivoting swaps rows across many blocks."""
    a = _large(dt, (LU_N, LU_N), 11)
    x = nt.asarray(a)
    t = 2e-4 if np.dtype(dt) in (np.float32, np.complex64) else 1e-11
    for k in (1, 8, 200, LU_N):
        b = _large(dt, (LU_N, k), 12 + k)
        assert_big(nt.linalg.solve(x, nt.asarray(b)), np.linalg.solve(a, b), t)
    b = _large(dt, (LU_N, 2 * LU_N), 13)
    assert_big(nt.linalg.solve(x, nt.asarray(b)[:, ::2]), np.linalg.solve(a, b[:, ::2]), t)
    bi = np.arange(LU_N * 3).reshape(LU_N, 3) % 7
    assert_big(nt.linalg.solve(x, nt.asarray(bi)), np.linalg.solve(a, bi), t)
    # a permutation-like matrix: every panel pivots, L's swaps matter for inv
    p = np.random.default_rng(14).permutation(LU_N)
    c = (a[p] * 2).astype(dt)
    assert_big(nt.linalg.inv(nt.asarray(c)), np.linalg.inv(c), t)
    assert_big(nt.linalg.solve(nt.asarray(c), nt.asarray(b[:, :9])), np.linalg.solve(c, b[:, :9]), t)


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.complex128, np.complex64, np.int64])
def test_large_qr(dt):
    """qr of a large matrix (m >= n >= 512: the blocked Householder QR's
    tasks) in every mode, against NumPy's LAPACK (the same reflectors, so
    the same signs): tall and square, a stack, a transposed view; raw mode
    and a wide matrix stay one task per matrix."""
    t = 2e-4 if np.dtype(dt) in (np.float32, np.complex64) else 1e-11
    for shape in ((LU_N + 90, LU_N), (LU_N, LU_N)):
        a = _large(dt, shape, 21)
        x = nt.asarray(a)
        for mode in ("reduced", "complete", "r", "raw"):
            assert_big(nt.linalg.qr(x, mode=mode), np.linalg.qr(a, mode=mode), t)
    if dt is np.float64:
        a = _large(dt, (LU_N, LU_N + 40), 22)
        for v, w in ((nt.asarray(a).T, a.T), (nt.asarray(a), a)):
            assert_big(nt.linalg.qr(v), np.linalg.qr(w), t)
        s = np.stack([a[:, :LU_N], _large(dt, (LU_N, LU_N), 23)])
        assert_big(nt.linalg.qr(nt.asarray(s)), np.linalg.qr(s), t)
        assert_big(nt.linalg.qr(nt.asarray(s), mode="r"), np.linalg.qr(s, mode="r"), t)


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.complex128, np.complex64, np.int64])
def test_large_cholesky(dt):
    g = np.random.default_rng(7)
    a = _large(dt, (LU_N, LU_N), 8).astype(np.result_type(dt, np.float64))
    h = a @ a.conj().T + LU_N * np.eye(LU_N)
    junk = g.standard_normal((LU_N, LU_N)) * 5     # NumPy reads one triangle only
    t = 2e-4 if np.dtype(dt) in (np.float32, np.complex64) else 1e-11
    for upper in (False, True):
        m = (h + (np.tril(junk, -1) if upper else np.triu(junk, 1))).astype(dt)
        got = nt.linalg.cholesky(nt.asarray(m), upper=upper)
        assert_big(got, np.linalg.cholesky(m, upper=upper), t)
    bad = np.eye(LU_N)
    bad[300, 300] = -1
    raises_same(lambda: nt.linalg.cholesky(nt.asarray(bad)), lambda: np.linalg.cholesky(bad))
    with pytest.raises(np.linalg.LinAlgError, match='^Matrix is not positive definite$'):
        nt.linalg.cholesky(nt.asarray(bad), upper=True)


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.complex128, np.int64])
def test_large_lstsq(dt):
    """lstsq of a tall matrix (m >= n >= 512: the blocked QR's tasks over A
    and b, then gelsd on R): x, residuals, rank and singular values as
    NumPy's, for 1-d and 2-d b, square (rank-deficient and rcond cutting:
    test_large_lstsq_rank_deficient)."""
    t = 2e-4 if np.dtype(dt) in (np.float32, np.complex64) else 1e-10
    for m, k in ((900, 3), (LU_N, 2), (600, None)):
        a = _large(dt, (m, LU_N), 20 + m)
        b = _large(dt, (m, k or 1), 21)[:, 0] if k is None else _large(dt, (m, k), 21)
        got = nt.linalg.lstsq(nt.asarray(a), nt.asarray(b), rcond=None)
        want = np.linalg.lstsq(a, b, rcond=None)
        assert isinstance(got[2], np.int32) and got[2] == want[2]
        for g, w in (got[0], want[0]), (got[1], want[1]), (got[3], want[3]):
            if np.size(w):
                assert_big(g, w, t)
            g = np.asarray(g)
            assert g.dtype == w.dtype and g.shape == w.shape


def test_large_lstsq_rank_deficient():
    """(float64 only: it ran the same for each dtype of test_large_lstsq)
    rank-deficient: a repeated column; and an rcond above the smallest s;
    a NaN raises as NumPy."""
    a = _large(np.float64, (900, LU_N), 30)
    a[:, 5] = a[:, 9]
    b = _large(np.float64, (900, 2), 31)
    for rc in (None, 0.5):
        got = nt.linalg.lstsq(nt.asarray(a), nt.asarray(b), rcond=rc)
        want = np.linalg.lstsq(a, b, rcond=rc)
        assert got[2] == want[2] and np.asarray(got[1]).shape == want[1].shape == (0,)
        assert_big(got[0], want[0], 1e-9)
        assert_big(got[3], want[3], 1e-10)
    a[4, 4] = np.nan
    raises_same(lambda: nt.linalg.lstsq(nt.asarray(a), nt.asarray(b), rcond=None),
                lambda: np.linalg.lstsq(a, b, rcond=None))


def test_large_singular_and_nan():
    a = _large(np.float64, (LU_N, LU_N), 4)
    a[:, 300] = 0           # an exact zero pivot in the third panel
    x = nt.asarray(a)
    b = np.ones((LU_N, 2))
    raises_same(lambda: nt.linalg.solve(x, nt.asarray(b)), lambda: np.linalg.solve(a, b))
    raises_same(lambda: nt.linalg.inv(x), lambda: np.linalg.inv(a))
    with pytest.raises(np.linalg.LinAlgError, match='^Singular matrix$'):
        nt.linalg.inv(x)
    assert float(nt.linalg.det(x)) == np.linalg.det(a) == 0
    sg, ld = nt.linalg.slogdet(x)
    assert (float(sg), float(ld)) == tuple(np.linalg.slogdet(a)) == (0.0, -np.inf)
    c = _large(np.complex128, (LU_N, LU_N), 5)
    c[:, 7] = 0
    raises_same(lambda: nt.linalg.inv(nt.asarray(c)), lambda: np.linalg.inv(c))
    assert complex(nt.linalg.det(nt.asarray(c))) == np.linalg.det(c) == 0
    # the runtime is fine afterwards
    good = _large(np.float64, (LU_N, LU_N), 6)
    assert_big(nt.linalg.inv(nt.asarray(good)), np.linalg.inv(good), 1e-11)


_SAME_BITS = """
import hashlib, numpy, ndtile as np
g = numpy.random.default_rng(8)
n = 600
a = numpy.eye(n) + g.standard_normal((n, n)) * (0.3 / n ** 0.5)
z = a + 1j * g.standard_normal((n, n)) * (0.3 / n ** 0.5)
b = g.standard_normal((n, n))
h = hashlib.sha1()
for m in (np.asarray(a), np.asarray(z), np.asarray(a.astype(numpy.float32))):
    p = m @ m.conj().T
    for y in (np.linalg.solve(m, np.asarray(b[:, :130])), np.linalg.solve(m, np.asarray(b)),
              np.linalg.solve(m, np.asarray(b[:, :8])), np.linalg.solve(m, np.asarray(b[:, 0])),
              np.linalg.inv(m), np.linalg.det(m), *np.linalg.qr(m), np.linalg.qr(m[:, :520], mode="r"),
              *np.linalg.qr(m[:, :520], mode="complete"),
              *np.linalg.slogdet(m), np.linalg.cholesky(p), np.linalg.cholesky(p, upper=True),
              *np.linalg.lstsq(np.concatenate([m, m[:90]]),
                               np.asarray(numpy.concatenate([b[:, :3], b[:90, :3]])), rcond=None)[:2]):
        h.update(numpy.asarray(y).tobytes())
print(h.hexdigest())
"""


def test_large_lu_same_bits_any_workers():
    """The blocked LU's and Cholesky's pieces and their order depend on n
    only: the same bits with 1, 2 and 4 workers (child processes at default
    settings)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("NDTILE_")}
    got = []
    for w in (1, 2, 4, 2):
        r = subprocess.run([sys.executable, "-c", _SAME_BITS], env=dict(env, NDTILE_WORKERS=str(w)),
                           capture_output=True, text=True, timeout=600)
        assert r.returncode == 0, r.stdout + r.stderr
        got.append(r.stdout.split()[-1])
    assert len(set(got)) == 1, got
