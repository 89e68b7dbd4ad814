#!/usr/bin/env python3
"""Which of NumPy's public functions ndtile runs natively.

    python3 tools/coverage.py [--list] [--module numpy|linalg|fft|random|lib|methods]

A function counts as native when ndtile defines it (it runs as tasks on
tiles) AND every one of its common argument forms listed in PROBES runs
without falling back: each form is called on small ndtile arrays with
NDTILE_FALLBACK=error, so a form that would run NumPy's version on gathered
data raises instead (an exception of another kind counts against the
function too: a common form that fails is not supported). Functions ndtile
does not define run NumPy's version on gathered data (a fallback, which
warns once; see python/ndtile/_fallback.py). The "methods" line counts the
ufunc methods and ndarray methods of PROBES the same way.

Prints the counts per module and, with --list, the names that fall back
and, for each function counted out by a probe, the forms that fell back.
PROBES names the forms real programs use most; a function without an entry
is judged by its definition alone (the count says how many were probed).
"""
import argparse
import os
import sys
import types
import warnings

import numpy as np

import ndtile as nt
from ndtile import _fallback

# Common argument forms, as expressions over: np (ndtile), a (3x4 float64),
# i (3x4 int64), v (5 float64), b (3x4 bool), c (4 complex128), s (3x3
# float64, well conditioned), f (a Fortran-ordered 3x4 float64).
PROBES = {
    'pad': ["np.pad(v, 2)", "np.pad(v, (1, 2))", "np.pad(v, (1, 2), constant_values=(0, 0))",
            "np.pad(v, 1, constant_values=7)", "np.pad(a, ((1, 0), (0, 2)))",
            "np.pad(a, 1, mode='edge')", "np.pad(a, 1, mode='reflect')",
            "np.pad(a, 1, mode='wrap')", "np.pad(a, 1, mode='symmetric')"],
    'unique': ["np.unique(i)", "np.unique(i, return_counts=True)",
               "np.unique(i, return_index=True, return_inverse=True)",
               "np.unique(i, axis=0)", "np.unique(i, axis=1, return_counts=True)"],
    'reshape': ["np.reshape(a, (4, 3))", "np.reshape(a, -1)", "np.reshape(a, (2, 6), order='F')"],
    'ravel': ["np.ravel(a)", "np.ravel(a, order='F')", "np.ravel(f, order='K')"],
    'asfortranarray': ["np.asfortranarray(a)", "np.asfortranarray(a).flags.f_contiguous or 1/0"],
    'ascontiguousarray': ["np.ascontiguousarray(a.T)", "np.ascontiguousarray(f)"],
    'array': ["np.array([1, 2, 3])", "np.array(a)", "np.array(a, dtype=np.float32)",
              "np.array(a, order='F')", "np.array([[1.0, 2.0]], ndmin=3)"],
    'asarray': ["np.asarray([1.0, 2.0])", "np.asarray(a, dtype=np.int32)",
                "np.asarray(a, order='F')"],
    'copy': ["np.copy(a)", "np.copy(a, order='F')"],
    'zeros': ["np.zeros((3, 4))", "np.zeros(5, dtype=np.int32)", "np.zeros((3, 4), order='F')"],
    'ones': ["np.ones((3, 4))", "np.ones(5, dtype=bool)", "np.ones((3, 4), order='F')"],
    'empty': ["np.empty((3, 4))", "np.empty((3, 4), order='F')"],
    'full': ["np.full((3, 4), 7.0)", "np.full(3, 1, dtype=np.int8)", "np.full((3, 4), 2, order='F')"],
    'zeros_like': ["np.zeros_like(a)", "np.zeros_like(f)", "np.zeros_like(i, dtype=float)"],
    'ones_like': ["np.ones_like(a)", "np.ones_like(a, order='F')"],
    'empty_like': ["np.empty_like(a)"],
    'full_like': ["np.full_like(a, 3)"],
    'arange': ["np.arange(10)", "np.arange(0, 1, 0.1)", "np.arange(5, dtype=np.float32)"],
    'linspace': ["np.linspace(0, 1, 11)", "np.linspace(0, 1, 5, endpoint=False)",
                 "np.linspace(0, 1, 5, retstep=True)", "np.linspace(v, v + 1, 3)"],
    'concatenate': ["np.concatenate([a, a])", "np.concatenate([a, a], axis=1)",
                    "np.concatenate([a, i])", "np.concatenate([a, a], axis=None)"],
    'stack': ["np.stack([v, v])", "np.stack([a, a], axis=-1)"],
    'sum': ["np.sum(a)", "np.sum(a, axis=0)", "np.sum(a, axis=(0, 1), keepdims=True)",
            "np.sum(i, dtype=np.float64)", "np.sum(a, where=b)", "np.sum(a, initial=1.0)"],
    'mean': ["np.mean(a)", "np.mean(a, axis=1)", "np.mean(i, dtype=np.float32)",
             "np.mean(a, where=b)"],
    'std': ["np.std(a)", "np.std(a, axis=0, ddof=1)"],
    'var': ["np.var(a)", "np.var(a, axis=1, keepdims=True)"],
    'max': ["np.max(a)", "np.max(a, axis=0)", "np.max(a, initial=0.0)", "np.max(a, where=b, initial=-1.0)"],
    'min': ["np.min(a)", "np.min(a, axis=1)"],
    'argmax': ["np.argmax(a)", "np.argmax(a, axis=1)", "np.argmax(a, axis=0, keepdims=True)"],
    'argmin': ["np.argmin(a)", "np.argmin(a, axis=0)"],
    'cumsum': ["np.cumsum(a)", "np.cumsum(a, axis=1)", "np.cumsum(i, dtype=np.float64)"],
    'cumprod': ["np.cumprod(a, axis=0)"],
    'prod': ["np.prod(a)", "np.prod(a, axis=1)"],
    'any': ["np.any(b)", "np.any(b, axis=0)"],
    'all': ["np.all(b)", "np.all(a > -1, axis=1)"],
    'where': ["np.where(b)", "np.where(b, a, 0)", "np.where(b, a, i)"],
    'clip': ["np.clip(a, 1, 5)", "np.clip(a, None, 5)", "np.clip(i, 1, 5)", "np.clip(a, v[:4], 9)"],
    'sort': ["np.sort(a)", "np.sort(a, axis=0)", "np.sort(a, axis=None)", "np.sort(a, kind='stable')"],
    'argsort': ["np.argsort(a)", "np.argsort(a, axis=0)", "np.argsort(a, kind='stable')"],
    'searchsorted': ["np.searchsorted(v, 2.5)", "np.searchsorted(v, v, side='right')"],
    'take': ["np.take(a, [0, 2])", "np.take(a, [0, 2], axis=1)", "np.take(a, [0, 20], mode='clip')"],
    'take_along_axis': ["np.take_along_axis(a, np.argsort(a, axis=1), axis=1)"],
    'put': ["np.put(a.copy(), [0, 1], [5.0, 6.0])", "np.put(a.copy(), [0, 1], 5)"],
    'put_along_axis': ["np.put_along_axis(a.copy(), np.argsort(a, axis=1), 0.0, axis=1)"],
    'transpose': ["np.transpose(a)", "np.transpose(a, (1, 0))"],
    'swapaxes': ["np.swapaxes(a, 0, 1)"],
    'moveaxis': ["np.moveaxis(a, 0, -1)"],
    'expand_dims': ["np.expand_dims(a, 0)", "np.expand_dims(a, (0, 2))"],
    'squeeze': ["np.squeeze(a[None])", "np.squeeze(a[None], axis=0)"],
    'broadcast_to': ["np.broadcast_to(v, (3, 5))"],
    'flip': ["np.flip(a)", "np.flip(a, axis=1)"],
    'roll': ["np.roll(a, 1)", "np.roll(a, 1, axis=0)", "np.roll(a, (1, 2), axis=(0, 1))"],
    'tile': ["np.tile(v, 2)", "np.tile(a, (2, 1))"],
    'repeat': ["np.repeat(v, 2)", "np.repeat(a, [1, 2, 0], axis=0)"],
    'split': ["np.split(v, 5)", "np.split(a, [1, 2], axis=0)"],
    'array_split': ["np.array_split(v, 3)"],
    'hstack': ["np.hstack([a, a])"],
    'vstack': ["np.vstack([a, a])"],
    'column_stack': ["np.column_stack([v, v])"],
    'diff': ["np.diff(v)", "np.diff(a, axis=0)", "np.diff(v, n=2)", "np.diff(v, prepend=0)"],
    'dot': ["np.dot(a, a.T)", "np.dot(v, v)", "np.dot(a, 2.0)"],
    'matmul': ["np.matmul(a, a.T)"],
    'outer': ["np.outer(v, v)"],
    'inner': ["np.inner(v, v)"],
    'einsum': ["np.einsum('ij,jk->ik', a, a.T)", "np.einsum('ii->i', s)", "np.einsum('ij->', a)",
               "np.einsum('i,i', v, v)", "np.einsum('...j,j', a, v[:4])"],
    'tensordot': ["np.tensordot(a, a, axes=([1], [1]))", "np.tensordot(a, a.T, axes=1)"],
    'isclose': ["np.isclose(a, a)", "np.isclose(a, 1.0)"],
    'allclose': ["np.allclose(a, a)"],
    'array_equal': ["np.array_equal(a, a)"],
    'round': ["np.round(a, 2)", "np.round(a)", "np.round(i, -1)"],
    'nonzero': ["np.nonzero(b)"],
    'argwhere': ["np.argwhere(b)"],
    'count_nonzero': ["np.count_nonzero(b)", "np.count_nonzero(b, axis=0)"],
    'bincount': ["np.bincount(i.ravel())", "np.bincount(i.ravel(), weights=a.ravel())",
                 "np.bincount(i.ravel(), minlength=20)"],
    'histogram': ["np.histogram(v)", "np.histogram(v, bins=3, range=(0, 5))",
                  "np.histogram(v, bins=[0, 1, 3, 5])", "np.histogram(v, density=True)",
                  "np.histogram(v, weights=v)"],
    'digitize': ["np.digitize(v, [1.0, 2.0, 3.0])"],
    'isin': ["np.isin(i, [1, 2, 3])"],
    'percentile': ["np.percentile(a, 50)", "np.percentile(a, [25, 75], axis=0)"],
    'quantile': ["np.quantile(a, 0.5)", "np.quantile(a, [0.1, 0.9], axis=1)"],
    'median': ["np.median(a)", "np.median(a, axis=0)"],
    'average': ["np.average(a)", "np.average(a, axis=0, weights=[1, 2, 3])"],
    'cov': ["np.cov(a)", "np.cov(a, rowvar=False)"],
    'corrcoef': ["np.corrcoef(a)"],
    'meshgrid': ["np.meshgrid(v, v)", "np.meshgrid(v, v, indexing='ij')"],
    'interp': ["np.interp(v, [0.0, 5.0], [0.0, 1.0])"],
    'convolve': ["np.convolve(v, v)", "np.convolve(v, v[:3], mode='same')"],
    'cross': ["np.cross(a[:, :3], a[:, 1:])"],
    'trace': ["np.trace(s)"],
    'diag': ["np.diag(s)", "np.diag(v)"],
    'eye': ["np.eye(3)", "np.eye(3, 4, k=1)"],
    'identity': ["np.identity(3)"],
    'tril': ["np.tril(s)"],
    'triu': ["np.triu(s, 1)"],
    'nan_to_num': ["np.nan_to_num(a)"],
    'gradient': ["np.gradient(v)", "np.gradient(a, axis=0)"],
    'append': ["np.append(v, 1.0)", "np.append(a, a, axis=0)"],
    'delete': ["np.delete(v, 1)", "np.delete(a, [0], axis=1)"],
    'insert': ["np.insert(v, 1, 9.0)"],
    'lexsort': ["np.lexsort((v, v))"],
    'partition': ["np.partition(v, 2)", "np.partition(a, 1, axis=0)"],
    'argpartition': ["np.argpartition(v, 2)"],
    'nanmean': ["np.nanmean(a)", "np.nanmean(a, axis=0)"],
    'nansum': ["np.nansum(a)"],
    'nanmax': ["np.nanmax(a, axis=1)"],
    'ptp': ["np.ptp(a)", "np.ptp(a, axis=0)"],
    'kron': ["np.kron(s, s)"],
    'copyto': ["np.copyto(a.copy(), 1.0)", "np.copyto(a.copy(), i, casting='unsafe')"],
    'astype': ["np.astype(a, np.int32)"],
    'atleast_2d': ["np.atleast_2d(v)"],
    'indices': ["np.indices((2, 3))"],
    'fliplr': ["np.fliplr(a)"],
    'rot90': ["np.rot90(a)"],
    'abs': ["np.abs(a)"],
    'angle': ["np.angle(c)"],
    'real': ["np.real(c)"],
    'imag': ["np.imag(c)"],
    'histogram2d': ["np.histogram2d(v, v, bins=2)"],
    'logspace': ["np.logspace(0, 2, 5)"],
    'geomspace': ["np.geomspace(1, 100, 5)"],
    'trapezoid': ["np.trapezoid(v)"],
    'polyval': ["np.polyval([1.0, 2.0], v)"],
    'polyfit': ["np.polyfit(v, v * 2, 1)"],
    'select': ["np.select([v > 2], [v], default=0)"],
    'choose': ["np.choose([0, 1, 0], [v[:3], v[:3] * 2])"],
    'compress': ["np.compress([True, False, True], a, axis=0)"],
    'extract': ["np.extract(b, a)"],
    'fill_diagonal': ["np.fill_diagonal(s.copy(), 0)"],
    'vander': ["np.vander(v, 3)"],
    'linalg.solve': ["np.linalg.solve(s, v[:3])"],
    'linalg.inv': ["np.linalg.inv(s)"],
    'linalg.norm': ["np.linalg.norm(v)", "np.linalg.norm(a, axis=1)", "np.linalg.norm(s, 'fro')",
                    "np.linalg.norm(s, 2)", "np.linalg.norm(a, ord=1, axis=0)"],
    'linalg.det': ["np.linalg.det(s)"],
    'linalg.eigh': ["np.linalg.eigh(s + s.T)"],
    'linalg.svd': ["np.linalg.svd(a)", "np.linalg.svd(a, full_matrices=False)",
                   "np.linalg.svd(a, compute_uv=False)"],
    'linalg.qr': ["np.linalg.qr(a)", "np.linalg.qr(a, mode='r')"],
    'linalg.lstsq': ["np.linalg.lstsq(a.T, v[:4], rcond=None)"],
    'linalg.cholesky': ["np.linalg.cholesky(s @ s.T + np.eye(3))"],
    'linalg.eig': ["np.linalg.eig(s)"],
    'linalg.pinv': ["np.linalg.pinv(a)"],
    'linalg.matrix_rank': ["np.linalg.matrix_rank(a)"],
    'fft.fft': ["np.fft.fft(v)", "np.fft.fft(a, axis=0)", "np.fft.fft(v, n=8)",
                "np.fft.fft(v, norm='ortho')"],
    'fft.ifft': ["np.fft.ifft(c)"],
    'fft.rfft': ["np.fft.rfft(v)"],
    'fft.irfft': ["np.fft.irfft(c)"],
    'fft.fft2': ["np.fft.fft2(a)"],
    'fft.fftn': ["np.fft.fftn(a)"],
    'fft.rfftn': ["np.fft.rfftn(a)"],
    'fft.fftfreq': ["np.fft.fftfreq(8)", "np.fft.fftfreq(8, d=0.1)"],
    'fft.fftshift': ["np.fft.fftshift(v)"],
    'random.rand': ["np.random.rand(3, 4)"],
    'random.randn': ["np.random.randn(3)"],
    'random.randint': ["np.random.randint(0, 10, size=5)", "np.random.randint(10)"],
    'random.random': ["np.random.random((2, 3))"],
    'random.normal': ["np.random.normal(0, 1, 5)", "np.random.normal(v, 1.0)"],
    'random.uniform': ["np.random.uniform(0, 1, (2, 2))"],
    'random.choice': ["np.random.choice(5, 3)", "np.random.choice(v, 3, replace=False)",
                      "np.random.choice(5, 3, p=[0.2] * 5)"],
    'random.permutation': ["np.random.permutation(5)", "np.random.permutation(v)"],
    'random.shuffle': ["np.random.shuffle(v.copy())"],
    'random.seed': ["np.random.seed(0)"],
    'random.default_rng': ["np.random.default_rng(0).random(3)",
                           "np.random.default_rng(0).integers(0, 5, 3)",
                           "np.random.default_rng(0).normal(size=3)",
                           "np.random.default_rng(0).choice(5, 2)"],
    'lib.stride_tricks.sliding_window_view': [
        "np.lib.stride_tricks.sliding_window_view(v, 3)",
        "np.lib.stride_tricks.sliding_window_view(a, (2, 2))",
        "np.lib.stride_tricks.sliding_window_view(a, 2, axis=0)"],
    'lib.stride_tricks.as_strided': [
        "np.lib.stride_tricks.as_strided(v, (3, 3), (8, 8))",
        "np.lib.stride_tricks.as_strided(v, (2, 5), (0, 8))"],
}

