"""The array API standard: the inspection namespace, the version,
boolean masks with zero-size axes (reads and writes), and what the
conformance suite (tools/array_api_suite.py) found, against NumPy."""
import numpy as np
import pytest

import ndtile as nt


def test_array_api_version_and_namespace():
    assert nt.__array_api_version__ == np.__array_api_version__
    x = nt.arange(3)
    assert x.__array_namespace__() is nt
    assert x.__array_namespace__(api_version=None) is nt


@pytest.mark.parametrize("version", ["2021.12", "2022.12", "2023.12", "2024.12", "2025.12",
                                     "2020.12", "", 2024.12, 1, b"2024.12"])
def test_namespace_api_version_checked_as_numpy(version):
    # a version NumPy does not implement, or one that is not a string, is NumPy's
    # ValueError (ndtile took any); the message is NumPy's too
    x, a = nt.arange(3), np.arange(3)
    try:
        a.__array_namespace__(api_version=version)
    except ValueError as e:
        with pytest.raises(ValueError) as got:
            x.__array_namespace__(api_version=version)
        assert str(got.value) == str(e)
    else:
        assert x.__array_namespace__(api_version=version) is nt


def test_namespace_info_matches_numpy():
    info, ref = nt.__array_namespace_info__(), np.__array_namespace_info__()
    caps = info.capabilities()
    assert caps["boolean indexing"] and caps["data-dependent shapes"]
    # ndtile's own limit (NDT_MAXDIMS): arrays of that many axes work, one more fails
    assert caps["max dimensions"] == 32
    assert nt.zeros((1,) * 32).ndim == 32
    with pytest.raises(ValueError):
        nt.zeros((1,) * 33)
    assert info.default_device() == ref.default_device() == 'cpu'
    assert info.devices() == ref.devices()
    assert x_device() in info.devices()
    assert info.default_dtypes() == ref.default_dtypes()
    assert info.default_dtypes(device='cpu') == ref.default_dtypes(device='cpu')
    for kind in (None, 'bool', 'signed integer', 'unsigned integer', 'integral',
                 'real floating', 'complex floating', 'numeric',
                 ('bool', 'real floating'), ('integral', 'signed integer')):
        assert info.dtypes(kind=kind) == ref.dtypes(kind=kind), kind
        assert list(info.dtypes(kind=kind)) == list(ref.dtypes(kind=kind)), kind
    for bad in ('foo', ('bool', 'foo')):
        with pytest.raises(ValueError, match="unsupported kind"):
            info.dtypes(kind=bad)
        with pytest.raises(ValueError):
            ref.dtypes(kind=bad)
    for f in (info.dtypes, info.default_dtypes):
        with pytest.raises(ValueError, match="Device not understood"):
            f(device='gpu')
    # every dtype it lists is one ndtile arrays hold
    for dt in info.dtypes().values():
        assert nt.zeros(2, dtype=dt).dtype == dt


def x_device():
    return nt.arange(2).device


def _outcome(f, mod):
    try:
        r = f(mod)
    except Exception as e:       # the exception class and message are part of the contract
        return type(e), str(e)
    r = np.array(r)
    return r.dtype, r.shape, r.tolist()


READS = [
    ((0, 3), lambda m: m.zeros((0, 3), bool)),
    ((0, 3), lambda m: np.zeros((0, 3), bool)),       # a NumPy mask
    ((2, 0), lambda m: m.zeros((2, 0), bool)),
    ((2, 0, 3), lambda m: m.zeros((2, 0), bool)),
    ((2, 0, 3), lambda m: m.ones((2,), bool)),
    ((3, 0), lambda m: m.ones((3,), bool)),
    ((0,), lambda m: m.zeros((0,), bool)),
    ((), lambda m: m.zeros((), bool)),
    ((), lambda m: m.ones((), bool)),
    ((0, 3), lambda m: m.ones((), bool)),
    ((0, 3), lambda m: m.zeros((), bool)),
    ((2, 3), lambda m: m.zeros((), bool)),
    ((4, 0, 2), lambda m: m.asarray(np.array([1, 0, 1, 1], bool))),
    ((0, 3), lambda m: m.zeros((3,), bool)),           # wrong axis: IndexError
    ((2, 0), lambda m: m.zeros((0, 2), bool)),         # wrong shape: IndexError
    # an empty mask axis matches an axis of any length (NumPy, the standard)
    ((1,), lambda m: m.zeros((0,), bool)),
    ((2, 3), lambda m: m.zeros((0,), bool)),
    ((2, 3), lambda m: m.zeros((0, 0), bool)),
    ((2, 3), lambda m: m.zeros((2, 0), bool)),
    ((1, 3), lambda m: m.zeros((1, 0), bool)),
    ((2, 3), lambda m: m.zeros((0, 2), bool)),          # IndexError names axis 1
    ((2, 3), lambda m: m.zeros((1, 0), bool)),          # IndexError names axis 0
    ((2, 3, 4), lambda m: m.zeros((0, 5), bool)),
]


