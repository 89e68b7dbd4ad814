"""Running NumPy's own implementation where ndtile has none.

A function or method that ndtile does not implement still works: its
arguments are gathered into NumPy arrays, NumPy runs it, and array results
come back as ndtile arrays (NumPy arrays of dtypes the core lacks, such as
float16 or object, stay NumPy arrays). Arguments a NumPy function writes
into (out=, copyto's dst, ndarray.sort's self, ...) are written back.

The first fallback of each function warns with a RuntimeWarning naming the
function and the user's file and line. NDTILE_FALLBACK selects the policy:
  warn (default)  warn once per function
  ignore          fall back silently (also: off, quiet, 0)
  error           raise NotImplementedError instead of falling back
  summary         fall back silently, and print at exit (stderr, rank 0)
                  which functions fell back, how often, and where first
Any other value is a ValueError naming the variable and these words (the
runtime's one parser, src/runtime/env.c). counts() gives the tally in every
mode.
"""
import atexit
import functools
import os
import sys
import warnings

import numpy as _np

from . import _convert as C
from . import _core
from . import _errstate
from . import _ranks

_PKG_DIR = os.path.dirname(os.path.abspath(__file__))
_NP_DIR = os.path.dirname(os.path.abspath(_np.__file__))
_warned = set()

# Native implementations by NumPy function object, for __array_function__.
NATIVE = {}
# Fallback wrappers by qualified name (e.g. "linalg.solve"), made on first use.
_wrappers = {}
# Every name that has fallen back in this process.
USED = set()
# name -> [calls, "file:line" of the first call] (the summary)
_COUNTS = {}

# NumPy functions that write into an argument: name -> index of that argument
# (positional) or keyword name.
MUTATES = {
    'copyto': (0, 'dst'), 'put': (0, 'a'), 'putmask': (0, 'a'), 'place': (0, 'arr'),
    'fill_diagonal': (0, 'a'), 'put_along_axis': (0, 'arr'), 'shuffle': (0, 'x'),
    'random.shuffle': (0, 'x'), 'ndarray.sort': (0, 'self'), 'ndarray.partition': (0, 'self'),
    'ndarray.put': (0, 'self'), 'ndarray.itemset': (0, 'self'), 'ndarray.setfield': (0, 'self'),
    'ndarray.byteswap': (0, 'self'), 'ndarray.resize': (0, 'self'),
    # numpy.lib.recfunctions (through __array_function__): an unstructured
    # dst is assigned `dst[...] = src`
    'assign_fields_by_name': (0, 'dst'),
}


_WORDS = ('warn', 'ignore', 'error', 'summary')   # by the value env.c parses to
_policy_cache = [None, 'warn']


def policy():
    """'warn' | 'ignore' | 'error' | 'summary', from NDTILE_FALLBACK as the
    runtime parses it (read each time: a program may change it)."""
    text = os.environ.get('NDTILE_FALLBACK', '')
    if text == _policy_cache[0]:
        return _policy_cache[1]
    if not text:            # unset or empty: the default
        word = 'warn'
    else:
        word = _WORDS[_core.parse_setting('NDTILE_FALLBACK', text)]
    _policy_cache[:] = [text, word]
    return word


def _internal(filename):
    return filename.startswith(_PKG_DIR) or filename.startswith(_NP_DIR) or \
        filename.startswith('<frozen')


def user_frame():
    """(stacklevel for warnings.warn called from the caller, frame) of the
    first frame outside ndtile and numpy."""
    f = sys._getframe(2)
    level = 2
    while f is not None and _internal(f.f_code.co_filename):
        f = f.f_back
        level += 1
    return level, f


def warn(message, category):
    """warnings.warn on the user's behalf: at the first frame outside ndtile
    and numpy, the line that called ndtile (NumPy's own warnings point at
    the caller of its function; a fixed stacklevel is off by the frames of
    whatever path reached the warning: __array_function__, a method, a
    helper)."""
    warnings.warn(message, category, stacklevel=user_frame()[0])


def notify(name):
    """Called before falling back for `name`: warns once, or raises."""
    USED.add(name)
    pol = policy()
    c = _COUNTS.get(name)
    if c is None:
        f = user_frame()[1] if pol != 'error' else None
        _COUNTS[name] = [1, f"{f.f_code.co_filename}:{f.f_lineno}" if f is not None else None]
    else:
        c[0] += 1
    if pol == 'error':
        raise NotImplementedError(
            f"ndtile does not implement {name} and NDTILE_FALLBACK=error forbids running "
            f"NumPy's version")
    if pol in ('ignore', 'summary') or name in _warned:
        return
    _warned.add(name)
    level, f = user_frame()
    where = f"{f.f_code.co_filename}:{f.f_lineno}" if f is not None else "<unknown>"
    warnings.warn(f"ndtile does not implement {name}; running NumPy's version on gathered "
                  f"data (called at {where})", RuntimeWarning, stacklevel=level)


