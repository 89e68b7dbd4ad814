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
datetimes, structured, non-native byte order such as '>i4') are plain NumPy
arrays; operations on them run in NumPy, but ndtile's functions read an
operand of non-native byte order into a native ndtile array.

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
from . import _umath
from . import _umath_methods   # installs ufunc.reduce/accumulate/reduceat/at on _umath's classes
from . import _indexing
from . import _printing
from . import _ranks

from ._version import version as __version__  # noqa: E402  (meson.build's version)

_core._setup(ndarray, _dtypes.DTYPES, _dtypes.SCALARS, _dtypes.INT_SCALAR_TYPES,
             _umath.binop_hook, _indexing.getitem, _indexing.setitem)
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
    'common_type', 'iterable',
)
for _name in _PASSTHROUGH:
    if hasattr(_np, _name):
        globals()[_name] = getattr(_np, _name)
# NumPy's iterators, as nditer (a NumPy type, kept above): they take ndtile
# arrays through the memory those lend (docs/design.md, "Lending memory"),
# so the order is the views' own and writes land in the arrays (a fallback
# on gathered copies iterated a copy's order and lost the writes)
_ITERATORS = ('nested_iters',)
for _name in _ITERATORS:
    globals()[_name] = getattr(_np, _name)

# ndtile's own build and memory, not NumPy's (obs17)
from ._config import show_config, memory_stats  # noqa: E402

# ---- ndtile's implementations ------------------------------------------------
ufunc = _umath.ufunc
globals().update(_umath.UFUNCS)

from ._multiarray import (  # noqa: E402
    stack, empty, zeros, empty_like, array, asarray, asanyarray, ascontiguousarray, asfortranarray,
    arange, frombuffer, fromiter, concatenate, concat, where, nonzero, copyto, result_type,
    can_cast, min_scalar_type, may_share_memory, shares_memory, dot, lexsort, packbits,
    unpackbits, putmask, from_dlpack, bincount, asmatrix, bmat)
from ._numeric import (  # noqa: E402
    ones, full, zeros_like, ones_like, full_like, count_nonzero, moveaxis, rollaxis, argwhere,
    flatnonzero, isclose, allclose, array_equal, array_equiv, indices, outer, astype, isscalar,
    vdot, inner, fromfunction, cross, isfortran, roll, tensordot, convolve, correlate)
from ._fromnumeric import (  # noqa: E402
    sum, prod, max, min, amax, amin, any, all, mean, var, std, argmax, argmin, ptp, cumsum,
    cumprod, reshape, ravel, transpose, permute_dims, matrix_transpose, swapaxes, squeeze, clip,
    round, around, shape, ndim, size, sort, argsort, resize, compress, choose, cumulative_sum,
    cumulative_prod, repeat, take, put, diagonal, trace, partition, argpartition, searchsorted)
from ._function_base import (  # noqa: E402
    copy, linspace, average, median, flip, angle, diff, meshgrid, logspace, append, delete,
    insert, trim_zeros, extract, select, sort_complex, sinc, trapezoid, asarray_chkfinite,
    unwrap, geomspace, interp, place, require, piecewise, rot90, cov, corrcoef, gradient,
    digitize, percentile, quantile)
from ._shape_base import (  # noqa: E402
    expand_dims, atleast_1d, atleast_2d, atleast_3d, hstack, vstack, row_stack, dstack,
    column_stack, array_split, split, hsplit, vsplit, dsplit, unstack, kron, block, tile,
    take_along_axis, put_along_axis)
from ._stride_tricks import (  # noqa: E402
    broadcast, broadcast_to, broadcast_shapes, broadcast_arrays)
from ._twodim_base import (  # noqa: E402
    eye, identity, fliplr, flipud, tri, tril, triu, tril_indices, triu_indices,
    tril_indices_from, triu_indices_from, vander, mask_indices, diagflat, diag)
from ._type_check import (  # noqa: E402
    real, imag, iscomplexobj, isrealobj, isreal, iscomplex, nan_to_num, real_if_close)