# ufunc and ndarray methods, counted on their own line
METHOD_PROBES = {
    'ufunc.reduce': ["np.add.reduce(a)", "np.multiply.reduce(a, axis=1)",
                     "np.maximum.reduce(a, axis=None)", "np.logical_and.reduce(b)"],
    'ufunc.accumulate': ["np.add.accumulate(a)", "np.multiply.accumulate(v)",
                         "np.maximum.accumulate(v)"],
    'ufunc.outer': ["np.add.outer(v, v)", "np.multiply.outer(v, v)"],
    'ufunc.at': ["np.add.at(v.copy(), [0, 0, 1], 1.0)", "np.add.at(a.copy(), (0, [1, 1]), v[:2])",
                 "np.maximum.at(v.copy(), [1, 1], 3.0)", "np.negative.at(v.copy(), [0, 0])",
                 "np.add.at(a.copy(), [0, 0], 1)", "np.subtract.at(i.copy(), ([0, 0], [1, 1]), 1)"],
    'ufunc.reduceat': ["np.add.reduceat(v, [0, 2, 1])", "np.add.reduceat(a, [0, 2], axis=1)",
                       "np.maximum.reduceat(a, [0, 1], axis=0)",
                       "np.multiply.reduceat(i, [0, 3], axis=1)"],
    'ndarray.view': ["a.view()", "a.view(np.int64)", "i.view(np.float64)",
                     "b.view(np.uint8)"],
    'ndarray.reshape': ["a.reshape(4, 3)", "a.reshape((2, -1))", "a.reshape(12, order='F')"],
    'ndarray.copy': ["a.copy()", "a.copy(order='F')", "f.copy(order='K')"],
    'ndarray.astype': ["a.astype(np.int32)", "a.astype(np.float32, order='F')"],
    'ndarray.flatten': ["a.flatten()", "a.flatten('F')"],
    'ndarray.ravel': ["a.ravel()", "a.ravel('F')"],
    'ndarray.sort': ["a.copy().sort()", "a.copy().sort(axis=0)"],
    'ndarray.fill': ["a.copy().fill(1.0)"],
    'ndarray.tolist': ["a.tolist()"],
    'ndarray.item': ["a.item(0)"],
    'ndarray.put': ["a.copy().put([0, 1], [1.0, 2.0])"],
    'ndarray.nonzero': ["b.nonzero()"],
    'ndarray.cumsum': ["a.cumsum(axis=0)"],
    'ndarray.clip': ["a.clip(0, 3)"],
    'ndarray.round': ["a.round(1)"],
    'ndarray.dot': ["a.dot(a.T)"],
    'ndarray.argsort': ["a.argsort()"],
    'ndarray.searchsorted': ["v.searchsorted(2.0)"],
}


