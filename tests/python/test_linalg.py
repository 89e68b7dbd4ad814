"""ndtile.linalg against numpy.linalg: values, dtypes and shapes for every
float dtype and integer input, stacks of many matrices (several tasks at
4096-byte tiles), broadcasting, strided views, empty matrices, and NumPy's
errors. Eigen- and singular vectors are compared through sign-invariant
quantities (reconstructions). Every function must run natively: the
fallback is an error here."""
import numpy as np
import pytest

import ndtile as nt
from _helpers import make
from ndtile import _core

LA_DTYPES = [np.dtype(t) for t in (np.int64, np.float32, np.float64, np.complex64,
                                   np.complex128)]
IDS = [d.name for d in LA_DTYPES]


@pytest.fixture(autouse=True)
def _native_only(monkeypatch):
    monkeypatch.setenv('NDTILE_FALLBACK', 'error')


def res_dtype(dt):
    dt = np.dtype(dt)
    return dt if dt.kind in 'fc' else np.dtype(np.float64)


def tol(dt):
    return 2e-4 if res_dtype(dt) in (np.float32, np.complex64) else 1e-10


def well(dt, shape, seed=0):
    """A well-conditioned (diagonally dominant) matrix or stack of them."""
    a = make(dt, shape, seed=seed, lo=-3, hi=3)
    n = shape[-1]
    if shape[-2] == n:
        a = a + (4 * n * np.eye(n)).astype(a.dtype)
    return a


def spd(dt, shape, seed=0):
    a = make(dt, shape, seed=seed, lo=-3, hi=3).astype(res_dtype(dt))
    n = shape[-1]
    return (a @ np.conj(np.swapaxes(a, -1, -2)) + n * np.eye(n)).astype(a.dtype)


def close(got, exp, rtol, atol=None):
    assert isinstance(got, (nt.ndarray, np.generic)), type(got)
    g = np.asarray(got)
    e = np.asarray(exp)
    assert g.dtype == e.dtype, (g.dtype, e.dtype)
    assert g.shape == e.shape, (g.shape, e.shape)
    scale = max(1.0, float(np.max(np.abs(e)))) if e.size else 1.0
    np.testing.assert_allclose(g, e, rtol=rtol, atol=rtol * scale if atol is None else atol)


@pytest.mark.parametrize('dt', LA_DTYPES, ids=IDS)
def test_solve_inv(dt):
    for shape, bshape in [((6, 6), (6,)), ((6, 6), (6, 3)), ((40, 5, 5), (40, 5, 2)),
                          ((3, 1, 4, 4), (5, 4, 2)), ((2, 4, 4), (4,))]:
        a = well(dt, shape)
        b = make(dt, bshape, seed=1, lo=-3, hi=3)
        close(nt.linalg.solve(nt.asarray(a), nt.asarray(b)), np.linalg.solve(a, b), tol(dt))
    for shape in [(7, 7), (50, 4, 4), (2, 3, 3, 3)]:
        a = well(dt, shape)
        close(nt.linalg.inv(nt.asarray(a)), np.linalg.inv(a), tol(dt))


def test_strided_and_transposed_views():
    a = well(np.float64, (30, 6, 6))
    x = nt.asarray(a)
    for sl in (np.s_[::3], np.s_[::-2, ::-1], np.s_[1:20:4, :, ::-1]):
        close(nt.linalg.inv(x[sl]), np.linalg.inv(a[sl]), 1e-10)
        close(nt.linalg.det(x[sl]), np.linalg.det(a[sl]), 1e-10)
    close(nt.linalg.inv(x.swapaxes(-1, -2)), np.linalg.inv(a.swapaxes(-1, -2)), 1e-10)
    big = well(np.float64, (40, 40))
    close(nt.linalg.solve(nt.asarray(big).T, nt.asarray(big)[:, 3]),
          np.linalg.solve(big.T, big[:, 3]), 1e-10)


@pytest.mark.parametrize('dt', LA_DTYPES, ids=IDS)
def test_cholesky(dt):
    for shape in [(5, 5), (30, 4, 4)]:
        a = spd(dt, shape)
        for upper in (False, True):
            close(nt.linalg.cholesky(nt.asarray(a), upper=upper),
                  np.linalg.cholesky(a, upper=upper), tol(dt))


