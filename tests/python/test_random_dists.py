"""The distributions ndtile.random builds from its core draws (Cauchy, t,
chi-square, F, beta, lognormal, Laplace, logistic, Gumbel, Rayleigh,
Weibull, Pareto, power, triangular, Wald, geometric): the values follow the
distribution (a two-sample Kolmogorov-Smirnov test against NumPy's sampler,
fixed seeds), result types and shapes are NumPy's, array parameters
broadcast, bad parameters raise NumPy's errors, and nothing falls back."""
import warnings

import numpy as np
import pytest

import ndtile as nt
import ndtile.random as NTR

N = 20000

DISTS = [
    ('standard_cauchy', ()), ('standard_t', (3.0,)), ('standard_t', (0.7,)),
    ('chisquare', (2.5,)), ('chisquare', (0.3,)), ('f', (3.0, 7.0)), ('beta', (2.0, 3.0)),
    ('beta', (0.05, 0.5)), ('beta', (1e-3, 2.0)), ('lognormal', (0.5, 0.7)),
    ('laplace', (1.0, 2.0)), ('logistic', (-1.0, 0.5)), ('gumbel', (1.0, 2.0)),
    ('rayleigh', (2.0,)), ('weibull', (1.5,)), ('weibull', (0.3,)), ('pareto', (3.0,)),
    ('power', (2.0,)), ('power', (0.4,)), ('triangular', (0.0, 1.0, 3.0)),
    ('triangular', (0.0, 0.0, 1.0)), ('wald', (1.0, 2.0)), ('wald', (3.0, 0.5)),
    ('geometric', (0.3,)), ('geometric', (1.0,)), ('geometric', (1e-3,)),
]


@pytest.fixture(autouse=True)
def native_only(monkeypatch):
    monkeypatch.setenv('NDTILE_FALLBACK', 'error')


def ks_statistic(x, y):
    x, y = np.sort(x), np.sort(y)
    grid = np.concatenate([x, y])
    fx = np.searchsorted(x, grid, side='right') / x.size
    fy = np.searchsorted(y, grid, side='right') / y.size
    return np.abs(fx - fy).max()


@pytest.mark.parametrize('name, args', DISTS)
def test_distribution_matches_numpy(name, args):
    mine = np.asarray(getattr(NTR.default_rng(11), name)(*args, size=N))
    theirs = getattr(np.random.default_rng(12), name)(*args, size=N)
    assert mine.dtype == theirs.dtype and mine.shape == (N,)
    assert np.isfinite(mine).all() or name == 'standard_cauchy'
    # alpha = 1e-6: c(alpha) * sqrt(2 / N)
    assert ks_statistic(mine, theirs) < 2.7 * np.sqrt(2.0 / N), name


@pytest.mark.parametrize('name, args', DISTS[:8] + DISTS[-4:])
def test_legacy_and_types(name, args):
    NTR.seed(3)
    a = getattr(NTR, name)(*args, size=(30, 40))
    NTR.seed(3)
    b = getattr(NTR, name)(*args, size=(30, 40))
    exp = getattr(np.random, name)(*args, size=(30, 40))
    assert isinstance(a, nt.ndarray) and a.shape == (30, 40) and a.dtype == exp.dtype
    assert np.array_equal(np.asarray(a), np.asarray(b))
    one = getattr(NTR.default_rng(0), name)(*args)
    ref = getattr(np.random.default_rng(0), name)(*args)
    assert type(one) is type(ref)
    # the same seed gives the same values for any tile size
    g1 = np.asarray(getattr(NTR.default_rng(5), name)(*args, size=3000))
    g2 = np.asarray(getattr(NTR.default_rng(5), name)(*args, size=3000))
    assert np.array_equal(g1, g2, equal_nan=True)


@pytest.mark.parametrize('name, args', [
    ('lognormal', ([0.0, 1.0, 2.0], 0.5)), ('laplace', (0.0, [1.0, 2.0, 3.0])),
    ('logistic', ([[0.0], [10.0]], [1.0, 2.0, 3.0])), ('gumbel', (5.0, [1.0, 0.0, 2.0])),
    ('rayleigh', ([1.0, 2.0, 3.0],)), ('weibull', ([0.0, 1.0, 2.0],)),
    ('pareto', ([1.0, 2.0, 3.0],)), ('power', ([1.0, 2.0, 3.0],)),
    ('triangular', (0.0, [0.0, 0.5, 1.0], 1.0)), ('wald', ([1.0, 2.0, 3.0], 1.0)),
    ('geometric', ([0.5, 1.0, 0.1],))])