@pytest.mark.parametrize("case", range(len(READS)))
def test_boolean_mask_reads_with_zero_size_axes(case):
    shape, mask = READS[case]

    def f(m):
        a = m.arange(int(np.prod(shape)), dtype=m.float64).reshape(shape)
        return a[mask(m)]
    assert _outcome(f, nt) == _outcome(f, np)


@pytest.mark.parametrize("case", range(len(READS)))
def test_boolean_mask_reads_after_other_indices(case):
    shape, mask = READS[case]
    if len(shape) < 1:
        return

    def f(m):
        a = m.arange(int(np.prod(shape)) * 2, dtype=m.int32).reshape((2,) + shape)
        return a[1, mask(m)] if mask(m).ndim else a[..., mask(m)]
    assert _outcome(f, nt) == _outcome(f, np)


WRITES = [
    ((0, 3), lambda m: m.zeros((0, 3), bool), 1.0),
    ((0, 3), lambda m: m.zeros((0, 3), bool), lambda m: m.zeros((0,))),
    ((2, 0), lambda m: m.zeros((2, 0), bool), 5),
    ((2, 3), lambda m: m.zeros((2, 3), bool), lambda m: m.zeros((0,))),
    ((2, 3), lambda m: m.zeros((2, 3), bool), lambda m: m.zeros((1,))),
    ((2, 3), lambda m: m.zeros((2, 3), bool), lambda m: m.zeros((2,))),  # NumPy's ValueError
    ((2, 3), lambda m: m.asarray(np.eye(2, 3, dtype=bool)), lambda m: m.arange(3.0)),
    ((2, 3), lambda m: m.asarray(np.eye(2, 3, dtype=bool)), lambda m: m.ones((1, 2))),
    ((2, 0, 3), lambda m: m.ones((2,), bool), 7),
    ((2, 0, 3), lambda m: m.zeros((2, 0), bool), 7),
    ((), lambda m: m.zeros((), bool), 7),
    ((), lambda m: m.ones((), bool), 7),
    ((0,), lambda m: m.ones((), bool), 7),
    ((2, 3), lambda m: m.ones((), bool), 7),
    ((2, 3), lambda m: m.ones((), bool), lambda m: m.arange(3.0)),
    ((3,), lambda m: m.zeros((3,), bool), lambda m: m.arange(3.0)[:0]),
    ((3, 0), lambda m: m.ones((3,), bool), lambda m: m.zeros((0,))),
    ((1,), lambda m: m.zeros((0,), bool), 3),
    ((2, 3), lambda m: m.zeros((0,), bool), lambda m: m.zeros((0, 3))),
    ((2, 3), lambda m: m.zeros((2, 0), bool), 3),
    ((2, 3), lambda m: m.zeros((0, 2), bool), 3),
]


@pytest.mark.parametrize("case", range(len(WRITES)))
def test_boolean_mask_writes_with_zero_size_axes(case):
    shape, mask, value = WRITES[case]

    def f(m):
        a = m.zeros(shape)
        a[mask(m)] = value(m) if callable(value) else value
        return a
    got, exp = _outcome(f, nt), _outcome(f, np)
    assert got == exp


def test_boolean_mask_write_count_mismatch_message():
    for m in (np, nt):
        a = m.zeros((2, 3))
        with pytest.raises(ValueError, match="cannot assign 2 input values to the 0 output"):
            a[m.zeros((2, 3), bool)] = m.zeros((2,))
        with pytest.raises(ValueError, match="cannot assign 2 input values to the 3 output"):
            a[m.asarray(np.array([[1, 0, 1], [0, 1, 0]], bool))] = m.asarray([1.0, 2.0])


def test_arange_signature_is_numpys():
    # array-api-tests' test_func_signature reads it; the body also takes every
    # argument by name, as NumPy's does
    import inspect
    got = inspect.signature(nt.arange)
    want = inspect.signature(np.arange)
    assert [(p.name, p.kind) for p in got.parameters.values()] == \
        [(p.name, p.kind) for p in want.parameters.values()]
    assert np.array_equal(np.asarray(nt.arange(start=2, stop=5)), np.arange(start=2, stop=5))


@pytest.mark.parametrize("dt", [np.bool_, np.int8, np.uint64, np.float32, np.complex128])
def test_nonzero_of_0d_is_numpys_error_without_fallback(dt, native_only):
    # array-api-tests' test_nonzero_zerodim_error: NumPy's ValueError, raised by
    # ndtile itself (it fell back to NumPy, with its warning, to raise it)
    a = np.zeros((), dt)
    with pytest.raises(ValueError) as exp:
        np.nonzero(a)
    for call in (nt.nonzero, lambda x: x.nonzero()):
        with pytest.raises(ValueError) as got:
            call(nt.asarray(a))
        assert str(got.value) == str(exp.value)
    # a 1-d array is still ndtile's (no fallback)
    for g, e in zip(nt.nonzero(nt.asarray([0, 3, 0, 1])), np.nonzero(np.array([0, 3, 0, 1]))):
        assert np.array_equal(np.asarray(g), e) and g.dtype == e.dtype
