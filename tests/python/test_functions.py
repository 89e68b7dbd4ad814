"""NumPy's smaller library functions (python/ndtile/_function_base.py, _polynomial.py, _window.py, ...) against
NumPy: values, dtype and shape, many tiles (4096-byte tiles in tests),
strided views, 0-d / empty inputs and NumPy's errors. Every call runs with
NDTILE_FALLBACK=error, so a silent fallback to NumPy fails the test."""
import warnings

import numpy as np
import pytest

import ndtile as nt
from _helpers import make, assert_same, check_same_error


pytestmark = pytest.mark.usefixtures("native_only")


def check(fn, *args, rtol=0, **kw):
    """fn on NumPy inputs and on the same inputs as ndtile arrays."""
    exp = fn(np, *args, **kw)
    got = fn(nt, *[nt.asarray(a) if isinstance(a, np.ndarray) else a for a in args], **kw)
    if isinstance(exp, tuple):
        assert isinstance(got, tuple) and len(got) == len(exp)
        for g, e in zip(got, exp):
            assert_same(g, e, rtol=rtol)
    else:
        assert_same(got, exp, rtol=rtol)


def raises_like(fn, *args, **kw):
    """The same exception type (and message) from NumPy and ndtile."""
    with pytest.raises(Exception) as en:
        fn(np, *args, **kw)
    with pytest.raises(type(en.value)) as eg:
        fn(nt, *[nt.asarray(a) if isinstance(a, np.ndarray) else a for a in args], **kw)
    assert str(eg.value) == str(en.value)


BIG = make(np.float64, (1500,))         # many tiles
M = make(np.int32, (33, 47))


@pytest.mark.parametrize('x, v, axis', [
    (BIG, np.arange(5.0), None), (M, M[:2], 0), (M, M[:, :3], 1), (M, [1, 2], None),
    (np.float32(3), 2, None), (np.zeros((0, 3)), np.ones((2, 3)), 0)])
def test_append(x, v, axis):
    check(lambda m, a: m.append(a, v, axis=axis), x)


@pytest.mark.parametrize('obj', [0, -1, [0, 5, 5, 1400], slice(10, 800, 7), slice(None),
                                 np.array([], dtype=np.int64), []])
def test_delete_1d(obj):
    check(lambda m, a: m.delete(a, obj), BIG)


@pytest.mark.parametrize('obj, axis', [(3, 0), ([0, 2, 46], 1), (slice(None, None, -3), 1),
                                       (np.arange(33) % 3 == 0, 0), (7, None)])
def test_delete_nd(obj, axis):
    check(lambda m, a: m.delete(a, obj, axis=axis), M)
    check(lambda m, a: m.delete(a, obj, axis=axis), M[::-1, ::-1])


def test_delete_errors():
    raises_like(lambda m, a: m.delete(a, 1500), BIG)
    raises_like(lambda m, a: m.delete(a, [0.5]), BIG)
    raises_like(lambda m, a: m.delete(a, 0, axis=2), M)


@pytest.mark.parametrize('obj, vals', [(0, 9.0), (1500, [1.0, 2.0]), (-3, 7), ([0, 0, 3], 5.5),
                                       ([7, 2, 7, 1499], [1.0, 2.0, 3.0, 4.0]),
                                       (slice(0, 10, 4), -1.0), ([], [])])
def test_insert_1d(obj, vals):
    check(lambda m, a: m.insert(a, obj, vals), BIG)


@pytest.mark.parametrize('obj, vals, axis', [(1, 0, 0), (2, M[:, 0], 1), ([1, 30], 5, 0),
                                             ([0, 46, 47], M[:, :3], 1), (4, [1, 2], None)])
def test_insert_nd(obj, vals, axis):
    check(lambda m, a: m.insert(a, obj, vals, axis=axis), M)


def test_insert_errors():
    raises_like(lambda m, a: m.insert(a, 1501, 1.0), BIG)
    raises_like(lambda m, a: m.insert(a, [0.5], 1.0), BIG)


@pytest.mark.parametrize("big", [False, pytest.param(True, marks=pytest.mark.default_settings)])
def test_delete_insert_keep_fortran_order(big):
    # NumPy's delete and insert make a Fortran-ordered array's result
    # Fortran-ordered (lib/tests/test_function_base.py TestDelete
    # test_array_order_preserve); ndtile's were C-ordered
    shape = (700, 600) if big else (6, 7)
    for dt in (np.float64, np.int16, np.complex128, np.bool_):
        a = np.asfortranarray(make(dt, shape))
        a3 = np.asfortranarray(make(dt, (4,) + shape[1:]))[:, None]      # (4, 1, n), F
        x, x3 = nt.asarray(a), nt.asarray(a3)
        assert x.flags.f_contiguous and not x.flags.c_contiguous
        cases = [(a, x, lambda m, v: m.delete(v, 1, axis=0)),
                 (a, x, lambda m, v: m.delete(v, slice(1, None, 3), axis=1)),
                 (a, x, lambda m, v: m.delete(v, slice(60, None), axis=1)),
                 (a3, x3, lambda m, v: m.delete(v, -1, axis=2)),
                 (a, x, lambda m, v: m.insert(v, 2, 1, axis=0)),
                 (a, x, lambda m, v: m.insert(v, [1, 3], 0, axis=1)),
                 (a, x, lambda m, v: m.insert(v, [0, 0, 5], 1, axis=0)),
                 (a3, x3, lambda m, v: m.insert(v, 1, 1, axis=2)),
                 (a, x, lambda m, v: m.insert(v, [0, 1], 1, axis=-1))]
        for e_in, g_in, f in cases:
            e, g = f(np, e_in), f(nt, g_in)
            assert_same(g, e)
            assert (g.flags.c_contiguous, g.flags.f_contiguous) == \
                (e.flags.c_contiguous, e.flags.f_contiguous)


@pytest.mark.parametrize('shape', [(3000,), (7, 11), (0,), 5, (2, 0)])
def test_resize(shape):
    check(lambda m, a: m.resize(a, shape), M[::3, ::5])


@pytest.mark.parametrize('trim', ['fb', 'f', 'b', 'B'])
def test_trim_zeros(trim):
    x = np.concatenate([np.zeros(700), BIG, np.zeros(900)])
    check(lambda m, a: m.trim_zeros(a, trim), x)
    check(lambda m, a: m.trim_zeros(a, trim), np.zeros(5))


def test_unstack():
    check(lambda m, a: m.unstack(a, axis=1), M)
    check(lambda m, a: m.unstack(a), M[::-1])


