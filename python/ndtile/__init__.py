"""ndtile: NumPy programs on every core.

    import ndtile as np

Arrays are split into tiles and every operation runs as tasks on a worker
pool (libndtile, a C11 runtime). The namespace mirrors NumPy's: dtypes,
constants and dtype utilities are NumPy's own objects (ndtile.float32 is
numpy.float32); array functions and ufuncs are ndtile's. A NumPy function
ndtile does not implement runs NumPy's version on gathered data and returns
ndtile arrays, warning once (NDTILE_FALLBACK=error makes it an error,
NDTILE_FALLBACK=ignore silences it).

Arrays of dtypes the core lacks (float16, longdouble, object, strings,
datetimes, structured) are plain NumPy arrays; operations on them run in
NumPy.

Runtime settings: NDTILE_WORKERS (threads), NDTILE_TILE_BYTES (tile size),
and the others of ndtile.settings(); ndtile.sync() waits for all recorded
work.

help(ndtile.NAME) shows NumPy's documentation headed by ndtile's note: whether
NAME runs natively or runs NumPy's version, and where it deviates from NumPy
(the user guide, docs/guide/ in the source, explains each deviation).

Many processes: started by `ndtile --ranks N script.py` (or mpirun/srun)
every rank runs the script and the arrays are spread over the ranks;
ndtile.rank(), ndtile.nranks(), ndtile.barrier() and ndtile.comm_stats()
say where a process stands (see ndtile._ranks for printing, files and
errors).
"""
import types as _types

import numpy as _np

from . import _core
from . import _dtypes
from . import _convert
from . import _fallback
from ._ndarray import ndarray, flatiter
from . import _ufunc
from . import _indexing
from . import _creation
from . import _manip
from . import _reduce
from . import _printing
from . import _ranks

from ._version import version as __version__  # noqa: E402  (meson.build's version)

_core._setup(ndarray, _dtypes.DTYPES, _dtypes.SCALARS, _dtypes.INT_SCALAR_TYPES,
             _ufunc.binop_hook, _indexing.getitem, _indexing.setitem)
# floating-point errors: NumPy's warnings and errstate (see _errstate)
from . import _errstate  # noqa: E402
_core._fp_setup(_errstate.report, _errstate.raises, _errstate._VAR, _errstate._PKG)

# ---- NumPy's own objects: scalar types, dtype, constants, dtype utilities -----
_OWN = {'ndarray', 'ufunc', 'flatiter'}
for _name, _obj in list(vars(_np).items()):     # vars: no lazy submodule imports
    if _name.startswith('_') or _name in _OWN:
        continue
    if isinstance(_obj, type) or (not callable(_obj) and not isinstance(_obj, _types.ModuleType)):
        globals()[_name] = _obj

# Functions that never touch array data: NumPy's, without a fallback warning.
_PASSTHROUGH = (
    'issubdtype', 'isdtype', 'promote_types', 'set_printoptions', 'get_printoptions',
    'printoptions', 'format_float_positional', 'format_float_scientific', 'seterr', 'geterr',
    'seterrcall', 'geterrcall', 'typename', 'mintypecode', 'base_repr', 'binary_repr',
    'get_include', 'show_config', 'show_runtime', 'getbufsize', 'setbufsize', 'info',
    'common_type', 'ravel_multi_index', 'iterable',
)
for _name in _PASSTHROUGH:
    if hasattr(_np, _name):
        globals()[_name] = getattr(_np, _name)

# ndtile's own build and memory, not NumPy's (obs17)
from ._config import show_config, memory_stats  # noqa: E402

# ---- ndtile's implementations ------------------------------------------------
ufunc = _ufunc.ufunc
globals().update(_ufunc.UFUNCS)

from ._creation import (  # noqa: E402
    empty, zeros, ones, full, empty_like, zeros_like, ones_like, full_like, array, asarray,
    asanyarray, ascontiguousarray, asfortranarray, copy, arange, linspace, eye, identity,
    frombuffer, fromiter)