@pytest.mark.parametrize('dt', LA_DTYPES, ids=IDS)
def test_det_slogdet(dt):
    a = make(dt, (6, 6), seed=2, lo=-3, hi=3)
    r = nt.linalg.det(nt.asarray(a))
    assert isinstance(r, np.generic)
    close(r, np.linalg.det(a), tol(dt))
    s = make(dt, (60, 3, 3), seed=3, lo=-3, hi=3)
    close(nt.linalg.det(nt.asarray(s)), np.linalg.det(s), tol(dt))
    got, exp = nt.linalg.slogdet(nt.asarray(s)), np.linalg.slogdet(s)
    assert type(got).__name__ == 'SlogdetResult'
    close(got.sign, exp.sign, tol(dt))
    close(got.logabsdet, exp.logabsdet, tol(dt))
    sign, logdet = nt.linalg.slogdet(nt.asarray(a))
    close(sign, np.linalg.slogdet(a)[0], tol(dt))
    close(logdet, np.linalg.slogdet(a)[1], tol(dt))


def test_det_singular_is_zero():
    a = np.array([[1.0, 2.0], [2.0, 4.0]])
    assert nt.linalg.det(nt.asarray(a)) == 0.0
    sign, logdet = nt.linalg.slogdet(nt.asarray(a))
    assert sign == 0.0 and logdet == -np.inf


@pytest.mark.parametrize('dt', LA_DTYPES, ids=IDS)
def test_qr(dt):
    for shape in [(6, 4), (4, 6), (20, 5, 3)]:
        a = make(dt, shape, seed=4, lo=-3, hi=3)
        x = nt.asarray(a)
        for mode in ('reduced', 'complete'):
            q, r = nt.linalg.qr(x, mode=mode)
            eq, er = np.linalg.qr(a, mode=mode)
            assert type(nt.linalg.qr(x, mode=mode)).__name__ == 'QRResult'
            close(q, eq, tol(dt))
            close(r, er, tol(dt))
            close(nt.asarray(np.asarray(q) @ np.asarray(r)), a.astype(er.dtype), tol(dt))
        close(nt.linalg.qr(x, mode='r'), np.linalg.qr(a, mode='r'), tol(dt))
        h, tau = nt.linalg.qr(x, mode='raw')
        eh, etau = np.linalg.qr(a, mode='raw')
        close(h, eh, tol(dt))
        close(tau, etau, tol(dt))


def recon_svd(u, s, vh):
    u, s, vh = np.asarray(u), np.asarray(s), np.asarray(vh)
    k = s.shape[-1]
    return (u[..., :, :k] * s[..., None, :]) @ vh[..., :k, :]


@pytest.mark.parametrize('dt', LA_DTYPES, ids=IDS)
def test_svd(dt):
    for shape in [(6, 4), (4, 6), (30, 3, 5)]:
        a = make(dt, shape, seed=5, lo=-3, hi=3)
        x = nt.asarray(a)
        for full in (True, False):
            got = nt.linalg.svd(x, full_matrices=full)
            exp = np.linalg.svd(a, full_matrices=full)
            assert type(got).__name__ == 'SVDResult'
            for g, e in zip(got, exp):
                assert np.asarray(g).shape == e.shape and np.asarray(g).dtype == e.dtype
            close(got.S, exp.S, tol(dt))
            close(nt.asarray(recon_svd(*got)), recon_svd(*exp), tol(dt))
        close(nt.linalg.svd(x, compute_uv=False), np.linalg.svd(a, compute_uv=False), tol(dt))
        close(nt.linalg.svdvals(x), np.linalg.svdvals(a), tol(dt))


@pytest.mark.parametrize('dt', LA_DTYPES, ids=IDS)
def test_svd_hermitian(dt):
    a = make(dt, (12, 4, 4), seed=6, lo=-3, hi=3)
    a = a + np.conj(np.swapaxes(a, -1, -2))
    x = nt.asarray(a)
    got, exp = nt.linalg.svd(x, hermitian=True), np.linalg.svd(a, hermitian=True)
    close(got.S, exp.S, tol(dt))
    close(nt.asarray(recon_svd(*got)), recon_svd(*exp), tol(dt))
    close(nt.linalg.svd(x, compute_uv=False, hermitian=True),
          np.linalg.svd(a, compute_uv=False, hermitian=True), tol(dt))