@pytest.mark.parametrize('axis', [None, 0, 1, -1])
def test_compress_extract(axis):
    cond = [True, False, True, True] * 10
    n = M.shape[axis] if axis is not None else M.size
    check(lambda m, a: m.compress(cond[:n] if n < 40 else np.arange(n) % 3 == 0, a, axis=axis),
          M)
    check(lambda m, a, c: m.extract(c, a), M, M % 3)


def test_select_choose():
    x = make(np.float64, (40, 50))
    check(lambda m, a: m.select([a < -3, a > 5], [a * 2, -a], default=7.5), x)
    check(lambda m, a: m.select([a < 0], [a.astype(np.float32)]), x)
    idx = (np.arange(2000) % 3).reshape(40, 50)
    check(lambda m, i, a: m.choose(i, [a, -a, 2 * a]), idx, x)
    check(lambda m, i, a: m.choose(i + 4, [a, -a, 2 * a], mode='wrap'), idx, x)
    check(lambda m, i, a: m.choose(i * 2, [a, -a, 2 * a], mode='clip'), idx, x)
    raises_like(lambda m, i, a: m.choose(i + 1, [a, -a, 2 * a]), idx, x)
    raises_like(lambda m, a: m.select([a < 0], [a, a]), x)
    raises_like(lambda m, a: m.select([a], [a]), x)


@pytest.mark.parametrize("n", [7, 40000])
def test_select_weak_scalars_and_list_default(n, request):
    """Python int/float choices and defaults are weak for the result dtype
    (NEP 50), as in NumPy: int8 choices with 5 stay int8; a list default
    is an array, not a dtype spec."""
    if n > 32768:
        request.getfixturevalue("default_settings")
    a = (np.arange(n) % 100 - 50).astype(np.int8)
    check(lambda m, x: m.select([x < 0, x > 10], [x, 5]), a)
    check(lambda m, x: m.select([x < 0], [x.astype(np.float32)], default=1.5), a)
    check(lambda m, x: m.select([x < 0], [x[::-1]], default=-3), a)
    check(lambda m, x: m.select([x > 0], [x], default=[2]), a)
    check(lambda m: m.select([True], [0], default=[0]))
    check(lambda m, x: m.select([x > 0], [x], default=x[::2][:1].astype(np.int16)), a)


@pytest.mark.parametrize("big", [False, pytest.param(True, marks=pytest.mark.default_settings)])
def test_choose_out_casts_unsafely_and_python_scalars_are_weak(big):
    # NumPy casts the chosen values into out= whatever the casting rule
    # (float64 choices into an int32 out), wants out= of the result's exact
    # shape (TypeError otherwise), and takes a Python scalar choice as weak:
    # (int32 array, 2) chooses in int32, not int64.
    shape = (300, 250) if big else (7, 5)
    idx = (np.arange(shape[0] * shape[1]) % 3).reshape(shape)
    a = (np.arange(idx.size) % 11 - 5).reshape(shape).astype(np.int32)
    for choices in ((a, np.float64(0.5), np.float64(2.75)), (a, 2, -3), (a[::-1], 2.5, a),
                    (a.astype(np.int8), 7, True)):
        check(lambda m, i, c0, c1, c2: m.choose(i, (c0, c1, c2)), idx, *choices)
        for odt in (np.int32, np.float32, np.int8):
            def run(m, i, c0, c1, c2):
                o = m.zeros(shape, odt)
                r = m.choose(i, (c0, c1, c2), out=o)
                assert r is o
                return o
            check(run, idx, *choices)
            check(lambda m, i, c0, c1, c2: m.asarray(i).choose((c0, c1, c2), out=m.zeros(shape, odt)),
                  idx, *choices)
    raises_like(lambda m, i, x: m.choose(i, (x, x), out=m.zeros(shape[1:])), idx % 2, a)
    raises_like(lambda m, i, x: m.choose(i, (x, x), out=m.zeros((1,) + shape)), idx % 2, a)


def test_choose_weak_scalars_method_args_limits():
    # Python scalars among the choices are weak (NEP 50): uint8 with 1000
    # or -1 stays uint8 (wrapping), a Python float with float32 is float32
    u8 = np.arange(70000, dtype=np.uint8)
    f32 = make(np.float32, (70000,))
    idx = np.arange(70000) % 2
    for ch in [(1000, u8), (-1, u8[::-1]), (1.0, np.float32(3)), (1.0, f32[::-1]), (2, True),
               (1j, f32)]:
        check(lambda m, i, *c: m.choose(i, c), idx,
              *[c if not isinstance(c, np.ndarray) else c for c in ch])
    # ndarray.choose takes the choices as several positional arguments
    x = make(np.float64, (4, 300))
    i = np.arange(300) % 4
    check(lambda m, i, a: m.asarray(i).choose(*a), i, x)
    check(lambda m, i, a: m.asarray(i).choose(a[0], a[1], a[2], a[3], mode='clip'), i, x)
    raises_like(lambda m, i: m.asarray(i).choose(), i)
    # NumPy's limit: 64 operands (a counts)
    a1 = np.zeros(3, dtype=np.intp)
    check(lambda m, a: m.choose(a, [a] * 63), a1)
    raises_like(lambda m, a: m.choose(a, [a] * 64), a1)


def test_ix_lexsort():
    check(lambda m: m.ix_([1, 3], m.asarray([True, False, True]), [0]))
    k1 = (np.arange(3000) * 7919) % 13
    k2 = (np.arange(3000) * 104729) % 17
    check(lambda m, a, b: m.lexsort((a, b)), k1, k2)
    check(lambda m, a, b: m.lexsort((a.astype(np.float32), b[::-1])), k1, k2)
    check(lambda m, a, b: m.lexsort(m.stack([a, b])), k1, k2)


def test_lexsort_keys_from_any_sequence():
    # NumPy takes the keys item by item from any sequence (len and []), so a
    # sequence's own error reaches the caller; ndtile made it one array first
    k1 = (np.arange(40000) * 7919) % 13
    k2 = (np.arange(40000) * 104729) % 17

    class Keys:
        def __init__(self, *ks):
            self.ks = ks

        def __len__(self):
            return len(self.ks)

        def __getitem__(self, i):
            return self.ks[i]

    class Broken:
        def __len__(self):
            return 4

        def __getitem__(self, i):
            raise KeyError(i)

    for a, b in ((k1, k2), (k1[::-3], k2[::3]), (k1[:0], k2[:0])):
        got = nt.lexsort(Keys(nt.asarray(a), nt.asarray(b)))
        assert_same(got, np.lexsort(Keys(a, b)))
    for m in (np, nt):
        with pytest.raises(KeyError):
            m.lexsort(Broken())
        with pytest.raises(TypeError):
            m.lexsort(Keys())