def _namespace():
    a = nt.arange(12.0).reshape(3, 4) / 7.0 - 0.5
    return {
        'np': nt, 'a': a, 'i': nt.arange(12).reshape(3, 4), 'v': nt.arange(5.0),
        'b': a > 0.1, 'c': nt.array([1 + 2j, 3 - 1j, -2j, 0.5]),
        's': nt.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]]),
        'f': nt.asfortranarray(a),
    }


def run_probes(forms):
    """The forms of `forms` that fall back or fail, each with why."""
    bad = []
    old = os.environ.get('NDTILE_FALLBACK')
    os.environ['NDTILE_FALLBACK'] = 'error'
    try:
        for src in forms:
            ns = _namespace()
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter('ignore')
                    r = eval(src, ns)   # noqa: S307 - fixed expressions of this file
                    if isinstance(r, nt.ndarray):
                        nt.asarray(r).sum() if r.dtype.kind in 'biufc' else None
            except NotImplementedError:
                bad.append(f"{src} (falls back)")
            except Exception as e:   # noqa: BLE001 - a failing common form counts too
                bad.append(f"{src} ({type(e).__name__}: {e})")
    finally:
        if old is None:
            del os.environ['NDTILE_FALLBACK']
        else:
            os.environ['NDTILE_FALLBACK'] = old
    return bad


