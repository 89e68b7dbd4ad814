"""The binding maps the core's structured errors (ndt_last_error_info: kind,
argument, op, message) to NumPy's exception classes without reading the
messages; the rules it used to apply itself (integers' bounds, negative
dimensions, reduce names, casting codes) are the C API's. Every check is
against NumPy's answer for the same call."""
import numpy as np
import pytest

import ndtile as nt
from ndtile import _core


def _raised(fn):
    try:
        fn()
    except Exception as e:      # noqa: BLE001 - the class is what is compared
        return type(e), str(e)
    return None, None


@pytest.mark.parametrize("args,kw", [
    ((0,), {}), ((0, -1), {}), ((0, 0), {'endpoint': True}), ((0, -1), {'endpoint': True}),
    ((5, 2), {}), ((5, 4), {'endpoint': True}), ((3, 2), {'dtype': np.uint8}),
    ((0, 300), {'dtype': np.int8}), ((-1, 3), {'dtype': np.uint16}), ((0, 3), {'dtype': bool}),
    ((2**70, 2**71), {}), ((-2**70, 3), {}), ((0, 2**64), {}), ((0, 2**64), {'dtype': np.uint64}),
    ((0, 2**64 + 1), {'dtype': np.uint64}), ((2**63, 2**64), {'dtype': np.uint64}),
    ((-2**63, 2**63), {}), ((-2**63 - 1, 0), {}), ((0, 2**200), {'dtype': np.uint64}),
    ((-2**200, 2**200), {}),
])
def test_integers_bounds_as_numpy(args, kw):
    want = _raised(lambda: np.random.default_rng(0).integers(*args, size=3, **kw))
    got = _raised(lambda: nt.random.default_rng(0).integers(*args, size=3, **kw))
    assert got == want
    if want[0] is None:
        r = nt.random.default_rng(0).integers(*args, size=50, **kw)
        lo, hi = args
        hi = hi if kw.get('endpoint') else hi - 1
        assert r.dtype == np.dtype(kw.get('dtype', np.int64))
        assert lo <= int(np.asarray(r).min()) and int(np.asarray(r).max()) <= hi


def test_integers_bounds_checked_by_the_core():
    # the binding hands the bounds over unchecked: the core says no
    g = _core.Rng(1)
    i64, u8 = nt._dtypes.code(np.dtype(np.int64)), nt._dtypes.code(np.dtype(np.uint8))
    for lo, hi, dt, end, msg in [(5, 2, i64, False, "low >= high"), (5, 2, i64, True, "low > high"),
                                 (0, 0, i64, False, "high <= 0"), (0, -2, i64, True, "high < 0"),
                                 (0, 257, u8, False, "high is out of bounds for uint8"),
                                 (-1, 3, u8, False, "low is out of bounds for uint8"),
                                 (-2**65, 3, i64, False, "low is out of bounds for int64"),
                                 (0, 2**65, i64, False, "high is out of bounds for int64")]:
        with pytest.raises(ValueError) as e:
            g.integers((3,), dt, lo, hi, end)
        assert str(e.value) == msg and type(e.value) is ValueError
    # the top of uint8, and exclusive 2**64 for uint64, are in range
    assert g.integers((100,), u8, 0, 256, False).dtype == np.uint8
    u64 = nt._dtypes.code(np.dtype(np.uint64))
    assert g.integers((100,), u64, 2**63, 2**64, False).dtype == np.uint64


def test_eye_negative_dimensions_from_the_core():
    for args in [(-1, -1, 0), (3, -2, 0)]:
        with pytest.raises(ValueError, match="^negative dimensions are not allowed$"):
            _core.eye(*args, nt._dtypes.code(np.dtype(np.float64)))
    assert _raised(lambda: nt.eye(3, M=-1)) == _raised(lambda: np.eye(3, M=-1))
    assert _raised(lambda: nt.eye(-1)) == _raised(lambda: np.eye(-1))


def test_negative_dimensions_in_numpys_order():
    # NumPy checks dimension by dimension: a product too big comes first
    for shape in [(2**62, 2**62, -1), (-1, 2**62, 2**62), (3, -1), (0, -1)]:
        for f in ('empty', 'zeros', 'ones'):
            want = _raised(lambda: getattr(np, f)(shape))
            assert want[0] is ValueError
            assert _raised(lambda: getattr(nt, f)(shape)) == want, (f, shape)
    assert _raised(lambda: nt.full((2, -3), 1.5)) == _raised(lambda: np.full((2, -3), 1.5))


def test_legacy_resolver_type_error_is_plain_type_error():
    # the core's "not supported for the input types" is NumPy's legacy
    # resolver's TypeError; a forbidden cast is a UFuncTypeError
    op = _core.UFUNC_NAMES.index('bitwise_and')
    a = nt.ones(3)
    with pytest.raises(TypeError, match="not supported for the input types") as e:
        _core.apply(op, [a, a])
    assert type(e.value) is TypeError
    with pytest.raises(np._core._exceptions.UFuncTypeError):
        a._astype(nt._dtypes.code(np.dtype(np.int8)), _core.CASTING_SAFE)
    with pytest.raises(np._core._exceptions.UFuncTypeError):
        _core._raise_status(-6)


def test_deferred_linalg_error_has_numpys_message():
    # a failure inside a task: the core's error carries the op apart, the
    # message is NumPy's alone
    saved = _core.setting_value("NDTILE_INLINE_ELEMS")
    _core.set_inline_elems(0)
    try:
        with pytest.raises(np.linalg.LinAlgError) as e:
            np.asarray(nt.linalg.inv(nt.zeros((3, 3))))
        assert str(e.value) == "Singular matrix"
    finally:
        _core.set_inline_elems(saved)
    with pytest.raises(np.linalg.LinAlgError) as e:
        np.asarray(nt.linalg.inv(nt.zeros((3, 3))))
    assert str(e.value) == "Singular matrix"


def test_axis_errors_as_numpy():
    x = np.ones((2, 3))
    for fn in (lambda m, a: m.sum(a, axis=5), lambda m, a: m.sort(a, axis=-3),
               lambda m, a: m.cumsum(a, axis=2), lambda m, a: m.swapaxes(a, 0, 7),
               lambda m, a: m.diagonal(a, 0, 0, 4)):
        want = _raised(lambda: fn(np, x))
        assert want[0] is np.exceptions.AxisError
        assert _raised(lambda: fn(nt, nt.asarray(x))) == want


def test_casting_constants():
    names = ['no', 'equiv', 'safe', 'same_kind', 'unsafe']
    codes = [getattr(_core, 'CASTING_' + n.upper()) for n in names]
    assert codes == sorted(set(codes))
    assert nt._dtypes.CASTING == dict(zip(names, codes))
    D = nt._dtypes
    for frm, to in [(np.float64, np.int8), (np.int8, np.float64), (np.int64, np.float64),
                    (np.float32, np.float64), (np.complex64, np.float32), (np.bool_, np.uint8)]:
        for n, c in zip(names, codes):
            assert bool(_core.can_cast(D.code(np.dtype(frm)), D.code(np.dtype(to)), c)) == \
                np.can_cast(frm, to, n), (frm, to, n)


def test_reduce_names_from_the_core():
    assert _core.REDUCE_NAMES[:4] == ('sum', 'prod', 'min', 'max')
    for name in _core.REDUCE_NAMES:
        assert hasattr(np, name), name
