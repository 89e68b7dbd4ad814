"""What session 36's conformance work found, each checked against NumPy:
values, dtype, shape, exception type, aliasing, and the calls NumPy makes
to an object's __array__."""
import warnings

import numpy as np
import pytest

import ndtile as nt

# small, and 3000 float64 (24 KB: six 4 KiB tiles in tests; the default
# settings' variant puts them above the inline threshold)
SIZES = [0, 1, 5, 3000]


def _protocol_object(xp, n, kind):
    """An object with an __array__ giving xp's array of n float64, and the
    list of the argument tuples it was called with."""
    calls = []
    base = xp.arange(n, dtype=float) * 0.5

    class Full:
        def __array__(self, dtype=None, copy=None):
            calls.append((None if dtype is None else np.dtype(dtype), copy))
            return base if dtype is None else base.astype(dtype)

    class NoCopyKeyword:
        def __array__(self, dtype=None):
            calls.append((None if dtype is None else np.dtype(dtype),))
            return base if dtype is None else base.astype(dtype)

    class NoArguments:
        def __array__(self):
            calls.append(())
            return base

    class NotAnArray:
        def __array__(self, dtype=None, copy=None):
            calls.append((dtype, copy))
            return [1.0] * n

    class Masked:
        def __array__(self, dtype=None, copy=None):
            calls.append((None if dtype is None else np.dtype(dtype), copy))
            return np.ma.masked_array(np.arange(n, dtype=float), mask=np.arange(n) % 2)

    cls = {"full": Full, "nocopy": NoCopyKeyword, "noargs": NoArguments,
           "notarray": NotAnArray, "masked": Masked}[kind]
    return cls(), calls, base


def _writes_through(r, base):
    """Whether r is (a view of) base's memory: a write through r shows."""
    if r.size == 0 or base.size == 0:
        return None
    before = float(np.asarray(base).ravel()[0])
    np.asarray(r).ravel()   # (a NumPy subclass: its own memory)
    r.reshape(-1)[0] = 99
    return float(np.asarray(base).ravel()[0]) != before


def _asany(xp, n, kind, kw):
    obj, calls, base = _protocol_object(xp, n, kind)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            r = xp.asanyarray(obj, **kw)
        except Exception as e:       # noqa: BLE001 - the exception is compared
            return (type(e).__name__, calls, [x.category for x in w])
    kinds = {np.ndarray: "plain", nt.ndarray: "plain", np.ma.MaskedArray: "masked"}
    got = (kinds.get(type(r), type(r).__name__), r.dtype, r.shape, np.asarray(r).tolist(),
           calls, [x.category for x in w])
    return got + (_writes_through(r, base),)


ASANY_CALLS = [{}, {"dtype": np.float32}, {"dtype": np.float64}, {"copy": True},
               {"copy": False}, {"dtype": np.float64, "copy": False},
               {"dtype": np.float32, "copy": False}, {"order": "F"}, {"order": "C", "copy": True}]


@pytest.mark.parametrize("kw", ASANY_CALLS)
@pytest.mark.parametrize("kind", ["full", "nocopy", "noargs", "notarray", "masked"])
@pytest.mark.parametrize("n", SIZES)
def test_asanyarray_array_protocol(n, kind, kw):
    # NumPy 2 calls __array__ once, with dtype when given and copy= when not
    # None (a DeprecationWarning and a call without it for an __array__ that
    # takes no copy keyword), and keeps a NumPy subclass instance it gives
    # (asanyarray called __array__() without them, twice for a bad result)
    assert _asany(nt, n, kind, kw) == _asany(np, n, kind, kw)


@pytest.mark.default_settings
@pytest.mark.parametrize("kw", ASANY_CALLS[:6])
@pytest.mark.parametrize("kind", ["full", "nocopy"])
def test_asanyarray_array_protocol_default_settings(kind, kw):
    assert _asany(nt, 300000, kind, kw) == _asany(np, 300000, kind, kw)


def test_asanyarray_of_an_object_giving_a_subclass_instance():
    class Sub(nt.ndarray):
        pass

    s = nt.arange(6.0).reshape(2, 3).view(Sub)

    class Gives:
        def __array__(self, dtype=None, copy=None):
            return s

    # an ndtile subclass instance __array__ gives stays one, as NumPy's
    # asanyarray keeps a NumPy subclass instance
    assert nt.asanyarray(Gives()) is s
    r = nt.asanyarray(Gives(), order="F")
    assert type(r) is Sub and r.flags.f_contiguous and r.tolist() == s.tolist()
    assert type(nt.asarray(Gives())) is nt.ndarray