def test_sort_complex():
    check(lambda m, a: m.sort_complex(a), M[:, 0])
    check(lambda m, a: m.sort_complex(a), BIG.astype(np.float32))
    check(lambda m, a: m.sort_complex(a), BIG + 1j * BIG[::-1])


@pytest.mark.parametrize('k', [-2, 0, 3])
def test_index_helpers(k):
    check(lambda m: m.tril_indices(60, k))
    check(lambda m: m.triu_indices(40, k, 70))
    check(lambda m, a: m.tril_indices_from(a, k), M)
    check(lambda m, a: m.triu_indices_from(a, k), M)
    check(lambda m: m.diag_indices(5, 3))
    check(lambda m, a: m.diag_indices_from(a), np.ones((4, 4, 4)))
    raises_like(lambda m, a: m.diag_indices_from(a), np.ones((4, 3)))
    check(lambda m: m.fromfunction(lambda i, j: i * 100 + j, (30, 70), dtype=np.int64))


@pytest.mark.parametrize('dtype', [np.float32, np.float64, np.int64])
def test_fix_sinc(dtype):
    x = make(dtype, (1500,))
    check(lambda m, a: m.fix(a), x)
    check(lambda m, a: m.fix(a), x[::-3])
    check(lambda m, a: m.sinc(a), x, rtol=1e-6 if dtype == np.float32 else 1e-15)
    check(lambda m, a: m.sinc(a), np.zeros(3, dtype))
    check(lambda m: m.fix(-2.5))


def test_sinc_float16_zero(monkeypatch):
    """sinc(0) is 1 in float16 too: NumPy multiplies by pi first and puts
    the dtype's eps for a zero (1e-20 underflowed to 0: 0/0 = nan).
    float16 runs in NumPy (deviations.md item 2), so fallbacks are allowed."""
    monkeypatch.delenv("NDTILE_FALLBACK")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for a in (np.float16(0), np.array([0, 0.5, -1, 0], np.float16)):
            exp = np.sinc(a)
            got = nt.sinc(a)
            assert np.asarray(got).dtype == exp.dtype
            np.testing.assert_array_equal(np.asarray(got), exp)
    check(lambda m, a: m.sinc(a), np.array([0, 1 + 1j, 0.5j, 0]))
    check(lambda m, a: m.sinc(a), np.arange(7, dtype=np.uint8))


def test_unravel_index_edge_errors():
    """NumPy's errors of unravel_index: a shape whose size exceeds intp, an
    array of indices for a 0-d shape (after the bounds check), an empty
    list (inferred float, with NumPy's hint); ndtile returned values."""
    raises_like(lambda m: m.unravel_index(1, (2**32 - 1, 2**31 + 1)))
    raises_like(lambda m: m.unravel_index(m.asarray([0, 5]), (2**62, 4)))
    raises_like(lambda m: m.unravel_index([0], ()))
    raises_like(lambda m: m.unravel_index([1], ()))
    raises_like(lambda m, a: m.unravel_index(a, ()), np.array([], np.int64))
    raises_like(lambda m: m.unravel_index([], (10, 3, 5)))
    raises_like(lambda m: m.unravel_index((), (10, 3, 5)))
    raises_like(lambda m, a: m.unravel_index(a, (10, 3, 5)), np.array([]))
    check(lambda m: m.unravel_index(0, ()))
    check(lambda m, a: m.unravel_index(a, ()), np.array(0))
    check(lambda m, a: m.unravel_index(a, (10, 3, 5)), np.array([], np.int64))
    check(lambda m, a: m.unravel_index(a[::-7], (200, 250)), np.arange(50000))


def test_ediff1d():
    check(lambda m, a: m.ediff1d(a), M)
    check(lambda m, a: m.ediff1d(a, to_end=[100, 200], to_begin=-1), M)
    check(lambda m, a: m.ediff1d(a), np.zeros(0))
    raises_like(lambda m, a: m.ediff1d(a, to_end=1.5), M)


def test_trapezoid():
    y = make(np.float64, (40, 60))
    check(lambda m, a: m.trapezoid(a), y, rtol=1e-12)
    check(lambda m, a: m.trapezoid(a, axis=0, dx=0.5), y, rtol=1e-12)
    xs = np.cumsum(np.abs(make(np.float64, (60,))))
    check(lambda m, a, x: m.trapezoid(a, x), y, xs, rtol=1e-12)
    check(lambda m, a, x: m.trapezoid(a, x, axis=0), y, np.ones((40, 60)), rtol=1e-12)


def test_cross_kron_vander():
    a = make(np.float64, (500, 3))
    b = make(np.float64, (500, 3), seed=1)
    check(lambda m, x, y: m.cross(x, y), a, b)
    check(lambda m, x, y: m.cross(x.T, y.T, axisa=0, axisb=0, axisc=0), a, b)
    check(lambda m, x, y: m.cross(x, y[0]), a, b)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', DeprecationWarning)
        check(lambda m, x, y: m.cross(x[:, :2], y[:, :2]), a, b)
        check(lambda m, x, y: m.cross(x[:, :2], y), a, b)
    raises_like(lambda m, x: m.cross(x, x), np.ones((3, 4)))
    check(lambda m, x, y: m.kron(x, y), M[:5, :4], M[:3, :7])
    check(lambda m, x, y: m.kron(x, y), M[0, :5], M[:3, :7].astype(np.float32))
    check(lambda m, x: m.kron(x, 3), M[:4, :4])
    check(lambda m, x: m.vander(x), np.arange(1, 9, dtype=np.int64))
    check(lambda m, x: m.vander(x, 4, increasing=True), make(np.float64, (50,)))
    check(lambda m, x: m.vander(x, 0), make(np.float64, (5,)))


def test_misc():
    z = make(np.complex128, (1500,))
    check(lambda m, a: m.real_if_close(a), z)
    check(lambda m, a: m.real_if_close(a.real + 1e-20j), z)
    check(lambda m, a: m.asarray_chkfinite(a), BIG)
    x = BIG.copy()
    x[700] = np.inf
    raises_like(lambda m, a: m.asarray_chkfinite(a), x)
    phase = np.cumsum(make(np.float64, (1500,), lo=-2, hi=2))
    check(lambda m, a: m.unwrap(a), phase, rtol=1e-12)
    check(lambda m, a: m.unwrap(a.reshape(30, 50), axis=0, period=5.0), phase, rtol=1e-12)
    check(lambda m, a: m.unwrap(a, period=7), np.arange(0, 100, 3))