def public_callables(mod):
    for name in sorted(dir(mod)):
        if name.startswith('_'):
            continue
        obj = getattr(mod, name, None)
        if isinstance(obj, (type, types.ModuleType)) or not callable(obj):
            continue
        yield name


def classify(ndmod, npmod, prefix):
    """(native, fallback, partial, probed): partial maps a name ndtile
    defines to the forms of PROBES that fall back."""
    native, fallback, partial = [], [], {}
    probed = 0
    for name in public_callables(npmod):
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            try:
                obj = getattr(ndmod, name)
            except AttributeError:
                fallback.append(name)
                continue
        if _fallback.is_fallback(obj):
            fallback.append(name)
            continue
        forms = PROBES.get(prefix + name)
        if forms:
            probed += 1
            bad = run_probes(forms)
            if bad:
                partial[name] = bad
                continue
        native.append(name)
    return native, fallback, partial, probed


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--list', action='store_true',
                    help='list the names that fall back, and the forms that do')
    ap.add_argument('--module', choices=['numpy', 'linalg', 'fft', 'random', 'lib', 'methods'])
    args = ap.parse_args(argv)
    mods = [('numpy', nt, np, ''), ('numpy.linalg', nt.linalg, np.linalg, 'linalg.'),
            ('numpy.fft', nt.fft, np.fft, 'fft.'), ('numpy.random', nt.random, np.random, 'random.'),
            ('numpy.lib.stride_tricks', nt.lib.stride_tricks, np.lib.stride_tricks,
             'lib.stride_tricks.')]
    if args.module and args.module != 'methods':
        mods = [m for m in mods if m[0].split('.')[-1] == args.module or
                (args.module == 'lib' and m[0].startswith('numpy.lib'))]
    elif args.module == 'methods':
        mods = []
    total_n = total = 0
    for label, ndmod, npmod, prefix in mods:
        if label == 'numpy.lib.stride_tricks':
            # only the two functions that make views (the rest are numpy's
            # broadcasting helpers, also in the main namespace)
            names = ('as_strided', 'sliding_window_view')
            npmod = types.SimpleNamespace(**{k: getattr(npmod, k) for k in names})
        native, fallback, partial, probed = classify(ndmod, npmod, prefix)
        n = len(native) + len(fallback) + len(partial)
        total_n += len(native)
        total += n
        print(f"{label:24s} {len(native):4d} of {n:4d} functions native "
              f"({probed} checked on their common forms, {len(partial)} of them fall back "
              f"for one)")
        if args.list and fallback:
            print('    falls back: ' + ', '.join(fallback))
        if args.list:
            for name, bad in partial.items():
                print(f'    {name}: ' + '; '.join(bad))
    if not args.module or args.module == 'methods':
        nat, part = [], {}
        for name, forms in METHOD_PROBES.items():
            bad = run_probes(forms)
            (part.__setitem__(name, bad) if bad else nat.append(name))
        total_n += len(nat)
        total += len(METHOD_PROBES)
        print(f"{'methods':24s} {len(nat):4d} of {len(METHOD_PROBES):4d} ufunc/ndarray "
              f"methods native on their common forms")
        if args.list:
            for name, bad in part.items():
                print(f'    {name}: ' + '; '.join(bad))
    print(f"{'all':24s} {total_n:4d} of {total:4d}")
    return 0


if __name__ == '__main__':
    sys.exit(main())
