"""Other people's arrays: NumPy subclasses and __array_function__ objects.

NumPy's protocols leave an array to its own implementation: np.mean of a
masked array runs MaskedArray's mean (the mask counts), np.sum of a matrix
is a matrix, a dask or CuPy array handles np.sum itself. ndtile's public
functions and ufuncs keep that promise with one check as they are entered:
when an argument is a numpy.ndarray subclass (not numpy.ndarray itself), or
any object whose type brings its own __array_function__ / __array_ufunc__
(neither ndtile's nor numpy.ndarray's), the call goes to NumPy's function or
ufunc, with ndtile arrays among the arguments as NumPy arrays (out= and
arguments NumPy writes into are written back, see _fallback.run_numpy), and
NumPy's dispatch does the rest. Plain NumPy arrays in a result become
ndtile arrays; a subclass (the masked array) stays what NumPy made.

The check costs a type comparison per argument on the hot path (in C, see
_core's dispatcher): exact ndtile arrays, NumPy arrays and Python scalars
are known plain types; any other type's answer is cached.
"""
import numpy as _np

from . import _core
from . import _fallback as F
import importlib

Array = _core.Array
_NP = _np.ndarray
_NP_AF = _np.ndarray.__array_function__
_NP_AU = _np.ndarray.__array_ufunc__
# types known to be no one else's arrays (ndtile.ndarray joins in setup)
_PLAIN = {_NP, int, float, bool, complex, str, type(None), slice, type(Ellipsis), bytes,
          _np.dtype, type}
_by_type = {}


def _type_is_foreign(t):
    if issubclass(t, Array):
        return False            # ndtile's own, and its subclasses (their hooks run in ndtile)
    if issubclass(t, _NP):
        return True             # masked arrays, matrix, memmap, user subclasses
    if issubclass(t, _np.generic):
        return False
    af = getattr(t, '__array_function__', None)
    if af is not None and af is not _NP_AF:
        return True
    au = getattr(t, '__array_ufunc__', None)
    return au is not None and au is not _NP_AU


def _is_foreign(x, depth=0):
    t = type(x)
    if t is list or t is tuple:
        # one level into sequences (np.concatenate([ma, ma]), np.array([m]));
        # nested sequences by their first element only (a nested list of
        # numbers costs one look per level, not one per number), at most 64
        # levels down (NumPy's most dimensions; a list that contains itself
        # would recurse forever)
        if depth > 64:
            return False
        for v in x:
            tv = type(v)
            if tv in _PLAIN:
                continue
            if tv is list or tv is tuple:
                if v and _is_foreign(v[0], depth + 1):
                    return True
                continue
            f = _by_type.get(tv)
            if f is None:
                f = _by_type[tv] = _type_is_foreign(tv)
            if f:
                return True
        return False
    f = _by_type.get(t)
    if f is None:
        f = _by_type[t] = _type_is_foreign(t)
    return f


def foreign(args, kwargs):
    """True when NumPy's function should take this call (see above)."""
    plain = _PLAIN
    for a in args:
        if type(a) not in plain and _is_foreign(a):
            return True
    if kwargs:
        for a in kwargs.values():
            if type(a) not in plain and _is_foreign(a):
                return True
    return False


def dispatching(impl, npfunc, name):
    """impl (an ndtile function) entered through the foreign-array check
    (_core's Dispatch object: the check in C, a vectorcall to impl when the
    arguments are plain); the NumPy function npfunc takes calls with other
    people's arrays (run by _fallback.run_numpy: ndtile arguments as NumPy
    arrays, out= and arguments NumPy writes into written back, plain
    results as ndtile's)."""
    return _core.dispatcher(impl, npfunc, name)


# NumPy's array constructors take no argument's __array_function__ or
# __array_ufunc__ (only like='s): np.asarray(obj) calls obj.__array__. Of
# the objects that send a call to NumPy, only a numpy.ndarray subclass (a
# masked array, which np.asanyarray and np.array(subok=True) keep) needs
# NumPy's constructor; another library's array-like (a pint Quantity)
# goes to ndtile's, which calls its __array__, and that may hand back an
# ndtile array (code written for `import ndtile as np`), which NumPy's
# refuses ("object __array__ method not producing an array").
CONSTRUCTORS = frozenset(('array', 'asarray', 'asanyarray', 'ascontiguousarray',
                          'asfortranarray'))


def _np_subclass_in(x, depth=0):
    t = type(x)
    if t is list or t is tuple:
        # as _is_foreign: each item, nested sequences by their first item
        if depth > 64:
            return False
        for v in x:
            if type(v) is list or type(v) is tuple:
                if v and _np_subclass_in(v[0], depth + 1):
                    return True
            elif _np_subclass_in(v, depth + 1):
                return True
        return False
    return t is not _NP and issubclass(t, _NP)


def constructor(npfunc, impl):
    """The NumPy side of the constructor impl (see CONSTRUCTORS): NumPy's
    npfunc for a numpy.ndarray subclass or a like= object, else impl."""
    def run(*args, **kwargs):
        if kwargs.get('like') is not None or \
                any(_np_subclass_in(a) for a in args) or \
                any(_np_subclass_in(v) for v in kwargs.values()):
            return npfunc(*args, **kwargs)
        return impl(*args, **kwargs)
    run.__name__ = run.__qualname__ = npfunc.__name__
    run.__wrapped__ = npfunc
    return run


def _judge(t):
    f = _by_type[t] = _type_is_foreign(t)
    return f


def setup(nd):
    _PLAIN.add(nd)
    _core.dispatch_setup(_by_type, _judge, F.run_numpy, _NP, _restore)


def _restore(name):
    """An unpickled ndtile function: the namespace's entry of that name."""
    mod, _, attr = name.rpartition('.')
    return getattr(importlib.import_module('ndtile' + ('.' + mod if mod else '')), attr)


def array_function(func, types, args, kwargs):
    """ndarray.__array_function__: ndtile's version where there is one."""
    # (NumPy's guards: its C method refuses these before dispatching)
    if not isinstance(args, tuple):
        raise TypeError("args must be a tuple.")
    if not isinstance(kwargs, dict):
        raise TypeError("kwargs must be a dict.")
    impl = F.NATIVE.get(func)
    if impl is not None:
        if foreign(args, kwargs):
            # with other people's arrays too: NumPy's function on NumPy copies
            # of the ndtile ones, and their own dispatch
            return F.run_numpy(func, args, kwargs, func.__name__)
        return impl(*args, **kwargs)
    for t in types:
        if not (issubclass(t, Array) or issubclass(t, _np.ndarray)):
            return NotImplemented
    mod = getattr(func, '__module__', '') or ''
    name = func.__name__
    for sub in ('linalg', 'fft', 'random', 'lib'):
        if mod.startswith('numpy.' + sub) and sub != 'lib':
            name = sub + '.' + name
    return F.call(name, func, args, kwargs)
