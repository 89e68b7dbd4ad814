"""A differential sweep of the loop dtype of reductions and scans against
NumPy: ufunc.reduce, accumulate and reduceat and the functions built on
them (sum, prod, max, min, amax, amin, all, any, ptp, mean, the nan*
functions, cumsum, cumprod, ...) over input dtypes x out= dtypes and
dtype= (narrower, signed <-> unsigned, int <-> float, bool, complex) x
axis None/int/tuple x keepdims x initial= x where= x empty inputs, on
arrays of many tiles (the suite's 4 KiB tiles) and, for a sample, at
default settings (2 MiB tiles, arrays of several tiles).

Each case compares the value, dtype and shape, whether out= is the object
returned, the exception type and the warning categories with NumPy's.
Run as a script (python tests/python/test_reduce_loops.py) it lists every
case that differs, grouped by function."""
import os
import sys
import warnings
import zlib

if __name__ == '__main__':
    os.environ.setdefault("NDTILE_TILE_BYTES", "4096")
    os.environ.setdefault("NDTILE_WORKERS", "2")

import numpy as np
import pytest

import ndtile as nt

IN_DTYPES = ['bool', 'int8', 'uint8', 'int32', 'int64', 'uint64', 'float32', 'float64',
             'complex128']
OUT_DTYPES = IN_DTYPES

# values that a narrower or other-kind out= cannot all hold (250 is -6 as
# int8; 2**63 + 5 is negative as int64; 3.5 is 3 as an int); float sums
# and products of them are exact in any order
_VALUES = {
    'bool': [True, False, True, True, False],
    'int8': [-6, 100, 3, -128, 127, 0, 7],
    'uint8': [250, 3, 128, 0, 255, 7],
    'int32': [70000, -3, 250, -70000, 2**31 - 1, 5],
    'int64': [2**40, -3, 250, -2**44, 5, 0],
    # (multiples of 2**40: their float64 sums are exact in any order)
    'uint64': [2**63, 2**41, 3 * 2**40, 0, 2**62, 5 * 2**40],
    'float32': [250.0, 3.5, -6.25, 0.5, -100.0, 1.0, 0.0],
    'float64': [250.0, 3.5, -6.25, 0.5, -100.0, 1.0, 0.0],
    'complex128': [250 + 1j, 3.5 - 2j, -6.25 + 0j, 0.5j, -100 + 0.25j, 1 + 0j],
}
# for products: no overflow of floats over many elements, exact in any order
_PROD_VALUES = {
    'int8': [1, -1, 2, 3, -128, 1, 1], 'uint8': [1, 2, 255, 3, 1, 1],
    'int32': [1, -1, 2, 70000, 1, 1], 'int64': [1, -1, 2, 2**40, 1, 1],
    'uint64': [1, 2, 2**63 + 5, 3, 1, 1],
    'float32': [1.0, -1.0, 2.0, 0.5, -0.5, 1.0], 'float64': [1.0, -1.0, 2.0, 0.5, -0.5, 1.0],
    'complex128': [1 + 0j, -1j, 1j, 2 + 0j, 0.5 + 0j, -1 + 0j], 'bool': _VALUES['bool'],
}

# (shape, name): a first element that a narrow out= changes (2, 1); many
# tiles of 4 KiB (40, 53); a 3-d one for tuple axes; empty ones
SHAPES = [(2, 1), (7,), (40, 53), (6, 5, 4), (0, 3), (3, 0)]

_UFUNCS = ['add', 'multiply', 'maximum', 'minimum', 'fmax', 'fmin', 'logical_and',
           'logical_or', 'logical_xor', 'bitwise_and', 'bitwise_or', 'bitwise_xor']
_PROD_LIKE = {'prod', 'nanprod', 'cumprod', 'nancumprod', 'multiply'}

# name -> (kind, which keywords it takes)
#   kind: 'red' (axis tuple/None, keepdims), 'scan' (one axis), 'at' (reduceat)
FUNCS = {
    'sum': ('red', {'dtype', 'initial', 'where'}),
    'prod': ('red', {'dtype', 'initial', 'where'}),
    'nansum': ('red', {'dtype', 'initial', 'where'}),
    'nanprod': ('red', {'dtype', 'initial', 'where'}),
    'max': ('red', {'initial', 'where'}),
    'min': ('red', {'initial', 'where'}),
    'amax': ('red', {'initial', 'where'}),
    'amin': ('red', {'initial', 'where'}),
    'nanmax': ('red', {'initial', 'where'}),
    'nanmin': ('red', {'initial', 'where'}),
    'all': ('red', {'where'}),
    'any': ('red', {'where'}),
    'ptp': ('red', set()),
    'mean': ('red', {'dtype', 'where'}),
    'var': ('red', {'dtype', 'where'}),
    'std': ('red', {'dtype', 'where'}),
    'cumsum': ('scan', {'dtype'}),
    'cumprod': ('scan', {'dtype'}),
    'nancumsum': ('scan', {'dtype'}),
    'nancumprod': ('scan', {'dtype'}),
}
for _u in _UFUNCS:
    FUNCS[_u + '.reduce'] = ('red', {'dtype', 'initial', 'where'})
    FUNCS[_u + '.accumulate'] = ('scan', {'dtype'})
    FUNCS[_u + '.reduceat'] = ('at', {'dtype'})