@pytest.mark.parametrize('name', ['cumulative_sum', 'cumulative_prod'])
def test_cumulative(name):
    small = make(np.int16, (33, 47), lo=-2, hi=2)
    check(lambda m, a: getattr(m, name)(a, axis=1), small)
    check(lambda m, a: getattr(m, name)(a, axis=0, include_initial=True), small)
    check(lambda m, a: getattr(m, name)(a[:, 0], dtype=np.float32), small)
    check(lambda m, a: getattr(m, name)(a[0, 0], include_initial=True), small)
    raises_like(lambda m, a: getattr(m, name)(a), small)


def test_poly():
    p = np.array([3.0, -2.0, 0.5, 1.0])
    check(lambda m, c, x: m.polyval(c, x), p, BIG, rtol=1e-14)
    check(lambda m, c, x: m.polyval(c, x), p.astype(np.int64), M)
    check(lambda m, a, b: m.polyadd(a, b), p, p[:2])
    check(lambda m, a, b: m.polysub(a, b), p[:1], p)
    check(lambda m, a: m.polyder(a), p)
    check(lambda m, a: m.polyder(a, 2), p)
    check(lambda m, a: m.polyint(a), p)
    check(lambda m, a: m.polyint(a, 2, k=[1.0, 2.0]), p)


@pytest.mark.parametrize('M_', [0, 1, 2, 7, 1000])
@pytest.mark.parametrize('name', ['bartlett', 'blackman', 'hamming', 'hanning'])
def test_windows(name, M_):
    check(lambda m: getattr(m, name)(M_), rtol=1e-14)


def test_block():
    a, b = M[:2, :2], M[:2, :5]
    check(lambda m, x, y: m.block([[x, y], [m.full((1, 7), 7, dtype=np.int32)]]), a, b)
    check(lambda m, x: m.block([x, x[::-1]]), BIG)
    check(lambda m, x: m.block([[x], [x]]), BIG[:10])
    check(lambda m, x, y: m.block([[[x]], [[y]]]), a, a)
    check(lambda m: m.block(5.0))
    check(lambda m: m.block([1, 2, 3]))
    check(lambda m, x: m.block([[1, x[0, :2]]]), M)
    raises_like(lambda m, x: m.block([[x], x]), a)
    raises_like(lambda m, x: m.block([x, []]), a)
    raises_like(lambda m, x: m.block([[x, x], (x,)]), a)
    raises_like(lambda m, x: m.block([]), a)


@pytest.mark.parametrize('expr', [
    'm.linspace([0, 1], [10, 20], 5)', 'm.linspace(0, [10, 20], 3000, axis=1)',
    'm.linspace(1 + 1j, 5 - 2j, 4)', 'm.linspace(0, 10, 5, dtype=int)',
    'm.linspace([0., 1], 5., 4, retstep=True)', 'm.linspace([0, 1], [1, 1], 1)',
    'm.logspace([0, 1], [2, 3], 3)', 'm.logspace(0, 2, 3, base=[2, 10], axis=1)',
    'm.geomspace(1, 1000, 4)', 'm.geomspace(-1, -1000, 2000)',
    'm.geomspace([1, 2], [100, 200], 3, axis=1)', 'm.geomspace(1j, 1000j, 4)',
    'm.geomspace(1, 256, 9, dtype=int)', 'm.geomspace(1, 10, 0)',
    'm.geomspace(2, 10, 5, endpoint=False, dtype=np.float32)'])
def test_spacing(expr):
    # power() may differ from NumPy's in the last bit
    check(lambda m: eval(expr, {'m': m, 'np': np}), rtol=0 if 'lin' in expr else 1e-14)


def test_spacing_errors():
    raises_like(lambda m: m.geomspace(0, 10))
    raises_like(lambda m: m.geomspace([1, 0], 10))


@pytest.mark.parametrize('bitorder', ['big', 'little'])
def test_packbits(bitorder):
    x = (make(np.int8, (37, 45)) > 0)
    check(lambda m, a: m.packbits(a, bitorder=bitorder), x)
    check(lambda m, a: m.packbits(a, axis=0, bitorder=bitorder), x)
    check(lambda m, a: m.packbits(a[::-2, 3:], axis=1, bitorder=bitorder), x.astype(np.int16))
    check(lambda m, a: m.packbits(a, bitorder=bitorder), np.zeros(0, bool))
    p = np.packbits(x, axis=1)
    for count in (None, 5, -7, 400):
        check(lambda m, a: m.unpackbits(a, axis=1, count=count, bitorder=bitorder), p)
    check(lambda m, a: m.unpackbits(a, bitorder=bitorder), p[::-1])
    raises_like(lambda m, a: m.packbits(a), x.astype(np.float64))
    raises_like(lambda m, a: m.unpackbits(a), p.astype(np.int16))


@pytest.mark.parametrize('settings', ['small', 'default'])
def test_packbits_bitorder_spellings(settings, request):
    """unpackbits reads the first letter of bitorder ('l...'/'b...'), packbits
    wants 'big' or 'little'; a bitorder that is not a str is a TypeError in
    both (NumPy's argument parsing), another str a ValueError."""
    if settings == 'default':
        request.getfixturevalue('default_settings')
    x = make(np.int8, (300, 250)) > 0        # 75000 bits, 9375 bytes (one row: 32)
    p = np.packbits(x, axis=1)
    for bo in ('l', 'b', 'lsb', 'bo'):
        check(lambda m, a: m.unpackbits(a, axis=1, bitorder=bo), p)
        check(lambda m, a: m.unpackbits(a[::-3], bitorder=bo), p)
    for bo in ('', 'Big', 'L', 'r'):
        raises_like(lambda m, a: m.unpackbits(a, bitorder=bo), p)
    for bo in ('l', 'b', 'Big', 'r'):
        raises_like(lambda m, a: m.packbits(a, bitorder=bo), x)
    for bo in (10, None, b'big', 1.5):
        raises_like(lambda m, a: m.unpackbits(a, bitorder=bo), p)
        raises_like(lambda m, a: m.packbits(a, bitorder=bo), x)