@pytest.mark.parametrize('dt', LA_DTYPES, ids=IDS)
def test_eigh(dt):
    for shape in [(6, 6), (40, 4, 4)]:
        a = make(dt, shape, seed=7, lo=-3, hi=3)   # not symmetric: UPLO picks a triangle
        x = nt.asarray(a)
        for uplo in ('L', 'U', 'u'):
            w, v = nt.linalg.eigh(x, UPLO=uplo)
            ew, ev = np.linalg.eigh(a, UPLO=uplo)
            close(w, ew, tol(dt))
            assert np.asarray(v).dtype == ev.dtype and np.asarray(v).shape == ev.shape
            # |v^H e| is 1 for matching eigenvectors (sign/phase free)
            d = np.abs(np.sum(np.conj(np.asarray(v)) * ev, axis=-2))
            np.testing.assert_allclose(d, 1, atol=tol(dt) * 50)
            close(nt.linalg.eigvalsh(x, UPLO=uplo), np.linalg.eigvalsh(a, UPLO=uplo), tol(dt))


@pytest.mark.parametrize('dt', LA_DTYPES, ids=IDS)
def test_eig(dt):
    sym = spd(dt, (5, 5)) if np.dtype(dt).kind != 'c' else None
    if sym is not None:   # real eigenvalues: real results, as NumPy
        w, v = nt.linalg.eig(nt.asarray(sym))
        ew, ev = np.linalg.eig(sym)
        assert np.asarray(w).dtype == ew.dtype and np.asarray(v).dtype == ev.dtype
        close(nt.asarray(np.sort(np.asarray(w))), np.sort(ew), tol(dt))
    a = make(dt, (20, 4, 4), seed=8, lo=-3, hi=3)
    x = nt.asarray(a)
    got, exp = nt.linalg.eig(x), np.linalg.eig(a)
    assert type(got).__name__ == 'EigResult'
    w, v = np.asarray(got.eigenvalues), np.asarray(got.eigenvectors)
    assert w.dtype == exp.eigenvalues.dtype and v.dtype == exp.eigenvectors.dtype
    np.testing.assert_allclose(np.sort_complex(w), np.sort_complex(exp.eigenvalues),
                               rtol=tol(dt), atol=tol(dt) * 10)
    A = a.astype(v.dtype)
    np.testing.assert_allclose(A @ v, v * w[..., None, :], atol=tol(dt) * 100)
    ev = nt.linalg.eigvals(x)
    np.testing.assert_allclose(np.sort_complex(np.asarray(ev)),
                               np.sort_complex(np.linalg.eigvals(a)), rtol=tol(dt),
                               atol=tol(dt) * 10)


@pytest.mark.parametrize('dt', LA_DTYPES, ids=IDS)
def test_lstsq(dt):
    for ashape, bshape in [((9, 4), (9,)), ((9, 4), (9, 2)), ((4, 9), (4, 3)),
                           ((60, 20), (60, 5))]:
        a = make(dt, ashape, seed=9, lo=-3, hi=3)
        b = make(dt, bshape, seed=10, lo=-3, hi=3)
        got = nt.linalg.lstsq(nt.asarray(a), nt.asarray(b))
        exp = np.linalg.lstsq(a, b)
        close(got[0], exp[0], tol(dt) * 10)
        close(got[1], exp[1], tol(dt) * 10)
        assert got[2] == exp[2] and type(got[2]) is type(exp[2])
        close(got[3], exp[3], tol(dt))
    # rank deficient: no residuals; rcond
    a = np.array([[1.0, 2.0], [2.0, 4.0], [3.0, 6.0]])
    b = np.array([1.0, 2.0, 3.5])
    got, exp = nt.linalg.lstsq(nt.asarray(a), nt.asarray(b)), np.linalg.lstsq(a, b)
    assert got[2] == exp[2] == 1
    close(got[0], exp[0], 1e-10)
    close(got[1], exp[1], 0)
    got = nt.linalg.lstsq(nt.asarray(a), nt.asarray(b), rcond=-1)
    close(got[0], np.linalg.lstsq(a, b, rcond=-1)[0], 1e-8)


@pytest.mark.parametrize('dt', [np.int64, np.float64, np.complex64], ids=str)
def test_matrix_power(dt):
    a = make(dt, (4, 4), seed=11, lo=-2, hi=2)
    for n in (0, 1, 2, 3, 5, 8):
        close(nt.linalg.matrix_power(nt.asarray(a), n), np.linalg.matrix_power(a, n),
              tol(dt) * 10)
    s = well(dt, (10, 3, 3))
    for n in (-1, -3, 4):
        close(nt.linalg.matrix_power(nt.asarray(s), n), np.linalg.matrix_power(s, n),
              tol(dt) * 10)
    with pytest.raises(TypeError):
        nt.linalg.matrix_power(nt.asarray(a), 1.5)