def test_array_parameters(name, args):
    mine = getattr(NTR.default_rng(1), name)(*args)
    exp = getattr(np.random.default_rng(1), name)(*args)
    assert isinstance(mine, nt.ndarray)
    assert mine.shape == exp.shape and mine.dtype == exp.dtype
    big = getattr(NTR.default_rng(1), name)(*args, size=(4000,) + exp.shape)
    m = np.asarray(big)
    assert m.shape == (4000,) + exp.shape
    # each column follows its own parameters: compare with NumPy's column
    ref = getattr(np.random.default_rng(2), name)(*args, size=(4000,) + exp.shape)
    for j in np.ndindex(exp.shape):
        col = (slice(None),) + j
        if np.ptp(ref[col]) == 0:
            assert np.array_equal(m[col], ref[col])
        else:
            assert ks_statistic(m[col], ref[col]) < 2.7 * np.sqrt(2.0 / 4000), (name, j)


ERRORS = [
    "g.standard_t(0)", "g.standard_t(-1)", "g.standard_t(-0.0)", "g.chisquare(0)",
    "g.f(0, 1)", "g.f(1, -1)", "g.beta(0, 1)", "g.beta(1, -1)", "g.lognormal(0, -1)",
    "g.laplace(0, -1)", "g.laplace(0, [1, -1])", "g.logistic(0, -0.0)", "g.gumbel(0, -2)",
    "g.rayleigh(-1)", "g.weibull(-1)", "g.pareto(0)", "g.pareto([1, 0])", "g.power(0)",
    "g.power(-1)", "g.triangular(2, 1, 3)", "g.triangular(0, 4, 3)", "g.triangular(1, 1, 1)",
    "g.triangular([0, 2], 1, 3)", "g.wald(0, 1)", "g.wald(1, 0)", "g.geometric(0)",
    "g.geometric(1.5)", "g.geometric(np.nan)", "g.geometric([0.5, 0])",
    "g.rayleigh(1, size=-1)", "g.laplace(np.zeros(3), 1, size=(2,))",
]


def assert_error_as_numpy(expr):
    """expr (with g a Generator) raises NumPy's exception and message."""
    def err(env):
        try:
            eval(expr, env)
        except Exception as e:
            return type(e), str(e)
        return None
    theirs = err({'np': np, 'g': np.random.default_rng(0)})
    mine = err({'np': np, 'g': NTR.default_rng(0)})
    assert theirs is not None
    assert mine == theirs, expr


@pytest.mark.parametrize('expr', ERRORS)
def test_errors_as_numpy(expr):
    assert_error_as_numpy(expr)


# ---- a parameter per element ---------------------------------------------------------

@pytest.mark.parametrize('name, scalar, array', [
    ('gamma', (0.5,), (np.full(3000, 0.5),)), ('gamma', (3.5, 2.0), (np.full(3000, 3.5), 2.0)),
    ('standard_gamma', (0.2,), (np.full(3000, 0.2),)), ('poisson', (3.0,), (np.full(3000, 3.0),)),
    ('poisson', (40.0,), (np.full(3000, 40.0),)),
    ('binomial', (10, 0.3), (np.full(3000, 10), 0.3)),
    ('binomial', (100, 0.7), (100, np.full(3000, 0.7)))])
def test_array_parameters_have_the_scalar_bits(name, scalar, array):
    a = getattr(NTR.default_rng(9), name)(*scalar, size=3000)
    b = getattr(NTR.default_rng(9), name)(*[nt.asarray(x) if isinstance(x, np.ndarray) else x
                                            for x in array])
    assert np.array_equal(np.asarray(a), np.asarray(b))
    assert a.dtype == b.dtype