from ._reduce import (  # noqa: E402
    sum, prod, nansum, nanprod, max, min, amax, amin, nanmax, nanmin, any, all, mean, var,
    std, argmax, argmin, count_nonzero, nanmean, ptp, average, cumsum, cumprod, median, nancumsum,
    nancumprod)
from ._manip import (  # noqa: E402
    reshape, ravel, transpose, permute_dims, matrix_transpose, swapaxes, moveaxis, rollaxis,
    squeeze, expand_dims, broadcast_to, broadcast_shapes, broadcast_arrays, atleast_1d,
    atleast_2d, atleast_3d, flip, fliplr, flipud, concatenate, concat, stack, hstack, vstack,
    row_stack, dstack, column_stack, array_split, split, hsplit, vsplit, dsplit, where,
    nonzero, argwhere, flatnonzero, clip, round, around, real, imag, angle, copyto, isclose, allclose, array_equal,
    array_equiv, diff, indices, meshgrid, outer, astype, shape, ndim, size, result_type,
    can_cast, min_scalar_type, iscomplexobj, isrealobj, isscalar, may_share_memory,
    shares_memory, pad, logspace, isposinf, isneginf, isreal, iscomplex, nan_to_num, tri,
    tril, triu, dot, vdot, inner)

from ._manip import sort, argsort  # noqa: E402
from ._functions import (  # noqa: E402
    append, delete, insert, resize, trim_zeros, unstack, compress, extract, select, choose,
    ix_, lexsort, sort_complex, tril_indices, triu_indices, tril_indices_from,
    triu_indices_from, diag_indices, diag_indices_from, fromfunction, fix, sinc, ediff1d,
    trapezoid, cross, kron, vander, real_if_close, asarray_chkfinite, unwrap, cumulative_sum,
    cumulative_prod, polyval, polyadd, polysub, polyder, polyint, bartlett, blackman, hamming,
    hanning, block, geomspace, packbits, unpackbits, mask_indices, union1d,
    setdiff1d, setxor1d, intersect1d, interp, nanmedian, diagflat, fill_diagonal, place,
    putmask, polymul, polyfit, polydiv, histogram_bin_edges, isfortran, require, roots, poly,
    piecewise, array_repr, array_str, array2string, loadtxt, genfromtxt, fromfile, fromstring,
    fromregex, load, save, savetxt, savez, savez_compressed, einsum_path, from_dlpack)
from ._manip import (  # noqa: E402
    roll, rot90, tile, repeat, take, take_along_axis, put, put_along_axis, diag, diagonal,
    trace, tensordot, einsum, convolve, correlate)
from ._stats import (  # noqa: E402
    nanargmax, nanargmin, nanvar, nanstd, cov, corrcoef, gradient)
from ._counting import (  # noqa: E402
    partition, argpartition, searchsorted, unique, unique_values, unique_counts,
    unique_inverse, unique_all, isin, bincount, digitize, histogram, histogram2d,
    histogramdd, percentile, quantile, nanpercentile, nanquantile)

from ._index_tricks import (  # noqa: E402
    mgrid, ogrid, r_, c_, unravel_index, vectorize, frompyfunc, apply_along_axis)
from . import linalg, fft, random, lib, io  # noqa: E402
from ._array_api import __array_namespace_info__, __array_api_version__  # noqa: E402

_FALLBACK_OK = {'nonzero', 'argwhere'}   # native names that are thin fallbacks


from ._ranks import rank, nranks, barrier, comm_stats  # noqa: E402
_ranks.setup()


def devices():
    """The devices ndtile runs on besides the CPU (``NDTILE_DEVICES``: ``auto``,
    ``none``, ``cuda``, ``cuda:0,1``, ``sim:N,mem=SIZE``), one dict each: its
    ``name``, ``kind`` (``"sim"`` or ``"cuda"``), ``index``, ``memory`` (capacity
    in bytes) and ``in_use`` (bytes now). An empty list means the CPU alone;
    ``ndtile._core.device_note()`` then says why (no plugin, no driver, ...)."""
    return _core.devices()