@pytest.mark.parametrize("fname", ["may_share_memory", "shares_memory"])
@pytest.mark.parametrize("kind", ["full", "nocopy", "noargs", "notarray", "masked"])
@pytest.mark.parametrize("n", [1, 3000])
def test_share_memory_of_array_protocol_objects(n, kind, fname):
    # __array__ called once and without arguments (NumPy's PyArray_FROM_O);
    # a result that is no array is NumPy's ValueError at once
    def run(xp):
        obj, calls, base = _protocol_object(xp, n, kind)
        try:
            r = (getattr(xp, fname)(obj, base), getattr(xp, fname)(base[1:], obj))
        except Exception as e:       # noqa: BLE001 - the exception is compared
            r = type(e).__name__
        return r, calls
    assert run(nt) == run(np)


def test_array_subok_of_an_object_giving_a_numpy_subclass_instance():
    m = np.ma.masked_array([1.0, 2.0, 3.0], mask=[0, 1, 0])

    class Gives:
        def __array__(self, dtype=None, copy=None):
            return m

    def run(xp):
        out = []
        for kw in ({}, {"subok": True}, {"subok": True, "copy": False},
                   {"subok": True, "dtype": np.float32}):
            r = xp.array(Gives(), **kw)
            out.append((isinstance(r, np.ma.MaskedArray), r is m, r.dtype, np.asarray(r).tolist()))
        r = xp.asarray(Gives())
        out.append((isinstance(r, np.ma.MaskedArray), r is m, r.dtype))
        return out
    assert run(nt) == run(np)


def _asarray_inputs(n):
    base = np.arange(max(n, 1) * 6, dtype=float).reshape(-1, 6)[:max(n, 1)] * 0.5
    return [
        [1.0, 2.0, 3.0][:n], [1, 2, 3, 4][:n], (1, 2)[:n], [[1.5, 2], [3, 4]],
        [True, False][:n], [1 + 2j, 3.0][:n], [[1, 2], [3]] if n == 2 else [[]],
        np.arange(n), np.arange(n, dtype=np.uint16), base, base.T, base.T.copy(order="F"),
        base[:, ::2], base[::-1], np.asfortranarray(base[:, :1]),
        np.arange(n, dtype=">i4"), np.array(["a", "bc"] * n), np.zeros(n, dtype="f2"),
        np.float64(2.5), 3, 2.5, True, 1 + 2j, 2**70, -2**63, 2**64 - 1,
        [nt.arange(3), nt.arange(3)], (nt.ones(2), [1, 2]),
        [np.float32(1.5)] * n, np.array(2.0),
    ]


@pytest.mark.parametrize("n", [0, 1, 2, 3000])
def test_asarray_fast_path_matches_numpy(n):
    # asarray's path for lists, tuples and NumPy arrays with the defaults
    # gives what the general path gives: NumPy's values, dtype, shape and
    # layout; the NumPy array itself for a dtype ndtile does not hold
    for i, x in enumerate(_asarray_inputs(n)):
        try:
            want = np.asarray(x)
        except ValueError as e:
            with pytest.raises(type(e)):
                nt.asarray(x)
            continue
        got = nt.asarray(x)
        assert got.dtype == want.dtype and got.shape == want.shape, i
        assert np.asarray(got).tolist() == want.tolist(), i
        if want.ndim > 1 and want.size and (want.flags.c_contiguous or want.flags.f_contiguous):
            # (a strided NumPy view read into tiles is C-ordered: deviations 1)
            assert got.flags.c_contiguous == want.flags.c_contiguous, i
            assert got.flags.f_contiguous == want.flags.f_contiguous, i
        held = want.dtype.isnative and want.dtype.kind in "biufc" and want.dtype.itemsize > 2 \
            or want.dtype.kind in "biu" and want.dtype.isnative
        # a dtype ndtile holds: a copy in tiles (deviations.md 22), else
        # NumPy's own array (the input itself, as NumPy's asarray gives)
        assert type(got) is (nt.ndarray if held else np.ndarray), i
        if isinstance(x, np.ndarray):
            assert (got is x) == (not held), i
            if held and x.size:
                y = x.copy(order="K")
                got2 = nt.asarray(y)
                y.reshape(-1)[0] = 7
                assert np.asarray(got2).reshape(-1)[0] == x.reshape(-1)[0], i


@pytest.mark.default_settings
def test_asarray_fast_path_default_settings():
    test_asarray_fast_path_matches_numpy(400000)