def test_mask_indices():
    check(lambda m: m.mask_indices(40, m.triu, 2))
    check(lambda m: m.mask_indices(5, m.tril))


def test_compress_choose_methods():
    check(lambda m, a: m.asarray(a).compress([True, False, True], axis=1), M)
    idx = np.arange(12).reshape(3, 4) % 3
    check(lambda m, i, a: m.asarray(i).choose([a[:3, :4], -a[:3, :4], a[:3, :4] * 0]), idx, M)


def test_vecdot():
    a = make(np.complex128, (30, 4, 5))
    b = make(np.complex128, (4, 5), seed=1)
    check(lambda m, x, y: m.vecdot(x, y), a, b, rtol=1e-13)
    check(lambda m, x, y: m.vecdot(x, y, axis=1), a.real, a.real[::-1], rtol=1e-13)
    check(lambda m, x, y: m.vecdot(x, y), M[:, :5], M[:, 5:10])
    check(lambda m, x, y: m.vecdot(x, y), M[:5] > 0, M[5:10] > 0)
    raises_like(lambda m, x, y: m.vecdot(x, y), a, b[:, :4])


SA = np.random.default_rng(3).integers(0, 50, 3000)
SB = np.random.default_rng(4).integers(20, 80, 200)


@pytest.mark.parametrize('name', ['union1d', 'setdiff1d', 'setxor1d', 'intersect1d'])
def test_set_functions(name):
    check(lambda m, a, b: getattr(m, name)(a, b), SA, SB)
    check(lambda m, a, b: getattr(m, name)(a, b), SA[::-7].astype(np.float32), SB[:0])
    check(lambda m, a, b: getattr(m, name)(a, b, **({} if name == 'union1d' else
                                                    {'assume_unique': True})),
          np.unique(SA), np.unique(SB))
    check(lambda m, a, b: m.intersect1d(a, b, return_indices=True), SA, SB)


def test_interp():
    rng = np.random.default_rng(0)
    xp, fp = np.sort(rng.random(50)), rng.random(50)
    x = rng.random(3000) * 1.2 - 0.1
    x[5] = np.nan
    x[6] = xp[-1]
    check(lambda m, a: m.interp(a, xp, fp), x, rtol=1e-14)
    check(lambda m, a: m.interp(a, xp, fp, left=-1, right=2), x, rtol=1e-14)
    check(lambda m, a: m.interp(a, xp, fp + 1j * fp[::-1]), x, rtol=1e-14)
    check(lambda m, a: m.interp(a * 10, xp, fp, period=1.0), x, rtol=1e-12)
    check(lambda m: m.interp(0.5, xp, fp), rtol=1e-14)
    check(lambda m: m.interp([0, 1, 1.5, 2, 3], [0, 1, 1, 2], [0, 1, 5, 6]))
    check(lambda m: m.interp([-1, 0, 2], [1.0], [7.0]))
    raises_like(lambda m: m.interp([1], [1, 2], [1]))
    raises_like(lambda m: m.interp([1], [], []))


@pytest.mark.parametrize("n", [40, 40000])
def test_interp_infinite_samples(n, request):
    """Infinite xp or fp: NumPy takes the sample at an exact x, retries a
    NaN from the interval's other end, and takes the sample between equal
    ones; complex parts each on their own; no warnings."""
    if n > 32768:
        request.getfixturevalue("default_settings")
    inf = np.inf
    xp = np.array([-inf, 0.0, 1.0, 2.0, 3.0, 4.0, inf])
    fp = np.array([5.0, 5.0, 2.0, inf, inf, -inf, -inf])
    x = np.linspace(-6, 6, n)
    x[:7] = xp
    x[7] = np.nan
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check(lambda m, a: m.interp(a, xp, fp), x)
        check(lambda m, a: m.interp(a[::-3], [-inf, inf], [10.0, 10.0]), x)
        check(lambda m, a: m.interp(a, [0.0, 1.0], [-inf, inf]), x)
        check(lambda m, a: m.interp(a, xp, fp + 1j * fp[::-1]), x)
        check(lambda m, a: m.interp(a, xp[1:6], np.array([1 + 1j, inf + 2j, 3 - inf * 1j,
                                                          4.0, 5j])), x)


def test_nanmedian():
    x = make(np.float64, (40, 30))
    x[x < -8] = np.nan
    x[3] = np.nan
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', RuntimeWarning)
        check(lambda m, a: m.nanmedian(a), x)
        check(lambda m, a: m.nanmedian(a, axis=0), x)
        check(lambda m, a: m.nanmedian(a, axis=1, keepdims=True), x)
    check(lambda m, a: m.nanmedian(a, axis=0), M)


@pytest.mark.parametrize("shape", [(40, 31), (700, 60)])
def test_nanmedian_infinite_values(shape, request):
    """nanmedian is the median of the valid values: the middle one, or the
    mean of the two, as NumPy's; a lerp took inf - inf (NaN) next to an
    infinity: nanmedian([1, 2, inf]) was NaN, NumPy 2."""
    if shape[0] * shape[1] > 32768:
        request.getfixturevalue("default_settings")
    rng = np.random.default_rng(5)
    for dt in (np.float64, np.float32):
        a = (rng.random(shape) * 4 - 2).astype(dt)
        a[rng.random(shape) < 0.3] = np.nan
        a[rng.random(shape) < 0.1] = np.inf
        a[rng.random(shape) < 0.1] = -np.inf
        a[:, 1] = np.nan
        a[:, 2] = [np.inf] + [np.nan] * (shape[0] - 1)
        a[:, 3] = np.inf
        with warnings.catch_warnings():
            warnings.simplefilter('ignore', RuntimeWarning)
            for ax in (None, 0, 1):
                check(lambda m, x: m.nanmedian(x, axis=ax), a)
            check(lambda m, x: m.nanmedian(x[::-2, ::3], axis=0, keepdims=True), a)
    for v in ([1.0, 2.0, np.inf], [1.0, np.inf, np.inf], [np.inf, np.nan], [-np.inf, np.inf],
              [1e308, 1e308, np.nan]):
        check(lambda m, x: m.nanmedian(x), np.array(v))


@pytest.mark.parametrize('shape, wrap', [((5, 5), False), ((7, 3), True), ((7, 3), False),
                                         ((3, 7), False), ((4, 4, 4), False)])
