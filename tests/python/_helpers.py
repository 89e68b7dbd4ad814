"""Shared test helpers: inputs for every dtype and comparison with NumPy."""
import json
import os
import subprocess
import sys
import textwrap

import numpy as np

import ndtile as nt

DTYPES = [np.dtype(t) for t in (
    np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
    np.uint64, np.float32, np.float64, np.complex64, np.complex128)]
NAMES = [d.name for d in DTYPES]
INTS = [d for d in DTYPES if d.kind in 'iu']
FLOATS = [d for d in DTYPES if d.kind == 'f']
COMPLEX = [d for d in DTYPES if d.kind == 'c']
INEXACT = FLOATS + COMPLEX

# 0-d, empty, one element, small, and multi-tile (tiles are 4096 bytes in tests)
SHAPES = [(), (0,), (1,), (5,), (3, 4), (2, 0, 3), (1500,), (33, 47), (4, 5, 6)]
SMALL_SHAPES = [(), (0,), (1,), (7,), (3, 4), (700,), (21, 33)]


def make(dtype, shape, seed=0, lo=-10, hi=10, nonzero=False):
    """Random NumPy data of a dtype and shape, in a range safe for arithmetic."""
    rng = np.random.default_rng(seed)
    dt = np.dtype(dtype)
    if dt.kind == 'b':
        a = rng.random(shape) < 0.5
        if nonzero:
            a = np.ones(shape, bool)
    elif dt.kind in 'iu':
        if dt.kind == 'u':
            lo = max(lo, 0)
        a = rng.integers(lo, hi, size=shape, endpoint=True)
        if nonzero:
            a = np.where(a == 0, 1, a)
    elif dt.kind == 'f':
        a = rng.random(shape) * (hi - lo) + lo
        if nonzero:
            a = np.where(a == 0, 1.0, a)
    else:
        a = (rng.random(shape) * (hi - lo) + lo) + 1j * (rng.random(shape) * (hi - lo) + lo)
    return np.asarray(a).astype(dt)


def both(dtype, shape, **kw):
    a = make(dtype, shape, **kw)
    return a, nt.asarray(a)


def tol_for(dtype, kind='exact'):
    """rtol for a result dtype: 0 for exact ops, a few ULP for math
    functions, looser for sums (order of summation differs)."""
    dt = np.dtype(dtype)
    if dt.kind not in 'fc' or kind == 'exact':
        return 0
    single = dt in (np.dtype(np.float32), np.dtype(np.complex64), np.dtype(np.float16))
    if kind == 'math':
        return 2e-3 if dt == np.float16 else (1e-6 if single else 1e-13)
    if kind == 'sum':
        return 1e-5 if single else 1e-12
    raise ValueError(kind)


def assert_same(got, exp, rtol=0, atol=None):
    """got (ndtile) equals exp (NumPy): kind of result, dtype, shape, values."""
    if isinstance(exp, tuple):
        assert isinstance(got, tuple) and len(got) == len(exp), (type(got), got)
        for g, e in zip(got, exp):
            assert_same(g, e, rtol, atol)
        return
    if isinstance(exp, np.ndarray):
        if exp.dtype == np.float16:
            assert isinstance(got, (np.ndarray, nt.ndarray)), type(got)
        else:
            assert isinstance(got, nt.ndarray), f"expected an ndtile array, got {type(got)}"
        # a copy through __array__: np.asarray would borrow the memory and
        # move a store of separate tiles into one buffer (fewer gathers after)
        g = got.__array__() if isinstance(got, nt.ndarray) else np.asarray(got)
        assert g.dtype == exp.dtype, f"dtype {g.dtype} != {exp.dtype}"
        assert g.shape == exp.shape, f"shape {g.shape} != {exp.shape}"
    elif isinstance(exp, np.generic):
        assert isinstance(got, np.generic), f"expected a NumPy scalar, got {type(got)}"
        g = np.asarray(got)
        assert g.dtype == exp.dtype, f"dtype {g.dtype} != {exp.dtype}"
        exp = np.asarray(exp)
    else:
        assert type(got) is type(exp), (type(got), type(exp))
        assert got == exp or (got != got and exp != exp), (got, exp)
        return
    if rtol == 0 and atol is None:
        np.testing.assert_array_equal(g, exp, strict=True)
    else:
        if atol is None:
            atol = rtol
        np.testing.assert_allclose(g, exp, rtol=rtol, atol=atol, equal_nan=True)