@pytest.mark.parametrize('name, args', [
    ('gamma', ([0.3, 1.0, 4.0], [1.0, 2.0, 0.5])), ('standard_gamma', ([0.05, 2.0, 9.0],)),
    ('poisson', ([0.0, 2.0, 25.0, 1e5],)), ('binomial', ([5, 50, 2000], [0.5, 0.05, 0.9])),
    ('binomial', ([0, 7, 30], 1.0)), ('negative_binomial', ([1.0, 3.0, 0.5], [0.4, 0.9, 1.0])),
    ('chisquare', ([0.5, 3.0],)), ('standard_t', ([0.8, 5.0],)), ('f', ([2.0, 5.0], 7.0)),
    ('beta', ([0.05, 2.0], [0.5, 3.0])), ('noncentral_chisquare', ([0.5, 3.0], [0.0, 4.0])),
    ('noncentral_f', (3.0, [5.0, 20.0], [0.0, 2.0]))])
def test_array_parameter_distributions(name, args):
    k = np.broadcast_shapes(*[np.shape(a) for a in args])[0]
    m = np.asarray(getattr(NTR.default_rng(4), name)(*args, size=(6000, k)))
    ref = getattr(np.random.default_rng(5), name)(*args, size=(6000, k))
    assert m.dtype == ref.dtype and m.shape == ref.shape
    for j in range(ref.shape[1]):
        if np.ptp(ref[:, j]) == 0:
            assert np.array_equal(m[:, j], ref[:, j]), (name, j)
        else:
            assert ks_statistic(m[:, j], ref[:, j]) < 2.7 * np.sqrt(2.0 / 6000), (name, j)
    # types without size: an array for array parameters, a scalar otherwise
    r = getattr(NTR.default_rng(4), name)(*args)
    assert isinstance(r, nt.ndarray) and r.shape == (k,)


@pytest.mark.parametrize('alpha', [[1.0, 2.0, 3.0], [0.02, 0.5, 0.01], [5.0]])
def test_dirichlet(alpha):
    m = np.asarray(NTR.default_rng(2).dirichlet(alpha, size=8000))
    ref = np.random.default_rng(3).dirichlet(alpha, size=8000)
    assert m.shape == ref.shape and m.dtype == ref.dtype
    assert np.allclose(m.sum(-1), 1.0)
    for j in range(len(alpha) if len(alpha) > 1 else 0):
        assert ks_statistic(m[:, j], ref[:, j]) < 2.7 * np.sqrt(2.0 / 8000)
    assert NTR.default_rng(2).dirichlet(alpha).shape == (len(alpha),)


PARAM_ERRORS = [
    "g.gamma([1, -1])", "g.gamma([1, 2], [1, -0.0])", "g.standard_gamma([-1, 1])",
    "g.poisson([1, -1])", "g.poisson([1, np.nan])", "g.poisson([1, 1e19])",
    "g.binomial([5, -1], 0.5)", "g.binomial(5, [0.5, 1.5])", "g.binomial([5, 5], [0.5, np.nan])",
    "g.negative_binomial(0, 0.5)", "g.negative_binomial(1, 0)", "g.negative_binomial([1, 1], [0.5, 1.5])",
    "g.noncentral_chisquare(0, 1)", "g.noncentral_chisquare(1, -1)", "g.noncentral_f(1, 1, -1)",
    "g.dirichlet([1, -1])", "g.dirichlet([[1, 2]])",
    "g.gamma(np.ones(3), size=(2,))", "g.poisson(np.ones(3), size=(2, 2))",
]


@pytest.mark.parametrize('expr', PARAM_ERRORS)
def test_parameter_errors_as_numpy(expr):
    assert_error_as_numpy(expr)


@pytest.mark.parametrize('n, pvals, size', [
    (100, [0.2, 0.3, 0.5], (20000,)), (7, [0.0, 1.0], (50,)), ([5, 60], [[0.2, 0.8], [0.5, 0.5]], None),
    (1000, [0.9, 0.05, 0.05, 0.0], (3000,)), (0, [0.5, 0.5], (3,))])