def sync():
    """Waits for all recorded work (and reports a deferred error)."""
    _core.sync()


def _sync_at_exit():
    try:
        _core.end_together()    # many ranks: every rank ends here, or all stop
        _core.sync()
    except Exception as e:      # pragma: no cover
        import sys
        print(f"ndtile: a deferred operation failed: {e}", file=sys.stderr)


import atexit as _atexit  # noqa: E402
_atexit.register(_sync_at_exit)


def set_workers(n):
    """Sets the number of worker threads."""
    _core.set_workers(n)


def settings():
    """The runtime's settings in force, by their NDTILE_* names (workers,
    tile and inline sizes, the look-ahead bounds, the memory budget, ...).
    Sizes are in bytes."""
    return {name: _core.setting_value(name) for name in _core.setting_names()}


def _check_settings():
    # a misread setting is an error at import, naming the variable and the
    # forms it takes (NDTILE_TILE_BYTES=1G is 1 GiB; =abc is a ValueError).
    # The rule of ndt_init's own check (env.c): unset or empty is the default.
    # Started as the `ndtile` command (or `python -m ndtile`), a bad setting
    # is the command's one-line error, not a traceback from this import.
    import os
    import sys
    for name in _core.setting_names():
        text = os.environ.get(name)
        if text:
            try:
                _core.parse_setting(name, text)
            except ValueError as e:
                if not _started_as_command(sys, os):
                    raise
                sys.stderr.write(f"ndtile: {e}\n")
                raise SystemExit(2) from None


def _started_as_command(sys, os):
    if os.path.basename(sys.argv[0] if sys.argv else '') == 'ndtile':
        return True
    # (a loop: this module's any and all are ndtile's)
    argv = list(getattr(sys, 'orig_argv', ()))
    for i, a in enumerate(argv[:-1]):
        if a == '-m' and argv[i + 1] == 'ndtile':
            return True
    return False


_check_settings()


def __getattr__(name):
    return _fallback.module_getattr('ndtile', _np, name, globals())


def __dir__():
    return sorted(set(globals()) | {n for n in dir(_np) if not n.startswith('_')})


# __array_function__: NumPy functions called on ndtile arrays run ndtile's
# implementation where there is one.
def _register_native():
    g = globals()
    for name, obj in list(g.items()):
        if name.startswith('_') or not callable(obj) or isinstance(obj, type):
            continue
        npobj = getattr(_np, name, None)
        if npobj is None or npobj is obj or isinstance(npobj, _np.ufunc):
            continue
        if name in _FALLBACK_OK or name in _PASSTHROUGH:
            continue
        if getattr(obj, '__module__', '').startswith('ndtile'):
            _fallback.NATIVE[npobj] = obj
            # entered through the check for other people's arrays (_foreign)
            g[name] = _foreign.dispatching(obj, npobj, name)
    for sub, npsub in ((linalg, _np.linalg), (fft, _np.fft), (random, _np.random),
                       (lib.stride_tricks, _np.lib.stride_tricks)):
        for name in getattr(sub, '_NATIVE', ()):
            npobj = getattr(npsub, name, None)
            if npobj is not None:
                impl = getattr(sub, name)
                _fallback.NATIVE[npobj] = impl
                if sub is linalg or sub is fft:
                    setattr(sub, name, _foreign.dispatching(
                        impl, npobj, ('linalg.' if sub is linalg else 'fft.') + name))


from . import _foreign  # noqa: E402
_foreign.setup(ndarray)
_ufunc._FOREIGN = _foreign.foreign
_register_native()

# NumPy's docstrings with an ndtile note on every public function (_docs).
import sys as _sys  # noqa: E402
from . import _docs  # noqa: E402
_docs.apply(_sys.modules[__name__])
del _name, _obj