def test_fill_diagonal_place_putmask(shape, wrap):
    def fd(m, a):
        a = m.array(a, copy=True)
        m.fill_diagonal(a, [1, 2], wrap=wrap)
        return a
    check(fd, np.zeros(shape))
    check(lambda m, v: m.diagflat(v, 1), np.arange(4).reshape(2, 2))

    def pl(m, a):
        a = m.array(a, copy=True)
        m.place(a, a % 3 == 0, [-1, -2])
        return a

    def pm(m, a):
        a = m.array(a, copy=True)
        m.putmask(a, a % 3 == 0, [-1, -2, -3])
        return a
    check(pl, np.arange(3000.0))
    check(pm, np.arange(3000.0).reshape(30, 100))


def test_polymul_takes_coefficients_as_poly1d():
    # NumPy's polymul makes each argument a poly1d: leading zeros trimmed, an
    # empty one is [0], 2-d refused; ndtile convolved them as given (extra
    # leading zeros, "a cannot be empty")
    big = np.r_[np.zeros(40000), np.arange(1.0, 6.0)]     # several tiles of zeros first
    cases = [([0, 1, 2], [1]), ([0, 0], [1, 2]), ([], [1.0]), ([0.0, 0.0, 3.0], [0, 2]),
             ([1, 2], [3, 4]), ([0j, 1], [True, False]), (big, [0, 0, 1.0, -1.0]),
             (big[::-1][::-1], big[-3:])]
    for a, b in cases:
        check(lambda m, x, y: m.polymul(x, y), np.asarray(a), np.asarray(b))
        check(lambda m: m.polymul(a, b))
    raises_like(lambda m: m.polymul([[1, 2]], [1]))


def test_poly_more():
    check(lambda m: m.polymul([1, 2, 3], [4, 5]))
    check(lambda m: m.polydiv([1.0, 2, 3, 4], [2.0, 1]))
    xs = np.linspace(0, 1, 100)
    ys = 3 * xs ** 2 - xs + 0.5 + np.random.default_rng(0).random(100) * 0.01
    check(lambda m, x, y: m.polyfit(x, y, 2), xs, ys, rtol=1e-10)
    check(lambda m, x, y: m.polyfit(x, y, 1, w=x + 1), xs, ys, rtol=1e-10)
    check(lambda m, x, y: m.polyfit(x, y, 2, cov=True), xs, ys, rtol=1e-7)
    check(lambda m, x, y: m.polyfit(x, y, 1), xs, np.stack([ys, -ys], axis=1), rtol=1e-10)


def test_bin_edges_flags_require():
    x = make(np.float64, (3000,))
    check(lambda m, a: m.histogram_bin_edges(a, 7), x)
    check(lambda m, a: m.histogram_bin_edges(a, 7, range=(0, 2)), x)
    check(lambda m, a: m.histogram_bin_edges(a, [0, 1, 5]), x)
    check(lambda m, a: m.histogram_bin_edges(a), M)
    raises_like(lambda m, a: m.histogram_bin_edges(a, [3, 1]), x)
    f = np.ones((3, 4)).T
    assert nt.isfortran(nt.asarray(np.ones((4, 3))).T) == np.isfortran(f)
    assert nt.isfortran(nt.asarray(f.T)) == np.isfortran(f.T)
    assert nt.require(np.ones(3), np.float32, 'C').dtype == np.float32


def test_vecdot_dispatch_from_numpy(monkeypatch):
    monkeypatch.setenv('NDTILE_FALLBACK', 'error')
    a = make(np.complex128, (30, 4, 5))
    b = make(np.complex128, (5,), seed=1)
    assert_same(np.vecdot(nt.asarray(a), nt.asarray(b)), np.vecdot(a, b), rtol=1e-13)
    assert isinstance(nt.vecdot, nt.ufunc)


@pytest.mark.parametrize('mode', ['edge', 'reflect', 'wrap', 'symmetric'])
@pytest.mark.parametrize('pw', [2, (1, 3), ((3, 0), (7, 9)), ((9, 9), (0, 13))])
def test_pad_modes(mode, pw):
    check(lambda m, a: m.pad(a, pw, mode=mode), M[:4, :6])
    check(lambda m, a: m.pad(a, pw, mode=mode), M[::-5, 3::7].astype(np.complex64))
    check(lambda m, a: m.pad(a, 5, mode=mode), np.arange(1.0))
    check(lambda m, a: m.pad(a, (2, 3000), mode=mode), BIG[:50])
    raises_like(lambda m, a: m.pad(a, 1, mode=mode), np.zeros((0, 3)))


def test_pad_negative_width_of_0d_and_unbroadcastable():
    # NumPy checks the widths for negative values as given, before it
    # broadcasts them to (ndim, 2): a 0-d array padded by -1 raised nothing
    # (fuzz seed 300001566), a (2, 2) width with a negative entry on a 1-d
    # array raised the broadcast error
    for shape in [(), (4,), (2, 3)]:
        a = make(np.int16, shape)
        for pw in (-1, (-1, 2), ((0, 1), (-1, 0)), [[-1]], 0, (1, 0), ((1, 2),)):
            for mode in ('constant', 'edge', 'wrap'):
                raised, exp = check_same_error(lambda: nt.pad(nt.asarray(a), pw, mode=mode),
                                               lambda: np.pad(a, pw, mode=mode))
                if not raised:
                    assert_same(nt.pad(nt.asarray(a), pw, mode=mode), exp)


def test_pad_empty_mode_shape():
    assert nt.pad(nt.ones((3, 4)), ((1, 2), (3, 4)), mode='empty').shape == (6, 11)


@pytest.mark.parametrize("big", [False, True])
def test_pad_dict_width_and_checks(big, request):
    """pad_width may be a dict {axis: width or (before, after)} (NumPy 2.3);
    a uint pad_width is refused as NumPy does, and reflect_type is a
    keyword of reflect and symmetric only (edge and wrap raise)."""
    if big:
        request.getfixturevalue("default_settings")
    a = make(np.float64, (30, 40, 50) if big else (3, 4, 5))
    for pw in ({-2: (1, 3)}, {0: (5, 2), -1: (3, 4)}, {1: 5}):
        for mode in ('constant', 'edge', 'reflect', 'wrap'):
            check(lambda m, x: m.pad(x, pw, mode=mode), a)
        check(lambda m, x: m.pad(x[::-1], pw, constant_values=7), a)
    for pw in ({3: 1}, {0: 1.5}, {0: (1, 2, 3)}, np.uint8(1), np.array([1, 2], np.uint16)):
        with pytest.raises(BaseException) as en:
            np.pad(a, pw)
        with pytest.raises(type(en.value)) as eg:
            nt.pad(nt.asarray(a), pw)
        assert str(eg.value) == str(en.value)
    for mode in ('edge', 'wrap', 'reflect', 'symmetric'):
        raises_or = mode in ('edge', 'wrap')
        if raises_or:
            raises_like(lambda m, x: m.pad(x, 1, mode, reflect_type='even'), a[0, 0])
        else:
            check(lambda m, x: m.pad(x, 1, mode, reflect_type='even'), a[0, 0])