def test_multinomial(n, pvals, size):
    m = NTR.default_rng(1).multinomial(n, pvals, size=size)
    ref = np.random.default_rng(1).multinomial(n, pvals, size=size)
    assert isinstance(m, nt.ndarray)
    m = np.asarray(m)
    assert m.shape == ref.shape and m.dtype == ref.dtype
    assert np.array_equal(m.sum(-1), np.broadcast_to(n, m.shape[:-1]))
    assert (m >= 0).all()
    if size and size[0] >= 3000:
        p = np.asarray(pvals)
        mean = m.mean(0)
        sd = np.sqrt(n * p * (1 - p) / size[0])
        assert np.all(np.abs(mean - n * p) <= 5 * sd + 1e-12)
    zero = np.asarray(pvals) == 0
    assert (m[..., zero] == 0).all()


def test_multivariate_normal():
    mean, cov = [1.0, -2.0, 0.5], [[2.0, 0.5, 0.0], [0.5, 1.0, 0.3], [0.0, 0.3, 0.5]]
    for method in ('svd', 'eigh', 'cholesky'):
        x = NTR.default_rng(3).multivariate_normal(mean, cov, size=(400, 100), method=method)
        assert isinstance(x, nt.ndarray) and x.shape == (400, 100, 3)
        a = np.asarray(x).reshape(-1, 3)
        assert np.allclose(a.mean(0), mean, atol=0.05)
        assert np.allclose(np.cov(a.T), cov, atol=0.05)
    assert NTR.default_rng(0).multivariate_normal(mean, cov).shape == (3,)
    with pytest.warns(RuntimeWarning, match="positive-semidefinite"):
        NTR.default_rng(0).multivariate_normal([0, 0], [[1, 2], [2, 1]])


def test_bytes_and_random_integers():
    b = NTR.default_rng(0).bytes(4000)
    assert isinstance(b, bytes) and len(b) == 4000 and len(set(b)) > 200
    assert NTR.default_rng(0).bytes(10) == NTR.default_rng(0).bytes(10)
    with pytest.warns(DeprecationWarning, match=r"randint\(1, 6 \+ 1\)"):
        r = NTR.random_integers(6, size=6000)
    r = np.asarray(r)
    assert r.min() == 1 and r.max() == 6
    with pytest.warns(DeprecationWarning):
        assert NTR.RandomState(0).random_integers(-2, -2) == -2


MORE_ERRORS = [
    "g.multinomial(-1, [0.5, 0.5])", "g.multinomial(5, [0.5, 0.6, 0.1])",
    "g.multinomial(5, [-0.1, 1.1])", "g.multinomial(5, [np.nan, 1])", "g.multinomial(5, 0.5)",
    "g.multinomial(5, [])", "g.multivariate_normal([0, 0], [[1, 2], [2, 1]], check_valid='raise')",
    "g.multivariate_normal([0, 0], [[1, 0], [0, 1]], check_valid='x')",
    "g.multivariate_normal([[0, 0]], [[1, 0], [0, 1]])", "g.multivariate_normal([0, 0], [1, 1])",
    "g.multivariate_normal([0, 0, 0], [[1, 0], [0, 1]])",
]


@pytest.mark.parametrize('expr', MORE_ERRORS)
def test_more_errors_as_numpy(expr):
    test_parameter_errors_as_numpy(expr)


_F32_PVALS = [0.99, 0.99] + [1e-9] * 8      # over 1 once cast to float64, not in float32


@pytest.mark.parametrize('mod', ['np', 'nt'])
@pytest.mark.parametrize('legacy', [False, True])
@pytest.mark.parametrize('expr', [
    "g.multinomial(1, (lambda a: a / a.sum())(m.array(P, dtype=m.float32)))",
    "g.multinomial(1, (lambda a: a / a.sum())(m.array(P, dtype=m.float32)).astype(m.float64))",
    "g.multinomial(1, m.array([[0.7, 0.5, 0.0], [0.2, 0.2, 0.6]], dtype=m.float32))",
    "g.multinomial(1, m.array([[0.7, 0.5, 0.0], [0.2, 0.2, 0.6]]))",
    "g.multinomial(1, [0.7, 0.5, 0.0])",
    "g.multinomial(5, 0.5)", "g.multinomial(m.array([10]), [0.5, 0.5])",
    "g.multinomial([10, 10], [0.5, 0.5], size=(3,))", "g.multinomial(-1, [])",
    "g.multinomial([10, 10], [[0.5, 0.5]] * 3)", "g.multinomial([[10], [10]], [0.5, 0.5], size=(3,))",
    "g.multinomial([[10], [10]], [0.5, 0.5], size=(2, 1))",
])
def test_multinomial_errors_as_numpy(expr, legacy, mod):
    # NumPy's messages: "[...,:-1]" for pvals of more than one dimension, and
    # its note on the cast of a float32 array of pvals; RandomState's pvals
    # are one 1-d sequence and its n one integer (ndtile's broadcast both)
    def err(m, g):
        try:
            eval(expr, {'m': m, 'g': g, 'P': _F32_PVALS})
        except Exception as e:
            return type(e), str(e)
        return None
    rng = (lambda r: r.RandomState(0)) if legacy else (lambda r: r.default_rng(0))
    theirs = err(np, rng(np.random))
    mine = err(nt if mod == 'nt' else np, rng(NTR))
    assert mine == theirs


