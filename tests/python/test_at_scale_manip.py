"""Joining, splitting, reshaping and view functions, astype, roll/tile/
repeat/pad at default settings (2 MiB tiles) on arrays of several tiles;
views checked for aliasing by writing through them. Compared with NumPy
doing the same steps."""
import numpy as np
import pytest

import ndtile as nt
from _helpers import DTYPES, NAMES, ABOVE_INLINE, n_tiles, make, assert_big, same_view_effect

pytestmark = pytest.mark.default_settings

SHAPE = (613, 1009)


def _both(dt, shape, seed):
    a = make(dt, shape, seed)
    return a, nt.asarray(a)


@pytest.mark.parametrize("dt", [np.float64, np.int8, np.complex128, np.bool_, np.uint32])
def test_join(dt):
    (a, x), (b, y), (c, z) = (_both(dt, SHAPE, s) for s in range(3))
    for axis in (0, 1, -1, None):
        assert_big(nt.concatenate([x, y, z], axis=axis), np.concatenate([a, b, c], axis=axis))
    assert_big(nt.concatenate([x[::-1], y[:, :300]], axis=1),
               np.concatenate([a[::-1], b[:, :300]], axis=1))
    for axis in (0, 1, 2, -1):
        assert_big(nt.stack([x, y, z], axis=axis), np.stack([a, b, c], axis=axis))
    for name in ('hstack', 'vstack', 'dstack', 'column_stack'):
        assert_big(getattr(nt, name)([x, y[::-1]]), getattr(np, name)([a, b[::-1]]))
    r1, r2 = a.ravel(), b.ravel()
    assert_big(nt.column_stack([x.ravel(), y.ravel()]), np.column_stack([r1, r2]))
    assert_big(nt.hstack([x.ravel(), y.ravel()]), np.hstack([r1, r2]))
    o = np.zeros((3 * SHAPE[0], SHAPE[1]), dt)
    ox = nt.asarray(o)
    np.concatenate([a, b, c], out=o)
    nt.concatenate([x, y, z], out=ox)
    assert_big(ox, o)
    # mixed dtypes promote
    f = make(np.float32, SHAPE, 4)
    assert_big(nt.concatenate([x, nt.asarray(f)]), np.concatenate([a, f]))
    assert_big(nt.block([[x, y], [z, x]]), np.block([[a, b], [c, a]]))


@pytest.mark.parametrize("dt", [np.float64, np.int16, np.complex64])
def test_split(dt):
    a, x = _both(dt, SHAPE, 5)
    for fn in ('split', 'array_split'):
        for spec, axis in ((1, 0), ([100, 300, 300, 600], 0), ([7, 500], 1), ([-5], 1)):
            got, exp = getattr(nt, fn)(x, spec, axis=axis), getattr(np, fn)(a, spec, axis=axis)
            assert len(got) == len(exp)
            for g, e in zip(got, exp):
                assert_big(g, e)
    for g, e in zip(nt.array_split(x, 7, axis=1), np.array_split(a, 7, axis=1)):
        assert_big(g, e)
    for name in ('hsplit', 'vsplit'):
        for g, e in zip(getattr(nt, name)(x, [3, 200]), getattr(np, name)(a, [3, 200])):
            assert_big(g, e)
    d = a[:600].reshape(300, 2, -1)
    for g, e in zip(nt.dsplit(nt.asarray(d), [100, 101]), np.dsplit(d, [100, 101])):
        assert_big(g, e)
    # the pieces are views: writes reach the base
    b = a.copy()
    y = nt.asarray(b)
    pe, pg = np.split(b, [100, 300]), nt.split(y, [100, 300])
    same_view_effect(y, b, pg[1], pe[1])
    same_view_effect(y, b, pg[2][::-5], pe[2][::-5], value=3)


