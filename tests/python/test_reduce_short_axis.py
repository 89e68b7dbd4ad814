"""Reductions over a short axis of arrays of many tiles, against NumPy.

Each combine task of such a reduction reads only the box of the input its
result elements need (reduce.c's combine_box: the columns of its elements
from every row), and names only the tiles of that box (NDT_OPND_VIEW). A
box too narrow would be a silent wrong result under deferred execution:
these cases read inputs written by deferred tasks just before, and write
the input right after, so a combine that missed a tile it reads would see
the old or the new values. Values are small integers: float sums are exact
in any order, every comparison is exact."""
import numpy as np
import pytest

import ndtile as nt
from _helpers import assert_same, make

# (shape, axis): a short reduced axis before long kept ones (the direct
# fold), a short kept axis after a long reduced one (partials), the reduced
# axis in the middle, and more than one reduced axis
CASES = [((4, 5000), 0), ((3, 7001), 0), ((5000, 3), 1), ((2, 3, 2500), (0, 1)),
         ((1200, 2, 7), 1), ((3, 900, 5), 0), ((6, 5, 400), (0, 2)), ((2, 40000), 0),
         ((40000, 2), 1), ((3, 4, 1000), 1)]
IDS = [f"{s}-{a}" for s, a in CASES]
DTYPES = ['float64', 'int64', 'complex128', 'float32', 'int8', 'bool']


def _ints(dt, shape, seed):
    """make's values rounded: small integers in every dtype."""
    a = make(np.dtype(dt), shape, seed)
    return np.round(a) if a.dtype.kind in 'fc' else a


def _pair(dt, shape, seed=0):
    a = _ints(dt, shape, seed)
    return nt.asarray(a), a


def _check(got, exp):
    assert_same(got, exp)


@pytest.mark.parametrize("shape,axis", CASES, ids=IDS)
@pytest.mark.parametrize("dt", DTYPES)
def test_sum_max_short_axis(shape, axis, dt):
    x, a = _pair(dt, shape, 1)
    for name in ('sum', 'max', 'min'):
        _check(getattr(x, name)(axis=axis), getattr(a, name)(axis=axis))
        _check(getattr(x, name)(axis=axis, keepdims=True),
               getattr(a, name)(axis=axis, keepdims=True))
    if dt == 'bool':
        _check(x.any(axis=axis), a.any(axis=axis))
        _check(x.all(axis=axis), a.all(axis=axis))


@pytest.mark.parametrize("shape,axis", [c for c in CASES if isinstance(c[1], int)],
                         ids=[i for c, i in zip(CASES, IDS) if isinstance(c[1], int)])
@pytest.mark.parametrize("dt", ['float64', 'int32', 'complex128', 'bool'])
def test_argmax_argmin_short_axis(shape, axis, dt):
    x, a = _pair(dt, shape, 2)
    _check(x.argmax(axis=axis), a.argmax(axis=axis))
    _check(x.argmin(axis=axis), a.argmin(axis=axis))
    _check(np.argmax(x, axis=axis, keepdims=True), np.argmax(a, axis=axis, keepdims=True))


# views with steps (negative too), transposes (the reduced axis with the
# smallest stride: line sums), and a slice that starts inside a tile
VIEWS = [lambda a: a[::2, ::3], lambda a: a[::-1, ::-2], lambda a: a[1:, 1:-1],
         lambda a: a.T, lambda a: a[:, ::-1].T, lambda a: a[:, 1::2].T]


@pytest.mark.parametrize("view", range(len(VIEWS)))
@pytest.mark.parametrize("shape", [(4, 6001), (6, 3001), (3001, 4)])
def test_views_with_steps(view, shape):
    a = _ints('float64', shape, 3)
    x = nt.asarray(a)
    v, w = VIEWS[view](x), VIEWS[view](a)
    for axis in (0, 1):
        for name in ('sum', 'max', 'argmin', 'prod'):
            if name == 'prod':
                _check(np.prod(nt.sign(v), axis=axis), np.prod(np.sign(w), axis=axis))
            else:
                _check(getattr(v, name)(axis=axis), getattr(w, name)(axis=axis))
    _check(v.astype(np.int64).sum(axis=0), w.astype(np.int64).sum(axis=0))