from ._ufunclike import (  # noqa: E402
    isposinf, isneginf, fix)
from ._arraysetops import (  # noqa: E402
    ediff1d, union1d, setdiff1d, setxor1d, intersect1d, unique, unique_values, unique_counts,
    unique_inverse, unique_all, isin)
from ._nanfunctions import (  # noqa: E402
    nansum, nanprod, nanmax, nanmin, nanmean, nancumsum, nancumprod, nanmedian, nanargmax,
    nanargmin, nanvar, nanstd, nanpercentile, nanquantile)
from ._histograms import (  # noqa: E402
    histogram_bin_edges, histogram, histogram2d, histogramdd)
from . import _polynomial as _polynomial_mod  # noqa: E402
from ._polynomial import (  # noqa: E402
    polyval, polyadd, polysub, polyder, polyint, polymul, polyfit, polydiv, roots, poly)
from ._npyio import (  # noqa: E402
    loadtxt, genfromtxt, fromfile, fromstring, fromregex, load, save, savetxt, savez,
    savez_compressed)
from ._window import (  # noqa: E402
    bartlett, blackman, hamming, hanning)
from ._arraypad import (  # noqa: E402
    pad)
from ._einsum import (  # noqa: E402
    einsum_path, einsum)
from ._arrayprint import (  # noqa: E402
    array_repr, array_str, array2string)
from ._index_tricks import (  # noqa: E402
    ix_, diag_indices, diag_indices_from, fill_diagonal, mgrid, ogrid, r_, c_, unravel_index,
    ravel_multi_index, vectorize, frompyfunc, apply_along_axis)
from . import linalg, fft, random, lib, io, testing  # noqa: E402
from ._array_api import __array_namespace_info__, __array_api_version__  # noqa: E402

_FALLBACK_OK = set()   # native names left out of the dispatch (none now)


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
        import sys  # lazy: a module-level sys would be ndtile.sys
        print(f"ndtile: a deferred operation failed: {e}", file=sys.stderr)


import atexit as _atexit  # noqa: E402
_atexit.register(_sync_at_exit)
# no other thread inside the core across os.fork (the runtime's own fork
# handlers then finish the pending tasks and restart the workers)
import os as _os  # noqa: E402
if hasattr(_os, 'register_at_fork'):
    _os.register_at_fork(before=_core._fork_before, after_in_parent=_core._fork_after,
                         after_in_child=_core._fork_after)
del _os


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
    import sys  # lazy: as os above: not names of the ndtile namespace
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
    if name == 'polynomial':            # NumPy's, with ndtile arrays as points
        _polynomial_mod.adapt_numpy_polynomial()
        globals()[name] = _np.polynomial
    return _umath.module_getattr('ndtile', _np, name, globals())


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
        if name in _FALLBACK_OK or name in _PASSTHROUGH or name in _ITERATORS:
            continue
        if getattr(obj, '__module__', '').startswith('ndtile'):
            _fallback.NATIVE[npobj] = obj
            # entered through the check for other people's arrays (_foreign)
            g[name] = _foreign.dispatching(
                obj, _foreign.constructor(npobj, obj) if name in _foreign.CONSTRUCTORS
                else npobj, name)
    for sub, npsub in ((linalg, _np.linalg), (fft, _np.fft), (random, _np.random),
                       (lib.stride_tricks, _np.lib.stride_tricks)):
        for name in getattr(sub, '_NATIVE', ()):
            npobj = getattr(npsub, name, None)
            if npobj is not None:
                impl = getattr(sub, name)
                _fallback.NATIVE[npobj] = impl
                # linalg's, fft's and NumPy's other __array_function__
                # functions (sliding_window_view; not random's, nor as_strided)
                if sub is linalg or sub is fft or \
                        (sub is not random and hasattr(npobj, '_implementation')):
                    prefix = {linalg: 'linalg.', fft: 'fft.'}.get(sub, 'lib.stride_tricks.')
                    setattr(sub, name, _foreign.dispatching(impl, npobj, prefix + name))