def check_same_error(fn_nt, fn_np):
    """Both raise, and ndtile's exception is of NumPy's type (or a subclass
    of the builtin base NumPy's type derives from)."""
    try:
        exp = fn_np()
    except Exception as e:
        np_exc = e
    else:
        return False, exp
    try:
        fn_nt()
    except Exception as e:
        base = type(np_exc)
        assert isinstance(e, base) or any(
            isinstance(e, b) for b in (TypeError, ValueError, IndexError, OverflowError,
                                       MemoryError, NotImplementedError)
            if issubclass(base, b)), f"NumPy raised {np_exc!r}, ndtile raised {e!r}"
        return True, None
    raise AssertionError(f"NumPy raised {np_exc!r}, ndtile did not")


def raises_same(fn_nt, fn_np):
    """NumPy raises, and ndtile raises the same kind of error (check_same_error)."""
    raised, _ = check_same_error(fn_nt, fn_np)
    assert raised


def for_workers(fn, workers=(1, 3)):
    """[fn() for each worker count], the caller's count restored after."""
    from ndtile import _core
    saved = _core.workers()
    try:
        res = []
        for w in workers:
            _core.set_workers(w)
            res.append(fn())
        return res
    finally:
        _core.set_workers(saved)


# ---- at default settings (tests/python/test_at_scale_*.py) --------------------
# With the runtime's 2 MiB tiles (conftest's default_settings) an array takes
# the deferred task path above NDTILE_INLINE_ELEMS = 32768 elements and
# spans several tiles above 2 MiB.
TILE = 2 << 20
INLINE_ELEMS = 1 << 15
ABOVE_INLINE = INLINE_ELEMS + 7235          # 40003: deferred, one tile for every dtype
MAX_ELEMS = 3_000_017                       # the most elements an at-scale test makes


def n_tiles(dtype, tiles=2.5):
    """An odd element count that spans about `tiles` 2 MiB tiles of dtype
    (fewer for 1-byte dtypes: at most MAX_ELEMS elements), never on a tile
    boundary."""
    n = int(tiles * TILE) // np.dtype(dtype).itemsize
    return min(n, MAX_ELEMS) | 1


def scale_sizes(dtype):
    """Just above the inline threshold (one tile), and several tiles."""
    return [ABOVE_INLINE, n_tiles(dtype)]


def same_view_effect(nt_base, np_base, nt_view, np_view, value=7):
    """nt_view aliases nt_base as np_view aliases np_base: write through each
    view and compare the bases (a copy where NumPy has a view, or a view
    where NumPy copies, leaves a different base)."""
    assert bool(nt.may_share_memory(nt_base, nt_view)) == bool(
        np.may_share_memory(np_base, np_view))
    np_view[...] = value
    nt_view[...] = value
    assert_same(nt_base, np_base)


def assert_big(got, exp, rtol=0, atol=None):
    """assert_same for large arrays: a quick whole-array comparison, and
    assert_same's detailed report only when it fails."""
    if isinstance(exp, tuple):
        assert isinstance(got, tuple) and len(got) == len(exp), (type(got), got)
        for g, e in zip(got, exp):
            assert_big(g, e, rtol, atol)
        return
    if isinstance(exp, np.ndarray) and isinstance(got, nt.ndarray):
        g = np.asarray(got)
        if g.dtype == exp.dtype and g.shape == exp.shape:
            nan = exp.dtype.kind in 'fc'
            if rtol == 0 and atol is None:
                if np.array_equal(g, exp, equal_nan=nan):
                    return
            elif np.allclose(g, exp, rtol=rtol, atol=rtol if atol is None else atol,
                             equal_nan=True):
                return
    assert_same(got, exp, rtol, atol)


def compare_big(fn_nt, fn_np, rtol=0, atol=None):
    """fn_nt() matches fn_np(): the same result (assert_big), or both raise
    errors of one kind. Returns NumPy's result (None when it raised)."""
    raised, exp = check_same_error(fn_nt, fn_np)
    if not raised:
        assert_big(fn_nt(), exp, rtol, atol)
    return exp


def cudahost_plugin():
    """The CUDA plugin's host build: NDTILE_CUDAHOST_PLUGIN (make
    test-cudahost sets it), else the build directory's; None when absent."""
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    p = os.environ.get("NDTILE_CUDAHOST_PLUGIN") or os.path.join(
        root, "build", "tests", "cudahost", "libndtile_cudahost.so")
    return p if os.path.exists(p) else None


def run_cudahost(code, devices="cuda:0,1", **env_add):
    """Runs code in a child process on the plugin's host build's devices
    (devices=None: on the CPU), with no NDTILE_ settings of the caller's;
    returns the JSON object its last line prints."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("NDTILE_")}
    if devices:
        env.update({"NDTILE_DEVICES": devices, "NDTILE_CUDA_PLUGIN": cudahost_plugin(),
                    "NDTILE_CUDA_MEM": "256M"})
    env.update(env_add)
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    return json.loads(r.stdout.strip().splitlines()[-1])