def test_average_weights():
    a = make(np.float64, (40, 60))
    w = np.arange(1.0, 41.0)
    check(lambda m, x, v: m.average(x, axis=0, weights=v), a, w, rtol=1e-14)
    check(lambda m, x, v: m.average(x, axis=0, weights=v, returned=True), a, w, rtol=1e-14)
    check(lambda m, x: m.average(x, weights=x + 11), a, rtol=1e-14)
    check(lambda m, x: m.average(x, axis=1, weights=[1, 2, 3, 4]), np.arange(12).reshape(3, 4),
          rtol=1e-14)
    check(lambda m, x: m.average(x, axis=1, returned=True), a, rtol=1e-14)
    check(lambda m, x: m.average(x, returned=True), a, rtol=1e-14)
    check(lambda m, x: m.average(x, axis=1, weights=np.arange(60.0), keepdims=True), a,
          rtol=1e-14)
    check(lambda m, x: m.average(x.reshape(2, 20, 60), axis=(0, 2), weights=np.ones((2, 60))),
          a, rtol=1e-14)
    check(lambda m, x: m.average(x, axis=0, weights=np.ones(40, np.float32)),
          a.astype(np.float32), rtol=1e-6)
    raises_like(lambda m, x: m.average(x, weights=[1, 2]), a)
    raises_like(lambda m, x: m.average(x, axis=0, weights=np.zeros(40)), a)
    raises_like(lambda m, x: m.average(x, axis=0, weights=[1, 2]), a)


@pytest.mark.parametrize('expr', [
    "m.median(x, axis=(0, 2))", "m.median(x, axis=(0, 2), keepdims=True)",
    "m.median(x, axis=(1,))", "m.median(y)", "m.median(y, axis=0)",
    "m.median(x, axis=0, out=m.zeros((6, 7)))", "m.median(x[:, ::-2])", "m.median(z)",
    "m.median(z, axis=1)"])
def test_median_more(expr):
    rng = np.random.default_rng(0)
    a = rng.standard_normal((5, 6, 7))
    a[1, 2, 3] = np.nan
    c = a + 1j * rng.standard_normal((5, 6, 7))
    z = np.arange(3000).reshape(30, 100) % 37
    check(lambda m, x, y, z: eval(expr, {'m': m, 'x': x, 'y': y, 'z': z}), a, c, z, rtol=1e-15)


def test_poly_functions_keep_poly1d():
    """polyadd, polysub, polymul, polydiv, polyder and polyint give poly1d
    results when an argument is a poly1d, as NumPy (ndtile gave arrays:
    q.coeffs failed); plain coefficients still give ndtile arrays."""
    b = np.poly1d([2, 6, 6, 1])
    a = np.poly1d([-1j, 1 + 2j, -(2 + 1j), 1])
    cases = [('polyadd', (b, a)), ('polysub', (b, [1, 2])), ('polymul', ([1, 2], a)),
             ('polydiv', (b, a)), ('polydiv', (b, [1.0, 2.0])), ('polyder', (b,)),
             ('polyder', (b, 2)), ('polyint', (b,)), ('polyint', (a, 2))]
    for f, args in cases:
        e, g = getattr(np, f)(*args), getattr(nt, f)(*args)
        es, gs = (e, g) if isinstance(e, tuple) else ((e,), (g,))
        assert len(gs) == len(es)
        for x, y in zip(gs, es):
            assert type(x) is np.poly1d, (f, type(x))
            assert x.coeffs.dtype == y.coeffs.dtype
            np.testing.assert_allclose(x.coeffs, y.coeffs, rtol=1e-13)
    check(lambda m, u: m.polymul(u, u[::-1]), np.arange(1.0, 6.0))
    check(lambda m, u: m.polydiv(u, u[:2]), np.arange(1.0, 6.0), rtol=1e-14)


def test_roots_poly_piecewise():
    check(lambda m: m.sort(m.roots([1, -6, 11, -6.0])), rtol=1e-12)
    check(lambda m: m.roots([0, 0, 1, 2, 0, 0]), rtol=1e-12)
    check(lambda m: m.poly([1, 2, 3]), rtol=1e-14)
    check(lambda m: m.poly(m.asarray([[1.0, 2], [3, 4]])), rtol=1e-12)
    check(lambda m: m.poly([1 + 1j, 1 - 1j]), rtol=1e-14)
    # conjugate pairs in any order give real coefficients (NumPy's sorted
    # comparison); unpaired complex roots keep complex ones
    check(lambda m: m.poly([1.082j, 2.613j, -2.613j, -1.082j]), rtol=1e-14)
    check(lambda m: m.poly([2 - 1j, 3, 1 + 5j, 2 + 1j, 1 - 5j]), rtol=1e-13)
    check(lambda m: m.poly([1j, 2j, -1j]), rtol=1e-14)
    x = np.linspace(-2, 2, 3001)
    check(lambda m, v: m.piecewise(v, [v < 0, v >= 0], [lambda t: -t, lambda t: t * 2]), x)
    check(lambda m, v: m.piecewise(v, [v < -1, v > 1], [0, lambda t: t ** 2, 5.0]), x)
    raises_like(lambda m, v: m.piecewise(v, [v < 0], [1, 2, 3]), x)


def test_text_and_files(tmp_path):
    from ndtile import _ranks
    tmp_path = _ranks.bcast(tmp_path, 0)     # one directory for every rank
    a = make(np.float64, (20, 3))
    x = nt.asarray(a)
    assert nt.array_repr(x) == np.array_repr(a)
    assert nt.array_str(x, precision=2) == np.array_str(a, precision=2)
    assert nt.array2string(x, separator=';') == np.array2string(a, separator=';')
    f = str(tmp_path / 'a.txt')
    nt.savetxt(f, x)
    assert_same(nt.loadtxt(f), np.loadtxt(f))
    assert_same(nt.genfromtxt(f), np.genfromtxt(f))
    g = str(tmp_path / 'a.npy')
    nt.save(g, x)
    assert_same(nt.load(g), a)
    h = str(tmp_path / 'a.npz')
    nt.savez(h, x=x, y=x[::2])
    with nt.load(h) as z:
        assert np.array_equal(z['y'], a[::2])
    assert_same(nt.fromstring('1 2 3', sep=' '), np.fromstring('1 2 3', sep=' '))
    b = str(tmp_path / 'a.bin')
    x.tofile(b)                              # written once
    assert_same(nt.fromfile(b), a.ravel())