@pytest.mark.parametrize('dt', [np.float32, np.float64, np.complex128], ids=str)
def test_pinv_rank_cond_multidot(dt):
    a = make(dt, (7, 4), seed=12, lo=-3, hi=3)
    x = nt.asarray(a)
    close(nt.linalg.pinv(x), np.linalg.pinv(a), tol(dt) * 10)
    s = make(dt, (10, 3, 5), seed=13, lo=-3, hi=3)
    close(nt.linalg.pinv(nt.asarray(s)), np.linalg.pinv(s), tol(dt) * 10)
    h = s @ np.conj(np.swapaxes(s, -1, -2))
    close(nt.linalg.pinv(nt.asarray(h), hermitian=True), np.linalg.pinv(h, hermitian=True),
          tol(dt) * 100)
    d = np.array([[1.0, 2.0], [2.0, 4.0]]).astype(dt)
    assert nt.linalg.matrix_rank(nt.asarray(d)) == np.linalg.matrix_rank(d) == 1
    assert nt.linalg.matrix_rank(nt.asarray(a)) == 4
    np.testing.assert_array_equal(np.asarray(nt.linalg.matrix_rank(nt.asarray(s))),
                                  np.linalg.matrix_rank(s))
    assert nt.linalg.matrix_rank(nt.asarray(np.zeros(3))) == 0
    c = well(dt, (5, 5))
    close(nt.linalg.cond(nt.asarray(c)), np.linalg.cond(c), tol(dt) * 10)
    ms = [make(dt, sh, seed=i) for i, sh in enumerate([(5, 9), (9, 2), (2, 7), (7,)])]
    close(nt.linalg.multi_dot([nt.asarray(m) for m in ms]), np.linalg.multi_dot(ms),
          tol(dt) * 10)


def test_int_and_bool_inputs():
    a = np.array([[2, 1], [1, 3]], dtype=np.int32)
    close(nt.linalg.inv(nt.asarray(a)), np.linalg.inv(a), 1e-12)
    b = np.array([[True, False], [True, True]])
    close(nt.linalg.det(nt.asarray(b)), np.linalg.det(b), 1e-12)
    close(nt.linalg.eigvalsh(nt.asarray(a)), np.linalg.eigvalsh(a), 1e-12)
    # mixed: float32 matrix, float64 rhs -> float64
    a32 = well(np.float32, (3, 3))
    close(nt.linalg.solve(nt.asarray(a32), nt.asarray(np.ones(3))),
          np.linalg.solve(a32, np.ones(3)), 1e-6)


def test_empty():
    for shape in [(0, 0), (3, 0, 0)]:
        a = np.zeros(shape)
        close(nt.linalg.inv(nt.asarray(a)), np.linalg.inv(a), 0)
        close(nt.linalg.det(nt.asarray(a)), np.linalg.det(a), 0)
        close(nt.linalg.eigvalsh(nt.asarray(a)), np.linalg.eigvalsh(a), 0)
    e = np.zeros((0, 4, 4))
    close(nt.linalg.inv(nt.asarray(e)), np.linalg.inv(e), 0)
    close(nt.linalg.det(nt.asarray(e)), np.linalg.det(e), 0)
    u, s, vh = nt.linalg.svd(nt.asarray(np.zeros((0, 3))))
    eu, es, evh = np.linalg.svd(np.zeros((0, 3)))
    close(u, eu, 0)
    close(s, es, 0)
    close(vh, evh, 0)
    close(nt.linalg.solve(nt.asarray(np.zeros((0, 0))), nt.asarray(np.zeros(0))),
          np.linalg.solve(np.zeros((0, 0)), np.zeros(0)), 0)