@pytest.mark.parametrize('legacy', [False, True])
@pytest.mark.parametrize('n, pvals, size', [
    (10, [0.25] * 4, None), (np.int64(10), [0.5, 0.5], None), (np.array(10), [0.5, 0.5], None),
    (10.7, [0.5, 0.5], None), (10, [0.5, 0.5], ()), (10, [0.5, 0.5], 3), (10, [0.3, 0.7], (2, 3)),
    (0, [1.0], None), (10, [], None), (10, [], (2, 3))])
def test_multinomial_shapes_as_numpy(n, pvals, size, legacy):
    # a scalar n with 1-d pvals draws one (k,) sample: ndtile's was (1, k)
    # (np.ascontiguousarray made its 0-d n 1-d); and RandomState draws
    # nothing from empty pvals, as NumPy's legacy one does
    if not legacy and len(pvals) == 0:
        pytest.skip("Generator raises for empty pvals (test_more_errors_as_numpy)")
    def draw(r, conv):
        g = r.RandomState(0) if legacy else r.default_rng(0)
        return g.multinomial(conv(n), conv(pvals), size=size)
    for conv in (lambda x: x, lambda x: nt.asarray(x) if isinstance(x, (list, np.ndarray)) else x):
        m = draw(NTR, conv)
        ref = draw(np.random, lambda x: x)
        assert isinstance(m, nt.ndarray)
        assert m.shape == ref.shape and m.dtype == ref.dtype
        assert np.array_equal(np.asarray(m).sum(-1), np.broadcast_to(int(n) if pvals else 0,
                                                                      ref.shape[:-1]))
    if not legacy:
        g = NTR.default_rng(0)
        ref = np.random.default_rng(0).multinomial(n, pvals, size=size)
        assert nt.random.default_rng(0).multinomial(n, nt.asarray(pvals), size=size).shape == \
            ref.shape
        assert g.multinomial(nt.asarray(n), pvals, size=size).shape == ref.shape


_OUTS = ["m.empty((2, 3), order='F', dtype=d)", "m.empty((2, 6), dtype=d)[:, ::2]",
         "m.empty((3, 2), dtype=d).T", "m.empty((2, 3), dtype=d)", "m.empty((2, 3), dtype=m.int64)",
         "m.empty((3, 3), dtype=d)[::2]", "m.empty((0, 3), dtype=d)", "m.empty((), dtype=d)",
         "[1.0]", "(lambda a: (a.setflags(write=False), a)[1])(m.empty((2, 3), dtype=d))"]


@pytest.mark.parametrize('dtype', ['float64', 'float32'])
@pytest.mark.parametrize('out', _OUTS)
@pytest.mark.parametrize('call', [
    "g.random(out=o, dtype=d)", "g.standard_normal(out=o, dtype=d)",
    "g.standard_exponential(out=o, dtype=d)", "g.standard_gamma(2.0, out=o, dtype=d)",
    "g.standard_gamma(m.array([1.0, 2.0, 3.0]), out=o, dtype=d)",
    "g.random(size=(2, 3), out=o, dtype=d)", "g.random(size=(3, 2), out=o, dtype=d)"])
