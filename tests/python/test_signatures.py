"""ndtile's signatures are NumPy's: the parameter names, kinds and
defaults programs call with keywords, and what they forward.

NumPy's reductions default keepdims= and where= to np._NoValue, and code
that wraps them forwards that sentinel (np.sum(a, keepdims=np._NoValue));
ndtile took it for keepdims=True (a wrong shape, silently) and for a
where= mask (a TypeError, or the fallback)."""
import inspect
import os
import tempfile

import numpy as np
import pytest

import ndtile as nt

NV = np._NoValue

_NOVALUE_FUNCTIONS = [
    'sum', 'prod', 'max', 'min', 'amax', 'amin', 'any', 'all', 'mean', 'var', 'std',
    'argmax', 'argmin', 'ptp', 'average', 'nansum', 'nanprod', 'nanmax', 'nanmin', 'nanmean',
    'nanvar', 'nanstd', 'nanargmax', 'nanargmin', 'nanmedian', 'nanpercentile', 'nanquantile',
]


@pytest.mark.parametrize("name", _NOVALUE_FUNCTIONS)
@pytest.mark.parametrize("shape", [(2, 3), (3, 20_000)], ids=["small", "tiles"])
def test_numpys_novalue_defaults_forwarded(name, shape):
    f, g = getattr(nt, name), getattr(np, name)
    x = np.arange(np.prod(shape), dtype=np.float64).reshape(shape) % 7
    extra = (50,) if 'percentile' in name else (0.5,) if 'quantile' in name else ()
    params = inspect.signature(g).parameters
    given = [k for k, p in params.items() if p.default is NV]
    assert given, name
    # ndtile's defaults are NumPy's
    assert {k: p.default for k, p in inspect.signature(f).parameters.items()} == \
        {k: p.default for k, p in params.items()}
    for axis in (None, 1):
        for k in given:
            want = g(x, *extra, axis=axis, **{k: NV})
            got = f(nt.asarray(x), *extra, axis=axis, **{k: NV})
            assert np.shape(got) == np.shape(want), (k, axis)
            np.testing.assert_allclose(np.asarray(got), want, rtol=1e-12)
        want = g(x, *extra, axis=axis, **{k: NV for k in given})
        got = f(nt.asarray(x), *extra, axis=axis, **{k: NV for k in given})
        assert np.shape(got) == np.shape(want)


# Module-level differences left, each NumPy's text signature saying other
# than NumPy's code does, or ndtile's taking more:
_KNOWN = {
    'array': 'ndmax: NumPy says 0, its code limits nothing unless given',
    'where': "x, y: NumPy says None, its code takes None for a value",
    'fromiter': "dtype: _NoValue in ndtile, for NumPy's own error message when missing",
    'empty_like': "prototype: NumPy's code takes it by keyword too",
    'einsum': "dtype, order, casting written out (NumPy's **kwargs)",
    'frompyfunc': "identity written out (NumPy's **kwargs)",
    'random.multivariate_normal': "method= taken (Generator's) by the legacy function too",
    'RandomState.multivariate_normal': "method= taken (Generator's) by the legacy method too",
    'random.ranf': "size= written out (NumPy's *args, **kwargs alias)",
    'random.sample': "size= written out (NumPy's *args, **kwargs alias)",
}


def _sig(f):
    try:
        return inspect.signature(f)
    except (ValueError, TypeError):
        return None


def _params(s):
    return [(p.name, p.kind, p.default) for p in s.parameters.values()]


def test_public_function_signatures_are_numpys():
    seen = []
    for npmod, ntmod, prefix in ((np, nt, ''), (np.linalg, nt.linalg, 'linalg.'),
                                 (np.fft, nt.fft, 'fft.'), (np.random, nt.random, 'random.'),
                                 (np.random.RandomState, nt.random.RandomState, 'RandomState.'),
                                 (np.random.Generator, nt.random.Generator, 'Generator.')):
        for name in sorted(dir(npmod)):
            if name.startswith('_'):
                continue
            a, b = getattr(npmod, name, None), vars(ntmod).get(name) if isinstance(
                ntmod, type(np)) else getattr(ntmod, name, None)
            if b is None or a is b or not callable(a) or isinstance(a, type):
                continue
            sa = _sig(a)
            if sa is None:
                continue
            sb = _sig(b)
            if sb is None or _params(sa) != _params(sb):
                seen.append(prefix + name)
    assert sorted(seen) == sorted(_KNOWN), sorted(set(seen) ^ set(_KNOWN))


def test_ndarray_method_signatures_are_numpys():
    # every method NumPy gives a text signature shows NumPy's (sum's
    # **kwargs, take's positional-only indices, __contains__'s key, ...);
    # NumPy's own test compares them with np.generic's
    n = 0
    for name in dir(np.ndarray):
        m = getattr(np.ndarray, name)
        if not callable(m) or getattr(m, '__text_signature__', None) is None or \
                name in ('__class_getitem__', '__new__'):     # (ndtile's written out)
            continue
        want = _sig(m)
        if want is None:
            continue
        assert _sig(getattr(nt.ndarray, name)) == want, name
        n += 1
    assert n > 50
    # bound: self dropped, as NumPy's
    a = nt.arange(3.0)
    assert inspect.signature(a.sum) == inspect.signature(np.arange(3.0).sum)


def test_keywords_numpys_c_methods_take():
    # tofile's keyword is file (NumPy's text signature says fid, its code
    # takes file); min_scalar_type's argument is positional only
    a, na = nt.arange(4.0), np.arange(4.0)
    with tempfile.TemporaryDirectory() as d:
        p, q = os.path.join(d, 'a'), os.path.join(d, 'b')
        a.tofile(file=p)
        na.tofile(file=q)
        if nt.nranks() == 1:        # (on ranks rank 0 writes, to its own temporary folder)
            assert open(p, 'rb').read() == open(q, 'rb').read()
        for x in (a, na):
            with pytest.raises(TypeError):
                x.tofile(fid=p)
    for m in (nt, np):
        with pytest.raises(TypeError):
            m.min_scalar_type(a=3)
    assert nt.min_scalar_type(300) == np.min_scalar_type(300)
    b = np.arange(3.0).tobytes()
    for kw in ({}, {'dtype': None}):
        got, want = nt.frombuffer(b, **kw), np.frombuffer(b, **kw)
        assert got.dtype == want.dtype and (np.asarray(got) == want).all()
    for m in (nt, np):
        assert m.shares_memory(m.arange(3), m.arange(3), max_work=None) is False
        x = m.arange(6)
        assert m.may_share_memory(x[:3], x[2:], max_work=None) is True


def test_ufunc_reduce_and_clip_of_a_novalue_where(native_only):
    # NumPy's ufunc.reduce reads where=np._NoValue as a mask (True): the
    # sum, and maximum's ValueError without initial= (ndtile raised
    # _Unsupported); clip passes it to its ufunc (ndtile fell back)
    for m in (nt, np):
        x = m.arange(6.0).reshape(2, 3)
        assert m.add.reduce(x, axis=1, where=NV).tolist() == [3.0, 12.0]
        assert float(m.maximum.reduce(x, axis=None, where=NV, initial=1)) == 5.0
        with pytest.raises(ValueError, match="does not have an identity"):
            m.maximum.reduce(x, where=NV)
        assert m.clip(x, 1, 2, where=NV).tolist() == [[1, 1, 2], [2, 2, 2]]
        assert x.clip(1, 2, where=NV).tolist() == [[1, 1, 2], [2, 2, 2]]