def test_errors():
    LinAlgError = np.linalg.LinAlgError
    assert nt.linalg.LinAlgError is LinAlgError
    sing = np.array([[1.0, 2.0], [2.0, 4.0]])
    with pytest.raises(LinAlgError, match='^Singular matrix$'):
        nt.linalg.inv(nt.asarray(sing))
    with pytest.raises(LinAlgError, match='^Singular matrix$'):
        nt.linalg.solve(nt.asarray(sing), nt.asarray(np.ones(2)))
    stack = well(np.float64, (30, 3, 3))
    stack[17] = 0
    with pytest.raises(LinAlgError, match='^Singular matrix$'):
        nt.linalg.inv(nt.asarray(stack))
    with pytest.raises(LinAlgError, match='^Matrix is not positive definite$'):
        nt.linalg.cholesky(nt.asarray(-np.eye(3)))
    with pytest.raises(LinAlgError, match='^Last 2 dimensions of the array must be square$'):
        nt.linalg.inv(nt.asarray(np.ones((2, 3))))
    with pytest.raises(LinAlgError, match='^Last 2 dimensions of the array must be square$'):
        nt.linalg.eigh(nt.asarray(np.ones((2, 3))))
    with pytest.raises(LinAlgError, match='^1-dimensional array given. Array must be at least '
                       'two-dimensional$'):
        nt.linalg.det(nt.asarray(np.ones(3)))
    with pytest.raises(LinAlgError, match='^1-dimensional array given'):
        nt.linalg.qr(nt.asarray(np.ones(3)))
    with pytest.raises(LinAlgError, match='^3-dimensional array given. Array must be '
                       'two-dimensional$'):
        nt.linalg.lstsq(nt.asarray(np.ones((2, 3, 3))), nt.asarray(np.ones(3)))
    with pytest.raises(LinAlgError, match='^Incompatible dimensions$'):
        nt.linalg.lstsq(nt.asarray(np.ones((3, 2))), nt.asarray(np.ones(4)))
    with pytest.raises(ValueError, match='^solve1: Input operand 1 has a mismatch'):
        nt.linalg.solve(nt.asarray(np.eye(3)), nt.asarray(np.ones(2)))
    with pytest.raises(ValueError, match=r'^solve: Input operand 1 has a mismatch .* \(size 2 '
                       r'is different from 3\)$'):
        nt.linalg.solve(nt.asarray(np.eye(3)), nt.asarray(np.ones((2, 2))))
    with pytest.raises(ValueError, match="^UPLO argument must be 'L' or 'U'$"):
        nt.linalg.eigh(nt.asarray(np.eye(2)), UPLO='X')
    with pytest.raises(ValueError, match="^Unrecognized mode 'foo'$"):
        nt.linalg.qr(nt.asarray(np.eye(2)), mode='foo')
    with pytest.raises(LinAlgError, match='^SVD did not converge$'):
        nt.linalg.svd(nt.asarray(np.array([[np.nan, 1.0], [1.0, 1.0]])))
    nan = np.array([[np.nan, 1.0], [1.0, 1.0]])
    with pytest.raises(LinAlgError, match='^Singular matrix$'):
        nt.linalg.inv(nt.asarray(nan))
    with pytest.raises(LinAlgError, match='^Array must not contain infs or NaNs$'):
        nt.linalg.eigvals(nt.asarray(nan))
    with pytest.raises(LinAlgError, match='^SVD did not converge in Linear Least Squares$'):
        nt.linalg.lstsq(nt.asarray(nan), nt.asarray(np.ones(2)))
    from ndtile import _core
    with pytest.raises(LinAlgError):
        _core._raise_status(-12)   # NDT_ERR_LINALG
    # the runtime is fine afterwards
    close(nt.linalg.inv(nt.asarray(np.eye(2) * 2)), np.linalg.inv(np.eye(2) * 2), 0)


def test_numpy_functions_dispatch():
    a = well(np.float64, (4, 4))
    x = nt.asarray(a)
    r = np.linalg.inv(x)
    assert isinstance(r, nt.ndarray)
    close(r, np.linalg.inv(a), 1e-12)
    w = np.linalg.eigvalsh(x)
    assert isinstance(w, nt.ndarray)


def test_same_bits_any_workers():
    from ndtile import _core
    a = well(np.float64, (64, 6, 6), seed=21)
    saved = _core.workers()
    try:
        res = []
        for w in (1, 3):
            _core.set_workers(w)
            x = nt.asarray(a)
            res.append((np.asarray(nt.linalg.inv(x)), np.asarray(nt.linalg.svd(x).S),
                        np.asarray(nt.linalg.eigvalsh(x))))
        for p, q in zip(*res):
            np.testing.assert_array_equal(p, q)
    finally:
        _core.set_workers(saved)


