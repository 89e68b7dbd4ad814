"""What session 35's conformance runs found (array-api-strict, ...), each
checked against NumPy: values, dtype, exception and aliasing."""
import warnings

import numpy as np
import pytest

import ndtile as nt

# small, and 3000 float64 (24 KB: six 4 KiB tiles in tests; the default
# settings' variants below put them above the inline threshold)
SIZES = [0, 1, 5, 3000]


def _classes(xp, n):
    """Objects with an __array__ that gives xp's array (array-api-strict's
    Array: ndtile's array under `import ndtile as np`): one that honours
    copy=, one that ignores it, one without a copy keyword."""
    class Honours:
        def __init__(self):
            self.a = xp.arange(n, dtype=float)

        def __array__(self, dtype=None, copy=None):
            r = self.a if dtype is None else self.a.astype(dtype)
            return r.copy() if copy else r

    class Ignores(Honours):
        def __array__(self, dtype=None, copy=None):
            return self.a

    class NoCopyKeyword(Honours):
        def __array__(self, dtype=None):
            return self.a if dtype is None else self.a.astype(dtype)

    return Honours, Ignores, NoCopyKeyword


CALLS = [("array", {}), ("array", {"copy": False}), ("array", {"copy": True}),
         ("array", {"copy": None}), ("asarray", {}), ("asarray", {"copy": False}),
         ("asarray", {"copy": True}), ("asarray", {"dtype": float, "copy": False}),
         ("asarray", {"dtype": np.int64, "copy": False}), ("array", {"dtype": np.float32}),
         ("asarray", {"dtype": np.float32}), ("array", {"ndmin": 2, "copy": False})]


def _outcome(xp, cls_index, n, fname, kw):
    """(kind, dtype, values, aliases the object's array, warning categories)"""
    obj = _classes(xp, n)[cls_index]()
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            r = getattr(xp, fname)(obj, **kw)
        except Exception as e:       # noqa: BLE001 - the exception is compared
            return (type(e).__name__, [x.category for x in w])
    shares = np.shares_memory(np.asarray(r), np.asarray(obj.a)) if n else (r is obj.a)
    if n:
        # a write through the result shows whether it is the object's data
        before = float(np.asarray(obj.a).ravel()[0])
        r.reshape(-1)[0] = 99
        shares = float(np.asarray(obj.a).ravel()[0]) != before
    return (type(r) is (np.ndarray if xp is np else nt.ndarray), r.dtype, r.shape,
            np.asarray(r).tolist(), shares, [x.category for x in w])


def _check(n, cls_index, fname, kw):
    assert _outcome(nt, cls_index, n, fname, kw) == _outcome(np, cls_index, n, fname, kw)


@pytest.mark.parametrize("fname,kw", CALLS)
@pytest.mark.parametrize("cls_index", [0, 1, 2])
@pytest.mark.parametrize("n", SIZES)
def test_array_protocol_copy_and_dtype(n, cls_index, fname, kw):
    # NumPy 2 calls __array__(dtype, copy=copy) and trusts it: np.asarray(obj,
    # copy=False) of an object handing back an ndtile array is that array
    # (array-api-strict's test_array_conversion_copy), np.array(obj) of one
    # that copies for copy=True is its copy, not the object's own data
    _check(n, cls_index, fname, kw)


@pytest.mark.default_settings
@pytest.mark.parametrize("fname,kw", CALLS[:8])
@pytest.mark.parametrize("cls_index", [0, 1, 2])
def test_array_protocol_default_settings(cls_index, fname, kw):
    _check(300000, cls_index, fname, kw)