def test_generator_out_checks_as_numpy(call, out, dtype, monkeypatch):
    # NumPy's checks of out= and their order: contiguous (C or F; C only for
    # standard_gamma), writable, then the dtype, then size; ndtile took
    # strided and (for standard_gamma) Fortran-ordered outs, and checked
    # size first. (standard_gamma of an array shape with out= falls back to
    # NumPy, on a gathered copy: the checks are on the caller's array)
    monkeypatch.setenv('NDTILE_FALLBACK', 'ignore')

    def run(m, rng):
        env = {'m': m, 'd': getattr(m, dtype), 'g': rng.default_rng(0)}
        try:
            env['o'] = eval(out, env)
        except ValueError:           # a read-only ndtile array this way
            pytest.skip("setflags(write=False)")
        try:
            r = eval(call, env)
        except Exception as e:
            return type(e), str(e)
        return r is env['o'], tuple(r.shape), r.dtype
    assert run(nt, NTR) == run(np, np.random)


@pytest.mark.parametrize('legacy', [False, True])
@pytest.mark.parametrize('expr', [
    "f(0, -10, size=0)", "f(0, 0, (3, 0, 4))", "f(10, 10, size=0)", "f(5, 0, size=(2, 0), dtype=m.int8)",
    "f(0, 300, size=0, dtype=m.uint8)", "f(0, -10, size=0, dtype=m.float64)",
    "f(0, 200, size=10, dtype='>i4')", "f(0, 200, dtype='>i8')", "f(0, 2, size=3, dtype='>f8')",
])
def test_integers_empty_sizes_and_byteorder_as_numpy(expr, legacy):
    # NumPy returns an empty draw before it checks the bounds (ndtile raised
    # 'high <= 0'); a non-native dtype is Generator's ValueError and
    # RandomState's DeprecationWarning (then the native dtype), not ndtile's
    # TypeError "Unsupported dtype"
    def run(m, r):
        g = r.RandomState(0) if legacy else r.default_rng(0)
        f = g.randint if legacy else g.integers
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            try:
                x = eval(expr, {'m': m, 'f': f})
                res = (np.shape(x), np.asarray(x).dtype, type(x) in (nt.ndarray, np.ndarray))
            except Exception as e:
                res = (type(e), str(e))
        return res, [(x.category, str(x.message)) for x in w]
    assert run(nt, NTR) == run(np, np.random)


@pytest.mark.parametrize('call', [
    "g.noncentral_chisquare(3.0, m.nan)", "g.noncentral_chisquare(3.0, m.nan, size=4)",
    "g.noncentral_chisquare(m.array([0.5, 3.0, 3.0]), m.array([m.nan, 1.0, 0.0]))",
    "g.noncentral_f(5, 2, m.nan)", "g.noncentral_f(5, 2, m.nan, size=(2, 2))",
    "g.noncentral_f(5, m.array([2.0, 3.0]), m.array([1.0, m.nan]))",
    "g.dirichlet([0.0, 0.0, 0.0])", "g.dirichlet(m.array([0.0]), size=3)",
    "g.dirichlet([0.0, 1.0, 0.0, 0.0])", "g.dirichlet([0.5, 0, 0, 2.0, 0], size=5)",
    "g.dirichlet([1, 5, 0, 0, 1.5, 0, 0, 0])", "g.dirichlet([m.nan, 1.0])"])
def test_nan_noncentrality_and_zero_alphas_as_numpy(call):
    # NaN nonc gives NaN draws, as NumPy's (ndtile raised the Poisson's
    # "lam < 0 or lam is NaN"); dirichlet of all-zero alpha is zeros (ndtile
    # 0/0: NaN), and zero alphas give zeros without a divide-by-zero warning
    def run(m, r):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            x = np.asarray(eval(call, {'m': m, 'g': r.default_rng(0)}))
        return x.shape, x.dtype, np.isnan(x), x == 0
    (s1, d1, n1, z1), (s2, d2, n2, z2) = run(nt, NTR), run(np, np.random)
    assert (s1, d1) == (s2, d2)
    assert np.array_equal(n1, n2) and np.array_equal(z1, z2)