@pytest.mark.parametrize('dt', [np.int64, np.float32, np.complex128], ids=str)
def test_matrix_norms(dt):
    a = make(dt, (5, 4), seed=14, lo=-3, hi=3)
    s = make(dt, (6, 3, 4), seed=15, lo=-3, hi=3)
    x, y = nt.asarray(a), nt.asarray(s)
    for o in (None, 'fro', 'nuc', 1, -1, 2, -2, np.inf, -np.inf):
        close(nt.linalg.norm(x, o), np.linalg.norm(a, o), tol(dt))
        for ax in ((1, 2), (-1, 0), (2, 1)):
            for kd in (False, True):
                close(nt.linalg.norm(y, o, axis=ax, keepdims=kd),
                      np.linalg.norm(s, o, axis=ax, keepdims=kd), tol(dt))
    close(nt.linalg.matrix_norm(y, ord='nuc'), np.linalg.matrix_norm(s, ord='nuc'), tol(dt))
    with pytest.raises(ValueError, match='Invalid norm order for matrices.'):
        nt.linalg.norm(x, 3)
    with pytest.raises(ValueError, match='Duplicate axes given.'):
        nt.linalg.norm(y, axis=(1, 1))


def test_tensor_and_aliases():
    a = well(np.float64, (6, 6)).reshape(2, 3, 2, 3)
    b = make(np.float64, (2, 3), seed=16)
    close(nt.linalg.tensorsolve(nt.asarray(a), nt.asarray(b)), np.linalg.tensorsolve(a, b), 1e-10)
    close(nt.linalg.tensorinv(nt.asarray(a)), np.linalg.tensorinv(a), 1e-10)
    m, v = make(np.float64, (3, 4), seed=17), make(np.float64, (4,), seed=18)
    close(nt.linalg.matmul(nt.asarray(m), nt.asarray(v)), np.linalg.matmul(m, v), 1e-12)
    close(nt.linalg.matrix_transpose(nt.asarray(m)), np.linalg.matrix_transpose(m), 0)
    close(nt.linalg.outer(nt.asarray(v), nt.asarray(v)), np.linalg.outer(v, v), 0)


def test_array_api_aliases(monkeypatch):
    monkeypatch.setenv('NDTILE_FALLBACK', 'error')
    rng = np.random.default_rng(0)
    a = rng.standard_normal((5, 4, 3))
    b = rng.standard_normal((5, 4, 3))
    c = rng.standard_normal((4, 6, 6))
    x, y, z = nt.asarray(a), nt.asarray(b), nt.asarray(c)
    np.testing.assert_allclose(np.asarray(nt.linalg.cross(x, y)), np.linalg.cross(a, b),
                               rtol=1e-13)
    np.testing.assert_array_equal(np.asarray(nt.linalg.diagonal(z, offset=-1)),
                                  np.linalg.diagonal(c, offset=-1))
    np.testing.assert_allclose(np.asarray(nt.linalg.trace(z, offset=1)),
                               np.linalg.trace(c, offset=1), rtol=1e-13)
    np.testing.assert_allclose(np.asarray(nt.linalg.tensordot(x, y, axes=([1, 2], [1, 2]))),
                               np.linalg.tensordot(a, b, axes=([1, 2], [1, 2])), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(nt.linalg.vecdot(x, y)), np.linalg.vecdot(a, b),
                               rtol=1e-13)
    with pytest.raises(ValueError, match="3-dimensional vectors"):
        nt.linalg.cross(x[..., :2], y)


@pytest.mark.parametrize('dt', [np.float32, np.float64, np.complex128], ids=str)
@pytest.mark.parametrize('p', [None, 2, -2])
def test_cond_singular_is_inf(dt, p):
    # NumPy: cond of a singular matrix (all singular values 0: 0/0) is inf,
    # not nan, for every p; a stack mixes finite and infinite entries
    for a in (np.zeros((2, 2), dt), np.ones((3, 3), dt)):
        got, want = nt.linalg.cond(nt.asarray(a), p), np.linalg.cond(a, p)
        assert type(got) is type(want) and got.dtype == want.dtype
        assert not np.isnan(got)
        # ones((3, 3)): the smallest singular value is rounding noise (1e-49
        # in NumPy, another 1e-49 in ndtile's LAPACK call), so the condition
        # number is compared as "singular to working precision": beyond
        # 1/eps (p=-2: below eps) on both sides, or inf on both
        eps = np.finfo(dt).eps
        if p == -2:
            assert (want < eps) == (got < eps), (got, want)
        else:
            assert np.isinf(want) == np.isinf(got) and (want > 1 / eps) == (got > 1 / eps), \
                (got, want)
    s = make(dt, (4000, 3, 3), seed=3)      # 36000 elements: several tiles
    s[::7] = 0
    got, want = nt.linalg.cond(nt.asarray(s), p), np.linalg.cond(s, p)
    assert got.dtype == want.dtype and got.shape == want.shape
    g = np.asarray(got)
    np.testing.assert_array_equal(np.isinf(g), np.isinf(want))
    assert np.isinf(want[::7]).all() and not np.isnan(g).any()
    np.testing.assert_allclose(g[np.isfinite(want)], want[np.isfinite(want)],
                               rtol=tol(dt) * 100)