def test_array_protocol_numpy_result_and_errors():
    class Gives:
        def __init__(self, r):
            self.r = r

        def __array__(self, dtype=None, copy=None):
            return self.r

    class Legacy:
        def __array__(self):
            return np.arange(3)

    a = np.arange(5.0)
    r = nt.asarray(Gives(a))
    assert type(r) is nt.ndarray and r.tolist() == a.tolist()
    # reading NumPy's array into tiles is a copy: copy=False cannot be met
    with pytest.raises(ValueError):
        nt.asarray(Gives(a), copy=False)
    # a dtype ndtile does not hold: NumPy's array, itself without a copy
    s = np.array(["a", "bc"])
    assert nt.asarray(Gives(s), copy=False) is s
    assert np.asarray(Gives(s), copy=False) is s
    # copy=True: trusted where __array__ takes it (NumPy's result is s)
    assert (nt.array(Gives(s)) is s) == (np.array(Gives(s)) is s)
    # NumPy's errors: not an array, an __array__ that takes no dtype
    for xp in (np, nt):
        with pytest.raises(ValueError, match="not producing an array"):
            xp.asarray(Gives([1, 2]))
        with pytest.raises(TypeError):
            xp.asarray(Legacy(), dtype=float)
        assert xp.asarray(Legacy()).tolist() == [0, 1, 2]


def _setitem(xp, n, key_kind):
    class Gives:
        def __init__(self, a):
            self.a = a

        def __array__(self, dtype=None, copy=None):
            return self.a

    a = xp.zeros(n)
    if key_kind == "ellipsis":
        a[...] = Gives(xp.arange(n) * 1.5)
    elif key_kind == "slice":
        a[1::2] = Gives(xp.arange(n // 2) + 0.25)
    elif key_kind == "mask":
        a[xp.arange(n) % 3 == 0] = Gives(xp.arange((n + 2) // 3) * 2.0)
    else:
        a[xp.arange(n)[::-1]] = Gives(xp.arange(n, dtype=np.int32))
    b = xp.zeros(n, dtype=np.int16)
    b[...] = Gives(xp.arange(n) + 0.75)        # cast as NumPy's setitem casts
    return np.asarray(a).tolist(), np.asarray(b).tolist(), b.dtype


@pytest.mark.parametrize("key_kind", ["ellipsis", "slice", "mask", "fancy"])
@pytest.mark.parametrize("n", [1, 6, 3000])
def test_setitem_of_array_protocol_object(n, key_kind):
    # arr[...] = obj whose __array__ gives an ndtile array raised NumPy's
    # "object __array__ method not producing an array" (NumPy's
    # test___array__copy_once); its __array__ is called once, without copy
    assert _setitem(nt, n, key_kind) == _setitem(np, n, key_kind)


@pytest.mark.default_settings
@pytest.mark.parametrize("key_kind", ["ellipsis", "slice", "mask", "fancy"])
def test_setitem_of_array_protocol_object_default_settings(key_kind):
    assert _setitem(nt, 300000, key_kind) == _setitem(np, 300000, key_kind)


@pytest.mark.parametrize("dt", [np.float64, np.int16])
def test_setitem_array_protocol_called_as_numpy_calls_it(dt):
    def run(xp):
        calls = []

        class Spy:
            def __array__(self, dtype=None, copy=None):
                calls.append((dtype, copy))
                return xp.arange(4.0) + 0.5

        class Legacy:
            def __array__(self):
                return xp.arange(4.0)

        a = xp.zeros(4, dtype=dt)
        a[...] = Spy()
        with pytest.raises(TypeError):       # NumPy passes the dtype
            a[...] = Legacy()
        with pytest.raises(ValueError, match="not producing an array"):
            a[...] = type("Bad", (), {"__array__": lambda self, dtype=None, copy=None: [1]})()
        return calls, a.dtype, np.asarray(a).tolist()
    assert run(nt) == run(np)


def test_array_protocol_deprecation_warning_at_callers_line():
    class NoCopyKeyword:
        def __array__(self, dtype=None):
            return nt.arange(3.0)

    for f in (nt.array, nt.asarray):
        with pytest.warns(DeprecationWarning, match="__array__.*must implement.*'copy'") as w:
            f(NoCopyKeyword(), copy=True)
        assert w[0].filename == __file__