from . import _foreign  # noqa: E402
_foreign.setup(ndarray)
_umath._FOREIGN = _foreign.foreign
_register_native()


# The methods of ndtile's arrays and ufuncs are calls of the program's, as
# the Dispatch functions are: the floating-point errors of the work a call
# records are reported when it returns, dropped when it raises (_core's
# errors.c, "the call in progress").
def _guard_methods(cls):
    for name, obj in list(vars(cls).items()):
        if type(obj) is _types.FunctionType and (
                not name.startswith('_') or name in _GUARDED_DUNDERS):
            setattr(cls, name, _core.guard(obj))
    for sub in cls.__subclasses__():
        if sub.__module__.startswith('ndtile.'):
            _guard_methods(sub)


# (not the protocols NumPy calls, __array_ufunc__ and __array_function__:
# ndtile compares them with ndarray's own to find a subclass's override)
_GUARDED_DUNDERS = {'__call__', '__iter__', '__next__', '__getitem__', '__setitem__',
                    '__matmul__', '__rmatmul__', '__imatmul__', '__divmod__', '__rdivmod__',
                    '__round__', '__contains__'}
for _cls in (ndarray, flatiter, ufunc):
    _guard_methods(_cls)

# NumPy's docstrings with an ndtile note on every public function (_docs).
import sys as _sys  # noqa: E402
import importlib as _importlib  # noqa: E402
import importlib.machinery as _machinery  # noqa: E402
import importlib.util as _imputil  # noqa: E402


class _NumpySubmodules:
    """Imports `ndtile.X` (X a public NumPy submodule ndtile has no module
    of its own for: ma, polynomial, dtypes, exceptions, lib.recfunctions,
    ...) as NumPy's module itself, the object `ndtile.X` already is, so that
    `import numpy.ma as ma` and `from numpy.polynomial import Polynomial`
    run with ndtile's name in place of numpy's; and NumPy's numpy.polynomial
    by NumPy's name, adapted to ndtile's points as ndtile's name for it is
    (_polynomial.numpy_polynomial_spec)."""

    @staticmethod
    def find_spec(fullname, path=None, target=None):
        if fullname == 'numpy.polynomial':      # NumPy's name: adapted all the same
            return _polynomial_mod.numpy_polynomial_spec(fullname, path)
        parts = fullname.split('.')
        if parts[0] != 'ndtile' or len(parts) < 2 or \
                '._' in '.' + '.'.join(parts[1:]):    # (this namespace's any is ndtile's)
            return None
        parent = _sys.modules.get(fullname.rpartition('.')[0])
        if parent is not None and getattr(parent, '__name__', '').startswith('ndtile') \
                and _machinery.PathFinder.find_spec(
                    fullname, getattr(parent, '__path__', None)) is not None:
            return None                 # ndtile's own module
        npname = 'numpy.' + '.'.join(parts[1:])
        try:
            if _imputil.find_spec(npname) is None:
                return None
        except (ImportError, ValueError):
            return None
        return _machinery.ModuleSpec(fullname, _NumpySubmodules, origin=npname)

    @staticmethod
    def create_module(spec):
        if spec.origin.startswith('numpy.polynomial'):
            _polynomial_mod.adapt_numpy_polynomial()
        module = _importlib.import_module(spec.origin)
        spec.loader_state = module.__spec__
        return module

    @staticmethod
    def exec_module(module):
        # the import machinery gave NumPy's module this spec: NumPy's back
        module.__spec__ = module.__spec__.loader_state


_sys.meta_path.insert(0, _NumpySubmodules)
if 'numpy.polynomial' in _sys.modules:         # imported before ndtile
    _polynomial_mod.adapt_numpy_polynomial()
from . import _docs  # noqa: E402
_docs.apply(_sys.modules[__name__])
del _name, _obj