@pytest.mark.parametrize('dt', [np.int16, np.float32, np.float64, np.complex64], ids=str)
def test_vector_norm_of_numpy_scalar_orders(dt):
    # a NumPy integer or float order (np.int64(3), a 0-d array's item) is
    # the p-norm of that order, natively, as a Python number is; NumPy's
    # absx **= ord keeps absx's dtype for an np.int64 order
    a = make(dt, (7, 9), seed=31, lo=-3, hi=3)
    x = nt.asarray(a)
    for o in (np.int64(3), np.int32(-2), np.uint8(4), np.int8(0), np.int64(1), np.int64(2),
              np.float64(2.5), np.float32(-1.5), np.float64(np.inf), np.float32(-np.inf)):
        for ax in (None, 0, 1, -1):
            p, q = (a.ravel(), x.ravel()) if ax is None else (a, x)
            close(nt.linalg.norm(q, o, axis=ax), np.linalg.norm(p, o, axis=ax), tol(dt))
            close(nt.linalg.norm(x[::2, 1::3], o, axis=ax if ax is not None else 0),
                  np.linalg.norm(a[::2, 1::3], o, axis=ax if ax is not None else 0), tol(dt))
        close(nt.linalg.norm(x, o, axis=1, keepdims=True),
              np.linalg.norm(a, o, axis=1, keepdims=True), tol(dt))


def test_vector_norm_of_numpy_scalar_order_past_a_tile(default_settings):
    a = make(np.float64, (400_000,), seed=32, lo=-2, hi=2)
    close(nt.linalg.norm(nt.asarray(a), np.int64(3)), np.linalg.norm(a, np.int64(3)), 1e-12)


# A NaN on U's diagonal is no error (LAPACK's getrf reports exact zero
# pivots only): solve, inv, det give NumPy's NaNs, small and blocked (n >= 512).
def nan_pivot_check(n, dt):
    a = (np.eye(n) + .01).astype(dt)
    a[0, 0] = np.nan
    b = np.ones(n, dt)
    with np.errstate(invalid="ignore"):
        for got, want in ((nt.linalg.inv(nt.asarray(a)), np.linalg.inv(a)),
                          (nt.linalg.solve(nt.asarray(a), nt.asarray(b)), np.linalg.solve(a, b)),
                          (nt.linalg.matrix_power(nt.asarray(a), -1), np.linalg.inv(a)),
                          (nt.linalg.det(nt.asarray(a)), np.linalg.det(a))):
            got = np.asarray(got)
            assert got.dtype == want.dtype and got.shape == want.shape
            assert np.array_equal(np.isnan(got), np.isnan(want))


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.complex128, np.complex64])
def test_nan_pivot_gives_nans_not_singular(dt):
    for n in (1, 4, 40):
        nan_pivot_check(n, dt)


def test_nan_pivot_blocked_gives_nans(default_settings):
    nan_pivot_check(600, np.float64)


# Orders up to 16 of a real (float64-computed) solve or inv run gesv's
# algorithm written out per matrix; anything not all finite, or a pivot of
# rounding noise or zero, goes through LAPACK's gesv, as NumPy's does.
@pytest.mark.parametrize('dt', [np.int64, np.float32, np.float64], ids=str)
def test_small_orders_solve_inv(dt):
    for n in (1, 2, 3, 7, 8, 9, 16, 17):
        a = well(dt, (5, n, n), seed=n)
        x = nt.asarray(a)
        close(nt.linalg.inv(x), np.linalg.inv(a), tol(dt))
        close(nt.linalg.inv(nt.swapaxes(x, 1, 2)[::2]), np.linalg.inv(np.swapaxes(a, 1, 2)[::2]),
              tol(dt))
        for k in (1, 5, 16, 17):
            b = make(dt, (5, n, k), seed=k, lo=-3, hi=3)
            close(nt.linalg.solve(x, nt.asarray(b)), np.linalg.solve(a, b), tol(dt))
        b = make(dt, (n,), seed=3, lo=-3, hi=3)
        close(nt.linalg.solve(x[2], nt.asarray(b)), np.linalg.solve(a[2], b), tol(dt))