def _fn(m, name):
    if '.' in name:
        u, meth = name.split('.')
        return getattr(getattr(m, u), meth)
    return getattr(m, name)


def _data(name, dt, shape, nan):
    base = name.split('.')[0]
    pool = (_PROD_VALUES if base in _PROD_LIKE else _VALUES)[dt]
    n = int(np.prod(shape))
    k = np.arange(n) * 5 + n // 3
    a = np.array([pool[i % len(pool)] for i in (k ^ (k >> 2)).tolist()], dtype=dt) \
        if n else np.zeros(0, dt)
    if nan and dt in ('float32', 'float64', 'complex128') and n > 2:
        a[n // 2] = np.nan
    return a.reshape(shape)


def _initial(name, dt):
    base = name.split('.')[0]
    if base in ('logical_and', 'logical_or', 'logical_xor'):
        return True
    if base in _PROD_LIKE:
        return 2
    if dt in ('float32', 'float64', 'complex128'):
        return 3 if base not in ('min', 'amin', 'minimum', 'fmin', 'nanmin') else -7.5
    if dt == 'bool':
        return 1
    return 3 if base not in ('min', 'amin', 'minimum', 'fmin', 'nanmin') else 120


class Case:
    """One call: the function, the input (its dtype and shape), out='s dtype
    or None, dtype= or None, and the keywords drawn for it."""

    def __init__(self, name, dt, out_dt, dtype, rng, shapes=SHAPES):
        self.name, self.dt, self.out_dt, self.dtype = name, dt, out_dt, dtype
        kind, kws = FUNCS[name]
        self.kind = kind
        shape = shapes[rng.integers(len(shapes))]
        if kind != 'red' and len(shape) > 2:
            shape = shape[:2]
        self.shape = shape
        nd = len(shape)
        self.nan = bool(rng.integers(3) == 0)
        # a view with negative steps of a base twice as long (NumPy's first
        # element of a reduction is the view's, not memory's)
        self.view = nd > 0 and rng.integers(4) == 0
        self.kw = {}
        if kind == 'red':
            axes = [None] + list(range(nd)) + ([tuple(range(nd))[-2:]] if nd > 1 else []) + \
                ([-1] if nd else [])
            self.kw['axis'] = axes[rng.integers(len(axes))]
            self.kw['keepdims'] = bool(rng.integers(2))
            if 'initial' in kws and rng.integers(3) == 0:
                self.kw['initial'] = _initial(name, dt)
            if 'where' in kws and rng.integers(3) == 0:
                self.where = True
        else:
            axes = list(range(nd))
            if name.split('.')[0] in ('cumsum', 'cumprod', 'nancumsum', 'nancumprod'):
                axes.append(None)
            self.kw['axis'] = axes[rng.integers(len(axes))]
        if dtype is not None:
            self.kw['dtype'] = dtype
        if kind == 'at':
            n = shape[self.kw['axis']]
            self.indices = sorted(set(rng.integers(0, n, 4).tolist())) + [0] if n else []

    where = False

    def __str__(self):
        kw = ', '.join(f'{k}={v!r}' for k, v in self.kw.items())
        extra = (', where=mask' if self.where else '') + (', nan' if self.nan else '') + \
            (', view [..., ::-2]' if self.view else '')
        return (f"{self.name}({self.dt}{list(self.shape)}, out={self.out_dt}, {kw}{extra})")

    def _out_shape(self):
        """The shape of NumPy's result (its out= shape)."""
        a = np.zeros(self.shape)
        kw = dict(self.kw)
        kw.pop('initial', None)
        kw['dtype'] = None if self.kind in ('scan', 'at') else 'float64'
        try:
            if self.kind == 'red':
                kw.pop('dtype')
                return np.zeros(a.shape).sum(axis=kw['axis'], keepdims=kw['keepdims']).shape
            if self.kind == 'scan':
                return np.cumsum(np.zeros(a.shape), axis=kw['axis']).shape
            return np.add.reduceat(np.zeros(a.shape), self.indices, axis=kw['axis']).shape
        except Exception:
            return None

    def call(self, m, a):
        """The result (and out=) under module m, as NumPy arrays, or the
        exception's type; and the warning categories."""
        if m is nt:
            # the errors of work recorded before (another test's refused
            # call: ndtile reports them at the next exit) are not this case's
            with warnings.catch_warnings(), np.errstate(all='ignore'):
                warnings.simplefilter('ignore')
                nt.sync()
        with warnings.catch_warnings(record=True) as w, np.errstate(all='warn'):
            warnings.simplefilter('always')
            try:
                r = self._call(m, a)
            except Exception as e:
                r = type(e)
            if m is nt:
                nt.sync()       # (this call's deferred errors are its own)
        cats = sorted({x.category.__name__ for x in w if 'ndtile' not in str(x.message)})
        return r, cats

    def _call(self, m, a):
        x = m.asarray(a)
        if self.view:
            x = x[..., ::-2]
        kw = dict(self.kw)
        if self.where:
            mask = (np.arange(x.shape[-1]) % 3 != 1) if x.ndim else np.True_
            kw['where'] = m.asarray(mask)
        out = None
        if self.out_dt is not None:
            shape = self._out_shape()
            if shape is None:
                shape = ()
            out = m.zeros(shape, self.out_dt)
            kw['out'] = out
        if self.kind == 'at':
            r = _fn(m, self.name)(x, self.indices, **kw)
        else:
            r = _fn(m, self.name)(x, **kw)
        same = out is not None and r is out
        v = np.asarray(r.__array__() if isinstance(r, nt.ndarray) else r)
        return v, type(r).__name__ if out is None and v.ndim == 0 else None, same

    def data(self):
        shape = self.shape[:-1] + (2 * self.shape[-1],) if self.view else self.shape
        return _data(self.name, self.dt, shape, self.nan)


def _tol(dt):
    return {'float32': 1e-6, 'complex64': 1e-6}.get(np.dtype(dt).name, 1e-12)


def difference(case, a=None):
    """None, or a text saying how ndtile's result differs from NumPy's."""
    if a is None:
        a = case.data()
    exp, w_np = case.call(np, a)
    got, w_nt = case.call(nt, a)
    if isinstance(exp, type) or isinstance(got, type):
        if isinstance(exp, type) and isinstance(got, type) and issubclass(got, exp):
            return None
        return f"exception: numpy {_name(exp)}, ndtile {_name(got)}"
    (ev, et, es), (gv, gt, gs) = exp, got
    if es != gs:
        return f"returns out: numpy {es}, ndtile {gs}"
    if ev.dtype != gv.dtype or ev.shape != gv.shape:
        return f"dtype/shape: numpy {ev.dtype}{ev.shape}, ndtile {gv.dtype}{gv.shape}"
    if et != gt and not (et in ('ndarray',) or gt in ('ndarray',)):
        return f"type: numpy {et}, ndtile {gt}"
    if ev.dtype.kind in 'fc':
        ok = np.allclose(gv, ev, rtol=_tol(ev.dtype), atol=0, equal_nan=True)
    else:
        ok = np.array_equal(gv, ev)
    if not ok:
        return f"values: numpy {_short(ev)}, ndtile {_short(gv)}"
    if w_np != w_nt and not _flags_numpy_loses(case, w_np, w_nt):
        return f"warnings: numpy {w_np}, ndtile {w_nt}"
    return None


def _flags_numpy_loses(case, w_np, w_nt):
    """docs/guide/deviations.md 11: NumPy's accumulate into an out= of
    another dtype than its loop's casts its buffer into out and loses the
    loop's floating-point flags (cumprod of float32 into a bool out reports
    no underflow; its reduce does); ndtile reports them."""
    return case.kind == 'scan' and case.out_dt not in (None, case.dt) and \
        set(w_nt) - set(w_np) == {'RuntimeWarning'}


def _name(r):
    return r.__name__ if isinstance(r, type) else 'a result'


def _short(v):
    s = np.array2string(v.ravel()[:6], threshold=6)
    return s + ('...' if v.size > 6 else '')


def cases(name, seed=0, shapes=SHAPES, reps=1):
    """Every input dtype x (out= dtype, dtype=, both, neither) for name,
    each with keywords drawn from a generator seeded by the case."""
    kind, kws = FUNCS[name]
    specs = [(o, None) for o in OUT_DTYPES] + [(None, None)]
    if 'dtype' in kws:
        specs += [(None, d) for d in IN_DTYPES] + \
            [(o, d) for o, d in (('int8', 'float64'), ('float64', 'int8'), ('uint8', 'int16'),
                                 ('bool', 'int64'), ('int64', 'bool'), ('complex128', 'float64'),
                                 ('float32', 'complex128'))]
    out = []
    for dt in IN_DTYPES:
        for o, d in specs:
            for r in range(reps):
                key = zlib.crc32(f"{name} {dt} {o} {d} {seed} {r}".encode())
                out.append(Case(name, dt, o, d, np.random.default_rng(key), shapes))
    return out


def differences(name, **kw):
    return [(str(c), d) for c in cases(name, **kw) for d in [difference(c)] if d]


@pytest.mark.parametrize('name', sorted(FUNCS))
def test_loop_dtype_sweep(name):
    diffs = differences(name)
    assert not diffs, '\n'.join(f'{c}: {d}' for c, d in diffs)


def test_first_element_passes_through_out():
    # NumPy's accumulator starts in out: uint8 250 is -6 as int8 before the
    # max with 3 (3) or the min (-6); the other elements compare in int16
    a = np.array([[250, 7], [3, 250], [9, 3]], np.uint8)
    for f in ('max', 'min', 'amax', 'nanmin', 'ptp'):
        for axis in (0, 1, None, (0, 1)):
            want = getattr(np, f)(a, axis=axis, out=np.zeros(np.max(a, axis=axis).shape, np.int8))
            o = nt.zeros(want.shape, np.int8)
            got = getattr(nt, f)(nt.asarray(a), axis=axis, out=o)
            assert got is o
            np.testing.assert_array_equal(np.asarray(o), want, strict=True)
    o = nt.zeros(2, np.int8)
    nt.maximum.reduce(nt.asarray(a), axis=0, out=o, initial=200)      # starts at -56
    np.testing.assert_array_equal(
        np.asarray(o), np.maximum.reduce(a, axis=0, out=np.zeros(2, np.int8), initial=200))


# a sample at default settings: arrays of several 2 MiB tiles, with data
# whose fold does not depend on NumPy's buffering (its accumulator passes
# through out's dtype at every 8192-element buffer, or at every element of a
# kept axis longer than that: docs/guide/deviations.md): small values that
# out's dtype holds, with, for max and min, a first element of each fold
# (NumPy's start, copied into out) that it does not
_BIG = ['sum', 'max', 'min', 'prod', 'all', 'ptp', 'mean', 'cumsum', 'maximum.reduce',
        'minimum.reduce', 'add.reduce', 'logical_and.reduce', 'maximum.accumulate',
        'add.reduceat']
_BIG_PAIRS = [('uint8', 'int8'), ('int64', 'uint8'), ('float64', 'int32'), ('int8', 'float32'),
              ('uint64', 'int64'), ('complex128', 'float64'), ('int32', 'bool')]
_BIG_FIRST = {'uint8': 250, 'int64': 300, 'uint64': 2**63 + 5, 'int8': -100, 'int32': 2**20 + 3}


def _big_data(c):
    a = _data('prod' if c.name.split('.')[0] in _PROD_LIKE else 'sum', 'int8', c.shape, False)
    a = (abs(a) % 8 if c.name.split('.')[0] not in _PROD_LIKE else a).astype(c.dt)
    if c.dt in _BIG_FIRST and c.name.split('.')[0] in ('max', 'min', 'ptp', 'maximum',
                                                        'minimum'):
        ax = c.kw.get('axis')
        a[(0, 0) if ax is None else (0,) if ax == 0 else (slice(None), 0)] = _BIG_FIRST[c.dt]
    return a


@pytest.mark.default_settings
@pytest.mark.parametrize('name', _BIG)
def test_loop_dtype_at_default_settings(name):
    diffs = []
    k = _BIG.index(name)
    for dt, o in (_BIG_PAIRS * 2)[k % 7:k % 7 + 4]:       # four of the pairs each
        c = Case(name, dt, o, None, np.random.default_rng(zlib.crc32(f"{name}{dt}".encode())),
                 [(3, 300_007)])
        c.view = False
        if c.kind == 'red':
            c.kw.update(axis=(None, 0, 1)[zlib.crc32(f"{name}{dt}{o}".encode()) % 3])
            c.kw.pop('initial', None)
            c.where = False
        d = difference(c, _big_data(c))
        if d:
            diffs.append(f'{c}: {d}')
    assert not diffs, '\n'.join(diffs)


if __name__ == '__main__':
    from ndtile import _core
    _core.set_tile_bytes(int(os.environ["NDTILE_TILE_BYTES"]))
    warnings.simplefilter('ignore')
    total = 0
    groups = {}
    names = sys.argv[1:] or sorted(FUNCS)
    for nm in names:
        cs = cases(nm)
        ds = [(str(c), d) for c in cs for d in [difference(c)] if d]
        total += len(cs)
        for c, d in ds:
            print(f'{c}: {d}')
            groups.setdefault(nm, 0)
            groups[nm] += 1
    print(f'\n{sum(groups.values())} of {total} cases differ')
    for nm, k in sorted(groups.items()):
        print(f'  {nm}: {k}')