def reset_warnings():
    _warned.clear()


def counts():
    """{name: (calls, 'file:line' of the first call or None)} of every
    function that fell back to NumPy in this process."""
    return {k: (v[0], v[1]) for k, v in _COUNTS.items()}


def summary_lines():
    """The lines NDTILE_FALLBACK=summary prints at exit."""
    if not _COUNTS:
        return ["ndtile: no NumPy function fell back in this run"]
    rows = sorted(_COUNTS.items(), key=lambda kv: (-kv[1][0], kv[0]))
    total = sum(v[0] for _, v in rows)
    out = [f"ndtile: {len(rows)} NumPy function{'s' if len(rows) != 1 else ''} fell back "
           f"({total} call{'s' if total != 1 else ''}); ndtile ran NumPy's version on gathered "
           f"data:"]
    width = max(len(k) for k, _ in rows)
    for name, (n, where) in rows:
        out.append(f"  {name:<{width}}  {n:>6} call{'s' if n != 1 else ' '}"
                   + (f"  first at {where}" if where else ""))
    return out


def _summary_at_exit():
    try:
        if policy() != 'summary':
            return
        if _core.nranks() > 1 and _core.rank() != 0:
            return          # every rank runs the same calls: rank 0 says it
    except Exception:
        return
    try:
        sys.stderr.write("\n".join(summary_lines()) + "\n")
        sys.stderr.flush()
    except Exception:       # pragma: no cover - stderr gone
        pass


atexit.register(_summary_at_exit)


# functions whose copy=False means "never copy" (astype's and meshgrid's
# mean "where it can be avoided")
_NEVER_COPY = frozenset(('array', 'asarray', 'asanyarray', 'from_dlpack', 'reshape'))


def run_numpy(func, args, kwargs, name=None):
    """func(*args, **kwargs) on NumPy copies of ndtile arguments; writes back
    outputs and mutated arguments; converts array results to ndtile."""
    writeback = []      # (ndtile array, its NumPy copy)
    keep = []           # (object to return, NumPy object func returns for it)
    nargs = list(C.to_np_tree(a) for a in args)
    nkw = {k: C.to_np_tree(v) for k, v in kwargs.items()}
    out = kwargs.get('out')
    if out is not None:
        outs = out if isinstance(out, tuple) else (out,)
        nouts = nkw['out'] if isinstance(out, tuple) else (nkw['out'],)
        for o, no in zip(outs, nouts):
            if C.is_nd(o):
                writeback.append((o, no))
            if isinstance(no, _np.ndarray):
                keep.append((o, no))
    m = MUTATES.get(name)
    if m is not None:
        pos, kw = m
        if len(args) > pos and C.is_nd(args[pos]):
            writeback.append((args[pos], nargs[pos]))
        elif kw in kwargs and C.is_nd(kwargs[kw]):
            writeback.append((kwargs[kw], nkw[kw]))
        for nd, npa in writeback[-1:]:
            keep.append((nd, npa))
    if name in _ranks.WRITES_FILES:
        res = _ranks.on_root(func, nargs, nkw)     # a file is written once
    else:
        res = _errstate.numpy_call(func, *nargs, **nkw)
    for nd, npa in writeback:
        nd._assign(C.from_numpy(npa) if C.supported(npa.dtype) else
                   C.from_numpy(npa.astype(nd.dtype)), _core.CASTING_UNSAFE)
    r = _convert_result(res, keep)
    if name in _NEVER_COPY and kwargs.get('copy') is False and type(res) is _np.ndarray \
            and r is not res:
        # NumPy's view (np.asarray(memmap, copy=False)) would be copied into
        # tiles: copy=False promises no copy here, so NumPy's ValueError
        raise ValueError("Unable to avoid copy while creating an array as requested.\n"
                         "ndtile arrays always copy data from NumPy arrays and Python "
                         "objects into tiles.")
    return r


def _convert_result(res, keep):
    for obj, npa in keep:
        if res is npa:
            return obj
    if keep and type(res) is tuple:
        return tuple(_convert_result(r, keep) for r in res)
    return C.from_np_tree(res)


def call(name, func, args, kwargs):
    notify(name)
    return run_numpy(func, args, kwargs, name)


def wrap(name, func):
    """A fallback wrapper of the NumPy callable func, reported as `name`."""
    w = _wrappers.get(name)
    if w is not None and w.__wrapped__ is func:
        return w

    @functools.wraps(func)
    def fallback(*args, **kwargs):
        notify(name)
        return run_numpy(func, args, kwargs, name)
    fallback.__ndtile_fallback__ = True
    _wrappers[name] = fallback
    return fallback


def is_fallback(obj):
    return getattr(obj, '__ndtile_fallback__', False)