@pytest.mark.parametrize("shape,axis", [((4, 5000), 0), ((5000, 3), 1), ((3, 4, 1000), (0, 2))])
def test_out_where_initial(shape, axis):
    x, a = _pair('float64', shape, 4)
    m = make(np.dtype('bool'), shape, 5)
    xm = nt.asarray(m)
    rshape = np.sum(a, axis=axis).shape
    o_nt, o_np = nt.zeros(rshape), np.zeros(rshape)
    r = nt.sum(x, axis=axis, out=o_nt)
    assert r is o_nt
    np.sum(a, axis=axis, out=o_np)
    _check(o_nt, o_np)
    _check(nt.sum(x, axis=axis, where=xm), np.sum(a, axis=axis, where=m))
    _check(nt.max(x, axis=axis, where=xm, initial=-3.0),
           np.max(a, axis=axis, where=m, initial=-3.0))
    _check(nt.sum(x, axis=axis, initial=5.0), np.sum(a, axis=axis, initial=5.0))
    _check(nt.min(x, axis=axis, initial=-2.0, keepdims=True),
           np.min(a, axis=axis, initial=-2.0, keepdims=True))
    _check(nt.mean(x, axis=axis), np.mean(a, axis=axis))
    # out= a strided view of a bigger array
    big_nt, big_np = nt.zeros((2,) + rshape), np.zeros((2,) + rshape)
    nt.max(x, axis=axis, out=big_nt[1])
    np.max(a, axis=axis, out=big_np[1])
    _check(big_nt, big_np)


@pytest.mark.parametrize("shape,axis", [((4, 6000), 0), ((6000, 3), 1), ((2, 3, 2000), (0, 1)),
                                        ((3, 5000), 0)])
@pytest.mark.parametrize("name", ['sum', 'max', 'argmax'])
def test_ordered_with_writes(shape, axis, name):
    """The input written by deferred tasks just before, and again right
    after: each combine sees every write before it and none after."""
    if name == 'argmax' and isinstance(axis, tuple):
        axis = axis[0]
    a = _ints('float64', shape, 6)
    y = nt.asarray(a)
    for k in range(6):
        x = y * 2 + k                 # deferred: every tile written just now
        r = getattr(x, name)(axis=axis)
        x[...] = -1.0                 # deferred: written right after
        x[:, 1::3] = 7.0
        exp = getattr(a * 2 + k, name)(axis=axis)
        _check(r, exp)
    # the written array reduced again: the writes' values
    z = nt.asarray(a)
    r1 = z.sum(axis=axis)
    z[...] = 3.0
    r2 = z.sum(axis=axis)
    _check(r1, a.sum(axis=axis))
    _check(r2, np.full_like(a, 3.0).sum(axis=axis))


def test_reduce_into_own_input():
    """The result written into a row of its own input right after (deferred),
    then the input reduced again: the second reduction sees the write."""
    a = _ints('int64', (4, 5000), 7)
    x = nt.asarray(a)
    s_nt, s_np = x.sum(axis=0), a.sum(axis=0)
    x[0] = s_nt                        # deferred write of the result into the input
    a[0] = s_np
    _check(x.max(axis=0), a.max(axis=0))
    _check(x, a)


@pytest.mark.default_settings
@pytest.mark.parametrize("shape,axis", [((4, 1 << 20), 0), ((1 << 19, 3), 1),
                                        ((2, 3, 1 << 18), (0, 1))])
def test_default_settings_short_axis(shape, axis):
    x, a = _pair('float64', shape, 8)
    for name in ('sum', 'max', 'min', 'mean'):
        _check(getattr(x, name)(axis=axis), getattr(a, name)(axis=axis))
    ax = axis if isinstance(axis, int) else axis[0]
    _check(x.argmax(axis=ax), a.argmax(axis=ax))
    r = x.sum(axis=axis)
    x[...] = 1.0
    _check(r, a.sum(axis=axis))
    _check(x.sum(axis=axis), np.ones_like(a).sum(axis=axis))