def test_small_orders_singular_nan_inf():
    s = well(np.float64, (6, 8, 8), seed=5)
    s[3, 2] = s[3, 5]                                # one singular matrix of the stack
    with pytest.raises(np.linalg.LinAlgError, match='^Singular matrix$'):
        nt.linalg.inv(nt.asarray(s))
    with pytest.raises(np.linalg.LinAlgError, match='^Singular matrix$'):
        nt.linalg.solve(nt.asarray(s), nt.asarray(np.ones((6, 8, 2))))
    for bad in (np.nan, np.inf):
        for where in ((0, 0), (3, 1), (7, 7)):
            a = well(np.float64, (3, 8, 8), seed=6)
            a[1][where] = bad
            b = np.ones((3, 8, 3))
            b[2, 4, 1] = bad
            with np.errstate(all='ignore'):
                for got, f in ((lambda: nt.linalg.inv(nt.asarray(a)), lambda: np.linalg.inv(a)),
                               (lambda: nt.linalg.solve(nt.asarray(a), nt.asarray(b)),
                                lambda: np.linalg.solve(a, b))):
                    g, e = np.asarray(got()), f()
                    assert np.array_equal(np.isnan(g), np.isnan(e))
                    ok = np.isfinite(e)
                    np.testing.assert_allclose(g[ok], e[ok], rtol=1e-10, atol=1e-12)
    for m in ([[np.nan, 1.0], [1.0, 1.0]], [[0.0, 1.0], [np.nan, 1.0]]):
        with pytest.raises(np.linalg.LinAlgError, match='^Singular matrix$'):
            nt.linalg.inv(nt.asarray(np.array(m)))
    m = np.array([[1.0, 1.0], [np.nan, 1.0]])
    with np.errstate(all='ignore'):
        g = np.asarray(nt.linalg.inv(nt.asarray(m)))
    assert np.array_equal(np.isnan(g), np.isnan(np.linalg.inv(m)))


# Integer matrices singular in exact arithmetic (last column = first + second):
# gesv's order of operations rounds a pivot to an exact zero (NumPy's
# "Singular matrix"), the written-out elimination left a pivot of rounding
# noise and returned garbage; such pivots now go to gesv.
SINGULAR_BY_ROUNDING = [[[-2, 0, -2, -2], [3, -2, 0, 1], [2, 1, 1, 3], [2, 0, -3, 2]],
                        [[2, -1, -1, 1], [3, -1, 1, 2], [1, 0, 1, 1], [1, 3, -2, 4]],
                        [[-1, -2, -3, -3], [2, -3, -1, -1], [3, -2, -3, 1], [-3, -1, 0, -4]]]


@pytest.mark.parametrize('dt', [np.int64, np.float64], ids=str)
@pytest.mark.parametrize('m', SINGULAR_BY_ROUNDING)
def test_small_orders_singular_by_rounding(m, dt):
    a = np.array(m, dtype=dt)
    b = np.ones((4, 2))
    for f in (lambda lib, x: lib.linalg.inv(x), lambda lib, x: lib.linalg.solve(x, lib.asarray(b))):
        with pytest.raises(np.linalg.LinAlgError, match='^Singular matrix$'):
            f(np, a)
        with pytest.raises(np.linalg.LinAlgError, match='^Singular matrix$'):
            f(nt, nt.asarray(a))


def test_small_orders_stack_past_a_tile_same_bits_any_workers(default_settings):
    a = well(np.float64, (6000, 8, 8), seed=7)       # 3 MB
    b = make(np.float64, (6000, 8, 3), seed=8, lo=-3, hi=3)
    saved = _core.workers()
    try:
        res = []
        for w in (1, 3):
            _core.set_workers(w)
            x = nt.asarray(a)
            res.append((np.asarray(nt.linalg.inv(x)), np.asarray(nt.linalg.solve(x, nt.asarray(b)))))
        for p, q in zip(*res):
            np.testing.assert_array_equal(p, q)
        close(nt.asarray(res[0][0]), np.linalg.inv(a), 1e-12)
        close(nt.asarray(res[0][1]), np.linalg.solve(a, b), 1e-12)
    finally:
        _core.set_workers(saved)