@pytest.mark.parametrize("n", [0, 1, 2, 3000])
def test_array_fast_path_matches_numpy(n):
    # array() with the defaults: a new array (never the input, nor sharing
    # its memory), NumPy's values, dtype, shape and layout
    for i, x in enumerate(_asarray_inputs(n)):
        try:
            want = np.array(x)
        except ValueError as e:
            with pytest.raises(type(e)):
                nt.array(x)
            continue
        got = nt.array(x)
        assert got is not x and got.dtype == want.dtype and got.shape == want.shape, i
        assert np.asarray(got).tolist() == want.tolist(), i
        if want.ndim > 1 and want.size:
            assert got.flags.c_contiguous == want.flags.c_contiguous, i
            assert got.flags.f_contiguous == want.flags.f_contiguous, i
        if isinstance(x, np.ndarray) and x.size:
            assert not np.shares_memory(np.asarray(got), x), i


def _outer_subclass(xp, n):
    class BadArr1(xp.ndarray):
        def __array_finalize__(self, obj):
            if self.ndim == 3:                      # outer's reshape to 3 dims
                self.shape = self.shape + (1,)

    class BadArr2(xp.ndarray):
        def __array_finalize__(self, obj):
            if isinstance(obj, BadArr2) and self.shape[-1] == 1:
                self.shape = self.shape[::-1]

    class Counts(xp.ndarray):
        calls = []

        def __array_finalize__(self, obj):
            Counts.calls.append(self.shape)

    class OwnReshape(xp.ndarray):
        # NumPy's outer reshapes in C: a Python reshape override is not called
        def reshape(self, *a, **k):
            raise RuntimeError("the subclass's reshape was called")

    out = []
    for cls in (BadArr1, BadArr2, Counts, OwnReshape):
        arr = (xp.arange(2 * n, dtype=float) * 0.5).reshape(2, n).view(cls)
        Counts.calls.clear()
        try:
            r = xp.add.outer(arr, [1, 2])
            out.append((type(r).__name__, r.shape, np.asarray(r).tolist()))
        except TypeError as e:
            out.append((type(e).__name__, str(e)))
        r = xp.multiply.outer([1, 2], arr)
        out.append((type(r).__name__, r.shape, np.asarray(r).tolist(), list(Counts.calls)))
    return out


@pytest.mark.parametrize("n", [1, 3, 3000])
def test_outer_reshapes_a_subclass_first_operand(n):
    # NumPy's outer reshapes its first operand through the subclass
    # (__array_finalize__ runs) and raises TypeError where the class changed
    # the shape (np.matrix's case); ndtile computed on plain views
    assert _outer_subclass(nt, n) == _outer_subclass(np, n)


@pytest.mark.parametrize("shape", [[1.0] * 40, np.ones(40), [1.5] * 70, "x" * 70, "x" * 40,
                                   [2] * 70, (1,) * 65])
def test_shape_length_against_numpys_limit(shape):
    # NumPy checks a shape's length against its own limit (64) before the
    # elements: 33 to 64 floats are a TypeError (the elements), 70 a
    # ValueError; ndtile checked its own limit (32) first
    for f in (lambda xp: xp.zeros(shape), lambda xp: xp.full(shape, 0)):
        with pytest.raises(Exception) as want:
            f(np)
        with pytest.raises(type(want.value)) as got:
            f(nt)
        if isinstance(want.value, ValueError):    # (ndtile's limit may be named)
            assert str(got.value).startswith("maximum supported dimension"), got.value
            assert str(got.value).endswith("found %d" % len(shape)), got.value


class _InterfaceAndArray:
    # NumPy reads __array_interface__ before __array__
    def __init__(self):
        self.a = np.arange(4.0)

    @property
    def __array_interface__(self):
        return self.a.__array_interface__

    def __array__(self, dtype=None, copy=None):
        return np.zeros(4)


class _BufferAndArray(bytearray):
    # and the buffer protocol before __array__
    def __array__(self, dtype=None, copy=None):
        return np.zeros(3)


@pytest.mark.parametrize("make", [_InterfaceAndArray, lambda: _BufferAndArray(b"abc")])
def test_buffer_and_interface_before_array_method(make):
    o = make()
    for f in ("asarray", "array", "asanyarray"):
        want, got = getattr(np, f)(o), getattr(nt, f)(o)
        assert got.dtype == want.dtype and got.shape == want.shape, f
        assert np.asarray(got).tolist() == want.tolist(), f
    base = o.a if isinstance(o, _InterfaceAndArray) else np.frombuffer(o, np.uint8)
    for f in ("may_share_memory", "shares_memory"):
        assert getattr(nt, f)(o, base) == getattr(np, f)(o, base) is True, f
    x = nt.zeros(4 if isinstance(o, _InterfaceAndArray) else 3)
    x[...] = o
    want = np.zeros(x.shape)
    want[...] = o
    assert np.asarray(x).tolist() == want.tolist()
