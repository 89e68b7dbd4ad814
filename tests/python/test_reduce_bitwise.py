"""bitwise_and/or/xor.reduce and logical_xor.reduce run as the core's tiled
reductions (NDT_RED_BITWISE_*, NDT_RED_LOGICAL_XOR), not a NumPy call on
gathered data: NumPy's values, dtype and shape over dtypes, axes,
keepdims, where=, initial=, out=, empty inputs and arrays of many tiles
(the suite's 4 KiB tiles), and at default settings in a subprocess.
(test_reduce_loops.py sweeps their loop dtypes against out= and dtype=;
tests/mpi/ops.py runs them on 1 to 4 ranks.)"""
import os
import subprocess
import sys

import numpy as np
import pytest

import ndtile as nt

OPS = ['bitwise_and', 'bitwise_or', 'bitwise_xor', 'logical_xor']
DTYPES = ['bool', 'int8', 'uint8', 'int16', 'uint16', 'int32', 'uint32', 'int64', 'uint64']


def _data(dt, shape, seed):
    rng = np.random.default_rng(seed)
    if dt == 'bool':
        return rng.random(shape) < 0.5
    info = np.iinfo(dt)
    return rng.integers(info.min, info.max, shape, dtype=dt, endpoint=True)


def same(got, want):
    got = np.asarray(got)
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, want.dtype,
                                                                 got.shape, want.shape)
    assert got.tobytes() == want.tobytes()


@pytest.mark.parametrize('op', OPS)
@pytest.mark.parametrize('dt', DTYPES)
def test_axes_keepdims_many_tiles(op, dt):
    a = _data(dt, (37, 11, 29), DTYPES.index(dt))      # 1 to 8 bytes: 3 to 23 tiles
    x = nt.asarray(a)
    un, ut = getattr(np, op), getattr(nt, op)
    for axis in (None, 0, 1, 2, -1, (0, 2), (1, 2), ()):
        for kd in (False, True):
            same(ut.reduce(x, axis=axis, keepdims=kd), un.reduce(a, axis=axis, keepdims=kd))
    # views with steps and a transpose
    same(ut.reduce(x[::-2, :, 1::3], axis=0), un.reduce(a[::-2, :, 1::3], axis=0))
    same(ut.reduce(x.T, axis=(0, 1)), un.reduce(a.T, axis=(0, 1)))


@pytest.mark.parametrize('op', OPS)
@pytest.mark.parametrize('dt', ['bool', 'uint8', 'int16', 'int64'])
def test_where_initial_out_empty(op, dt):
    a = _data(dt, (23, 40), 7)
    x = nt.asarray(a)
    un, ut = getattr(np, op), getattr(nt, op)
    m = np.random.default_rng(3).random((23, 40)) < 0.6
    for axis in (None, 0, 1):
        same(ut.reduce(x, axis=axis, where=nt.asarray(m)), un.reduce(a, axis=axis, where=m))
        same(ut.reduce(x, axis=axis, where=m[0]), un.reduce(a, axis=axis, where=m[0]))
        init = True if dt == 'bool' else 5
        same(ut.reduce(x, axis=axis, initial=init), un.reduce(a, axis=axis, initial=init))
        same(ut.reduce(x, axis=axis, initial=init, where=m),
             un.reduce(a, axis=axis, initial=init, where=m))
    # out=: the object returned, NumPy's values in it (its dtype, and another)
    for odt in (un.reduce(a, axis=0).dtype, np.dtype('int64')):
        on, ot = np.zeros(40, odt), nt.zeros(40, odt)
        r = ut.reduce(x, axis=0, out=ot)
        assert r is ot
        same(ot, un.reduce(a, axis=0, out=on))
    # empty inputs: the identity (bitwise_and's all bits set)
    for shape, axis in (((0,), 0), ((0, 5), 0), ((4, 0), 1), ((4, 0), 0), ((0, 3), None)):
        e = np.zeros(shape, dt)
        same(ut.reduce(nt.asarray(e), axis=axis), un.reduce(e, axis=axis))
    # dtype=: the loop's dtype (uint8 into int16: bitwise_and's masked-out
    # elements must not clear the high bits)
    if op != 'logical_xor' and dt != 'bool':
        same(ut.reduce(x, axis=1, dtype=np.int64, where=m), un.reduce(a, axis=1, dtype=np.int64,
                                                                       where=m))
        same(ut.reduce(x, dtype=bool), un.reduce(a, dtype=bool))


def test_logical_xor_of_floats_and_bitwise_errors():
    a = np.array([[1.5, 0.0, -2.0], [0.0, np.nan, 3.0]])
    x = nt.asarray(a)
    for axis in (None, 0, 1):
        same(nt.logical_xor.reduce(x, axis=axis), np.logical_xor.reduce(a, axis=axis))
    c = a + 1j
    same(nt.logical_xor.reduce(nt.asarray(c), axis=0), np.logical_xor.reduce(c, axis=0))
    for op in OPS[:3]:
        with pytest.raises(TypeError):
            getattr(np, op).reduce(a)
        with pytest.raises(TypeError):
            getattr(nt, op).reduce(x)
    with pytest.raises(OverflowError):
        nt.bitwise_xor.reduce(nt.asarray(np.arange(5, dtype=np.int8)), initial=300)


def test_native_not_a_fallback():
    # a NumPy call would warn of the fallback where the suite turns those on;
    # here: the core's reduce is the one called (the reduction's name is one
    # of the core's)
    from ndtile import _methods
    for op in OPS:
        assert op in _methods._RED


DEFAULT = r"""
import numpy as np, ndtile as nt
rng = np.random.default_rng(11)
a = rng.integers(-2**62, 2**62, (3000, 700))          # 16.8 MB: several 2 MiB tiles
x = nt.asarray(a)
for op in ('bitwise_and', 'bitwise_or', 'bitwise_xor', 'logical_xor'):
    for axis in (None, 0, 1):
        g = np.asarray(getattr(nt, op).reduce(x, axis=axis))
        w = getattr(np, op).reduce(a, axis=axis)
        assert g.dtype == w.dtype and g.tobytes() == w.tobytes(), (op, axis)
print("ok")
"""


def test_default_settings():
    env = dict(os.environ, NDTILE_TILE_BYTES="2097152")
    r = subprocess.run([sys.executable, "-c", DEFAULT], env=env, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stdout + r.stderr