@pytest.mark.parametrize('make', [lambda r: r.default_rng(0), lambda r: r.RandomState(0)])
def test_methods_compare_as_numpy_methods(make, monkeypatch):
    # a sampler ndtile runs through NumPy (zipf, logseries, ...) was a new
    # function at every access, so g.zipf != g.zipf and NumPy's own test
    # `func in (random.geometric, random.logseries)` took the other branch;
    # bound methods compare equal for the same generator, as NumPy's do
    monkeypatch.setenv('NDTILE_FALLBACK', 'ignore')
    for mod in (NTR, np.random):
        g, h = make(mod), make(mod)
        names = [n for n in ('zipf', 'logseries', 'geometric', 'hypergeometric', 'normal')
                 if hasattr(g, n)]
        assert all(getattr(g, n) == getattr(g, n) for n in names)
        assert all(getattr(g, n) != getattr(h, n) for n in names)
        assert g.zipf in (g.logseries, g.zipf) and g.zipf not in (g.logseries, h.zipf)
        assert g.zipf.__name__ == 'zipf' and g.zipf.__self__ is g
        assert np.shape(g.zipf(np.array([2.0]))) == (1,)


@pytest.mark.parametrize('replace', [True, False])
@pytest.mark.parametrize('legacy', [False, True])
def test_choice_of_a_numpy_array_size_empty_tuple_as_numpy(replace, legacy):
    # choice(a, ()) of a NumPy array (object, strings: dtypes ndtile keeps
    # as NumPy arrays) is NumPy's 0-d array of a's dtype holding the element:
    # ndtile made np.asarray(element), an array of the element's own
    # (a 1-d int array, or '<U1')
    inner = np.array([1, 2])
    obj = np.empty(1, dtype=object)
    obj[0] = inner
    for a in (obj, np.array(['a']), np.array([b'x']), np.array([None])):
        rs = [(r.RandomState(0) if legacy else r.default_rng(0)).choice(a, (), replace=replace)
              for r in (NTR, np.random)]
        for r in rs:
            assert type(r) is np.ndarray and r.shape == () and r.dtype == a.dtype
        assert rs[0].item() is a[0] if a.dtype == object else rs[0].item() == a[0]
    r = NTR.default_rng(0).choice(nt.array([5, 6]), (), replace=replace)
    assert type(r) is nt.ndarray and r.shape == () and r.dtype == np.int64


@pytest.mark.parametrize('cls', ['MT19937', 'PCG64', 'Philox', 'SFC64', 'PCG64DXSM'])
def test_generator_of_a_bit_generator_class_raises_as_numpy(cls):
    # NumPy's ValueError for the class rather than an instance (ndtile took
    # it for a seed: SeedSequence's TypeError)
    errs = []
    for r in (NTR, np.random):
        with pytest.raises(ValueError) as e:
            r.Generator(getattr(r, cls))
        errs.append(str(e.value))
    assert errs[0] == errs[1]


@pytest.mark.parametrize('make', [lambda r: r.default_rng(0), lambda r: r.RandomState(0),
                                  lambda r: r])
def test_shuffle_of_a_non_sequence_warns_as_numpy(make):
    # NumPy warns that a dict (any non-Sequence) may not shuffle correctly,
    # naming the caller's line; a list does not warn
    for mod in (NTR, np.random):
        values = {i: i for i in range(7)}
        with pytest.warns(UserWarning, match="you are shuffling a 'dict' object") as rec:
            make(mod).shuffle(values)
        assert len(rec) == 1 and rec[0].filename == __file__
        assert sorted(values.values()) == list(range(7))
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            make(mod).shuffle([1, 2, 3])


def test_wald_large_mean_is_nonnegative():
    # NumPy 2.3.4's Generator formula (gh-29609): the old one cancels for a
    # mean far above the scale and gave negative samples (NumPy's
    # test_wald_nonnegative); no floating-point warning for a tiny mean
    g = nt.random.default_rng(12345)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        s = np.asarray(g.wald(mean=1e9, scale=2.25, size=20000))
        t = np.asarray(g.wald(mean=1e-320, scale=1.0, size=100))
    assert s.dtype == np.float64 and s.shape == (20000,)
    assert (s >= 0).all() and np.isfinite(s).all()
    assert (t >= 0).all()
    # the distribution's mean and variance (mean**3 / scale) at a moderate mean
    w = np.asarray(g.wald(mean=2.0, scale=1.5, size=400000))
    assert abs(w.mean() - 2.0) < 0.02
    assert abs(w.var() - 8.0 / 1.5) / (8.0 / 1.5) < 0.05