@pytest.mark.parametrize('shape', [(20, 3), (2, 3, 4), (300, 130)])
@pytest.mark.parametrize('settings', ['small', 'default'])
def test_save_load_fortran_order(tmp_path, shape, settings, request):
    """np.save writes a Fortran-ordered array in Fortran order (its header
    says fortran_order), and np.load gives it back Fortran-ordered, as
    NumPy's; savez keeps the layout too. (300, 130) float64 is over one
    2 MiB tile: at default settings it spans several tiles."""
    if settings == 'default':
        request.getfixturevalue('default_settings')
    from ndtile import _ranks
    tmp_path = _ranks.bcast(tmp_path, 0)
    a = np.asfortranarray(make(np.float64, shape))
    for src in (nt.asfortranarray(nt.asarray(a)), nt.asarray(a).T.copy().T):
        g = str(tmp_path / 'f.npy')
        nt.save(g, src)
        want = np.load(g)
        assert want.flags.f_contiguous and not want.flags.c_contiguous
        got = nt.load(g)
        assert_same(got, a)
        assert got.flags.f_contiguous == want.flags.f_contiguous
        assert got.flags.c_contiguous == want.flags.c_contiguous
        assert got.flags.owndata == want.flags.owndata
        got[(0,) * len(shape)] = 99           # writable, its own data
        assert got[(0,) * len(shape)] == 99
        h = str(tmp_path / 'f.npz')
        nt.savez(h, src, y=src)
        with np.load(h) as z:
            assert z['arr_0'].flags.f_contiguous and z['y'].flags.f_contiguous
            assert np.array_equal(z['y'], a)
    # a C-ordered array (and a 1-d one) stays C-ordered
    c = nt.asarray(np.ascontiguousarray(a))
    nt.save(g, c)
    assert nt.load(g).flags.c_contiguous and np.load(g).flags.c_contiguous
    nt.save(g, nt.asarray(a.ravel()))
    assert_same(nt.load(g), a.ravel())
    # loadtxt/genfromtxt(unpack=True) give NumPy's transpose (F-ordered, a view)
    if len(shape) == 2:
        t = str(tmp_path / 'f.txt')
        nt.savetxt(t, nt.asarray(a))          # one rank writes, all read
        for fn in ('loadtxt', 'genfromtxt'):
            want = getattr(np, fn)(t, unpack=True)
            got = getattr(nt, fn)(t, unpack=True)
            assert_same(got, want)
            assert (got.flags.f_contiguous, got.flags.c_contiguous, got.flags.owndata) == \
                (want.flags.f_contiguous, want.flags.c_contiguous, want.flags.owndata)


@pytest.mark.parametrize('settings', ['small', 'default'])
def test_npz_members_are_ndtile_arrays(tmp_path, settings, request):
    """np.load of an .npz: each member read (f[key], f.f.key, values(),
    items()) is an ndtile array, NumPy's values, dtype, shape and layout;
    (250, 1100) float64 spans several 2 MiB tiles."""
    if settings == 'default':
        request.getfixturevalue('default_settings')
    from ndtile import _ranks
    tmp_path = _ranks.bcast(tmp_path, 0)
    a = make(np.float64, (250, 1100))
    i = make(np.int32, (7,))
    h = str(tmp_path / 'm.npz')
    for save in (nt.savez, nt.savez_compressed):
        save(h, nt.asarray(a)[::-1], i=nt.asarray(i), f=nt.asfortranarray(nt.asarray(a[:5])),
             e=nt.zeros((0, 3)))
        with np.load(h) as want, nt.load(h) as got:
            assert isinstance(got, np.lib.npyio.NpzFile)
            assert sorted(got.keys()) == sorted(want.keys())
            for k in want:
                assert type(got[k]) is nt.ndarray
                assert_same(got[k], want[k])
                assert got[k].flags.f_contiguous == want[k].flags.f_contiguous
                assert got[k].flags.c_contiguous == want[k].flags.c_contiguous
            assert type(got.f.i) is nt.ndarray
            assert all(type(v) is nt.ndarray for v in got.values())
            assert all(type(v) is nt.ndarray for _, v in got.items())
            with pytest.raises(KeyError):
                got['nope']


def test_einsum_path_and_from_dlpack():
    a, b, c = make(np.float64, (3, 4)), make(np.float64, (4, 50)), make(np.float64, (50, 6))
    for opt in ('greedy', 'optimal', True):
        got = nt.einsum_path('ij,jk,kl->il', nt.asarray(a), nt.asarray(b), nt.asarray(c),
                             optimize=opt)
        exp = np.einsum_path('ij,jk,kl->il', a, b, c, optimize=opt)
        assert got[0] == exp[0] and got[1] == exp[1]
    x = nt.from_dlpack(a[:, ::2])
    assert_same(x, a[:, ::2])
    assert_same(nt.from_dlpack(nt.asarray(a)), a)


def test_isnat(monkeypatch):
    monkeypatch.setenv('NDTILE_FALLBACK', 'error')
    with pytest.raises(TypeError, match="only defined for np.datetime64"):
        nt.isnat(nt.ones(3))
    with pytest.raises(TypeError, match="only defined for np.datetime64"):
        np.isnat(nt.ones(3))
    d = np.array(['2020-01-01', 'NaT'], dtype='datetime64[D]')
    assert np.array_equal(nt.isnat(d), [False, True])


def test_choose_shape_mismatch_names_numpys_args():
    # NumPy broadcasts the choices, then the index array: its error numbers
    # them so (ndtile put the index array first)
    for idx, ch in [((2,), [(5,), (5,)]), ((5,), [(5,), (2,)]), ((3, 1), [(4,), (2, 4)]),
                    ((2,), [(5,), (3,)]), ((), [(2,), (3,)])]:
        with pytest.raises(ValueError) as e:
            np.choose(np.zeros(idx, int), [np.zeros(c) for c in ch])
        with pytest.raises(ValueError) as got:
            nt.choose(nt.zeros(idx, int), [nt.zeros(c) for c in ch])
        assert str(got.value) == str(e.value)