@pytest.mark.parametrize("dt", [np.float64, np.int32, np.complex128, np.bool_])
def test_reshape_views_and_copies(dt):
    a, _ = _both(dt, SHAPE, 6)
    cases = [
        lambda v: v.reshape(1009, 613),
        lambda v: v.reshape(-1),
        lambda v: v.reshape(613, 1009, 1)[..., 0],
        lambda v: v.ravel(),
        lambda v: v.T,
        lambda v: v.transpose(1, 0),
        lambda v: v.swapaxes(0, 1),
        lambda v: np.moveaxis(v, 0, -1) if isinstance(v, np.ndarray) else nt.moveaxis(v, 0, -1),
        lambda v: v[::-1].reshape(-1),            # a copy in both
        lambda v: v.T.ravel(),                    # a copy in both
        lambda v: v.T.reshape(-1, 613),           # a copy in both
        lambda v: v[:, ::2].reshape(613, -1, 5)[:, 3],     # a view of a stepped view
        lambda v: v.reshape(613, 1009)[::-2, 1::3].T,
        lambda v: v.flatten(),                    # always a copy
        lambda v: v.squeeze(),
        lambda v: v[None, :, None],
        lambda v: v.reshape(613, 1009, 1).squeeze(-1),
    ]
    for i, case in enumerate(cases):
        b = a.copy()
        x = nt.asarray(b)
        assert_big(case(x), case(b))
        same_view_effect(x, b, case(x), case(b))
    m = a.reshape(613, 1009)
    assert_big(nt.expand_dims(nt.asarray(m), (0, 2)), np.expand_dims(m, (0, 2)))
    assert_big(nt.atleast_3d(nt.asarray(m)), np.atleast_3d(m))
    t = a[:612].reshape(4, 153, 1009)
    y = nt.asarray(t)
    for axes in ((2, 0, 1), (1, 2, 0), None):
        assert_big(nt.transpose(y, axes), np.transpose(t, axes))
    assert_big(nt.moveaxis(y, [0, 1], [-1, 0]), np.moveaxis(t, [0, 1], [-1, 0]))
    assert_big(nt.swapaxes(y, 0, 2).reshape(-1), np.swapaxes(t, 0, 2).reshape(-1))
    # the writes through a transposed view land, and a later read sees them
    b = t.copy()
    z = nt.asarray(b)
    b.transpose(2, 0, 1)[5:9] = -1
    z.transpose(2, 0, 1)[5:9] = -1
    b.swapaxes(0, 1)[::7] *= b.swapaxes(0, 1)[::-7]
    z.swapaxes(0, 1)[::7] *= z.swapaxes(0, 1)[::-7]
    assert_big(z.sum(axis=0), b.sum(axis=0))
    assert_big(z, b)


@pytest.mark.parametrize("src", DTYPES, ids=NAMES)
def test_astype(src):
    n = n_tiles(src, 1.3)
    a = make(src, n, 7, lo=-300, hi=300)
    x = nt.asarray(a)
    for dst in DTYPES:
        if src.kind == 'c' and dst.kind not in 'c':
            with np.errstate(all='ignore'):
                import warnings
                with warnings.catch_warnings():
                    warnings.simplefilter('ignore')
                    exp = a.astype(dst)
                    got = x.astype(dst)
        elif src.kind == 'f' and dst.kind in 'iu':
            b = np.trunc(a)
            if dst.kind == 'u':
                b = np.abs(b)
            b = b[np.abs(b) < np.iinfo(dst).max].astype(src)[: ABOVE_INLINE + 5]
            exp, got = b.astype(dst), nt.asarray(b).astype(dst)
        else:
            exp, got = a.astype(dst), x.astype(dst)
        assert_big(got, exp)
    assert_big(x[::-3].astype(np.float64), a[::-3].astype(np.float64))
    # copy=False returns the array itself for the same dtype
    assert x.astype(src, copy=False) is x
    c = x.astype(src)
    c[0] = c[1]
    assert_big(x, a)


@pytest.mark.parametrize("dt", [np.float64, np.int8, np.complex64])
def test_roll_tile_repeat_pad_flip(dt):
    a, x = _both(dt, SHAPE, 8)
    for shift, axis in ((12345, None), (-7, 0), (500, 1), ((3, -5), (0, 1)), (10 ** 7, None)):
        assert_big(nt.roll(x, shift, axis=axis), np.roll(a, shift, axis=axis))
    r = a[:40, :1009]
    y = nt.asarray(r)
    for reps in (3, (2, 1), (1, 3), (2, 2, 2)):
        assert_big(nt.tile(y, reps), np.tile(r, reps))
    for reps, axis in ((3, None), (2, 0), (3, 1)):
        assert_big(nt.repeat(y, reps, axis=axis), np.repeat(r, reps, axis=axis))
    cnt = make(np.int64, 40, 9, lo=0, hi=4)
    assert_big(nt.repeat(y, nt.asarray(cnt), axis=0), np.repeat(r, cnt, axis=0))
    for mode in ('constant', 'edge', 'reflect', 'symmetric', 'wrap'):
        for width in (3, ((2, 700), (0, 11))):
            assert_big(nt.pad(x, width, mode=mode), np.pad(a, width, mode=mode))
    assert_big(nt.pad(x, 5, constant_values=7), np.pad(a, 5, constant_values=7))
    for axis in (None, 0, 1):
        assert_big(nt.flip(x, axis), np.flip(a, axis))
    assert_big(nt.rot90(x), np.rot90(a))
    assert_big(nt.rot90(x, -1), np.rot90(a, -1))
    b = a.copy()
    z = nt.asarray(b)
    same_view_effect(z, b, nt.flip(z, 0)[:10], np.flip(b, 0)[:10])
    same_view_effect(z, b, nt.rot90(z)[5:300:3], np.rot90(b)[5:300:3], value=2)
