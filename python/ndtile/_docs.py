"""Docstrings of the public names: NumPy's own, headed by an ndtile note.

ndtile keeps NumPy's interface, so NumPy's documentation is the right one
for almost every public name; what a user also needs is how ndtile runs it.
At import, apply() walks each public namespace once and gives every ndtile
function, ufunc, class and method that has a NumPy counterpart the
docstring

    ndtile: <how ndtile runs it: natively, or NumPy's version on gathered
    data>. <ndtile's own docstring, if it had one>. <deviations, if any>

    <NumPy's docstring>

Names that ARE NumPy's objects (dtypes, constants, printing options, ...)
are left alone: writing their __doc__ would change NumPy's. Fallback
wrappers are made lazily by the modules' __getattr__ (_fallback.py); they
get their note when they are made (noted_getattr wraps each module's
__getattr__).

The cost is one string concatenation per name (about 700 names): 2-4 ms of
a 150-200 ms import on a quiet machine (tests/python/test_docstrings.py
keeps it small).
"""
import re as _re
import types as _types

import numpy as _np
import sys

# The first word of every note: tests and tools find the note by it.
MARK = "ndtile:"

NATIVE = ("ndtile: runs natively (deferred tasks over the array's tiles, on every core; "
          "argument forms it does not cover run NumPy's version with the fallback warning).")
UFUNC = ("ndtile: a native ufunc (elementwise tasks over tiles; chains of elementwise "
         "operations on large arrays are fused into one pass). Loops in float16 (float "
         "functions of bool, int8, uint8 inputs) and dtypes the core lacks (float16, "
         "longdouble, object, strings, datetimes) run in NumPy.")
UFUNC_NUMPY = ("ndtile: the core has no loop for this ufunc; NumPy's runs on gathered data "
               "and the result comes back as an ndtile array (warns once; "
               "NDTILE_FALLBACK=error makes it an error).")
FALLBACK = ("ndtile: no native version; NumPy's own function runs on the arguments gathered "
            "into NumPy arrays, and array results come back as ndtile arrays. It warns once "
            "per function (NDTILE_FALLBACK=ignore silences it, =error raises "
            "NotImplementedError instead).")
CLASS = "ndtile: ndtile's class, with NumPy's interface."

_ORDER = ("A reduction adds one partial per tile and combines the partials in a fixed "
          "order: float results can differ from NumPy's pairwise sums in the last bits, "
          "and are the same for any number of workers or ranks.")
_TRANSCENDENTAL = ("The vectorised (SLEEF) loop can differ from NumPy's in the last bit.")
_BLAS = ("Products run on OpenBLAS tile by tile; infinities and NaNs can propagate "
         "differently from NumPy's bundled OpenBLAS, and complex infinities over several "
         "axes can give nan+nanj where NumPy gives inf-infj (NumPy promises no order).")

# Known deviations by name (docs/fuzzing.md, "Documented deviations"; the
# user guide's docs/guide/deviations.md explains each).
DEVIATIONS = {}
for _n in ('sum', 'prod', 'mean', 'var', 'std', 'nansum', 'nanprod', 'nanmean', 'nanvar',
           'nanstd', 'cumsum', 'cumprod', 'nancumsum', 'nancumprod', 'average',
           'cumulative_sum', 'cumulative_prod', 'trapezoid', 'cov', 'corrcoef'):
    DEVIATIONS[_n] = _ORDER
DEVIATIONS['prod'] = _ORDER + " " + ("A complex product with infinities over several axes "
                                     "multiplies in another order than NumPy's, which decides "
                                     "between nan+nanj and inf-infj.")
_OUT_ONCE = ("Into an out= of another dtype than its loop's, the running result is cast into "
             "out once, where NumPy's is at every 8192-element buffer: they differ where it "
             "is not exact in out's dtype (a float sum into an int out).")
for _n in ('sum', 'prod', 'max', 'min', 'amax', 'amin', 'ptp', 'nansum', 'nanprod', 'nanmax',
           'nanmin', 'mean', 'var', 'std'):
    DEVIATIONS[_n] = (DEVIATIONS[_n] + " " if _n in DEVIATIONS else "") + _OUT_ONCE
for _n in ('dot', 'vdot', 'inner', 'outer', 'matmul', 'tensordot', 'einsum', 'kron',
           'vecdot', 'matvec', 'vecmat', 'multi_dot'):
    DEVIATIONS[_n] = _BLAS
for _n in ('exp', 'exp2', 'expm1', 'log', 'log2', 'log10', 'log1p', 'sin', 'cos', 'tan',
           'arcsin', 'arccos', 'arctan', 'arctan2', 'sinh', 'cosh', 'tanh', 'arcsinh',
           'arccosh', 'arctanh', 'power', 'cbrt', 'hypot', 'logaddexp', 'logaddexp2'):
    DEVIATIONS[_n] = _TRANSCENDENTAL
DEVIATIONS['unique'] = ("Which of several complex NaNs unique keeps, and the sign of an "
                        "infinite part next to a NaN, can differ from NumPy's choice.")
DEVIATIONS['clip'] = ("clip(-0.0, -1, 0) is 0.0 (NumPy gives -0.0 with scalar bounds and 0.0 "
                      "with array bounds).")
for _n in ('asarray', 'array', 'asanyarray'):
    DEVIATIONS[_n] = ("Another object's memory (a NumPy array, memoryview, bytearray, "
                      "array.array, __array_interface__) is copied into tiles where NumPy "
                      "shares it, so copy=False raises for it; frombuffer shares it.")
del _n


def _indent_of(doc):
    """The indentation of doc's body (the lines after the first), which
    inspect.cleandoc removes: the note's own lines get the same, so that the
    whole docstring still dedents as one."""
    m = _BODY.search(doc)
    return len(m.group(1)) if m else 0


_BODY = _re.compile(r'\n( *)[^ \n]')


def compose(note, npdoc, own=None, name=None):
    """The note (and ndtile's own docstring, and the deviations of name) in
    front of NumPy's docstring."""
    parts = [note]
    if own:
        parts.append(' '.join(own.split()))
    dev = DEVIATIONS.get(name)
    if dev:
        parts.append("Deviation from NumPy. " + dev)
    text = "\n".join(parts)
    if not npdoc:
        return text
    pad = ' ' * _indent_of(npdoc)
    lead = npdoc[:1] == '\n'       # NumPy's text starts on the next line
    key = (text, pad, lead)
    head = _HEADS.get(key)
    if head is None:        # a few distinct notes: wrap each once
        head = _HEADS[key] = ("\n" + pad).join(_wrap(text, 76)) + "\n" + pad + (
            "" if lead else "\n" + pad)
    return head + npdoc     # one copy of NumPy's text


_HEADS = {}


def _wrap(text, width):
    out = []
    for para in text.split("\n"):
        line = ''
        for word in para.split(' '):
            if line and len(line) + 1 + len(word) > width:
                out.append(line)
                line = word
            else:
                line = f"{line} {word}" if line else word
        out.append(line)
    return out


def _has_note(obj):
    d = getattr(obj, '__doc__', None)
    return isinstance(d, str) and d.startswith(MARK)


def _own_doc(obj, npdoc):
    d = getattr(obj, '__doc__', None)
    if not isinstance(d, str) or not d.strip() or d == npdoc or d.startswith(MARK):
        return None
    return d


def _set(obj, doc):
    try:
        obj.__doc__ = doc
    except (AttributeError, TypeError):     # a builtin or a bound method
        f = getattr(obj, '__func__', None)
        if f is not None:
            f.__doc__ = doc


def note_one(obj, npobj, name):
    """Gives obj (ndtile's) NumPy's docstring of npobj with the note that
    fits obj. Objects that are NumPy's own are left alone."""
    if obj is npobj or npobj is None or _has_note(obj):
        return
    base = getattr(obj, '__func__', obj)
    if base is getattr(npobj, '__func__', npobj):
        return
    npdoc = getattr(npobj, '__doc__', None)
    if not isinstance(npdoc, str):
        npdoc = None
    if getattr(obj, '__ndtile_fallback__', False):
        note, own = FALLBACK, None
    elif isinstance(obj, type):
        note, own = CLASS, _own_doc(obj, npdoc)
    elif type(obj).__name__ in ('ufunc', '_Half') or type(obj).__module__ == 'ndtile._umath':
        native = getattr(obj, '_op', 0) is not None or type(obj).__name__ != 'ufunc'
        note, own = (UFUNC if native else UFUNC_NUMPY), None
    else:
        note, own = NATIVE, _own_doc(obj, npdoc)
    _set(obj, compose(note, npdoc, own, name))


def apply_module(ns, npmod):
    """Every public callable of namespace ns (a module's globals) against
    its NumPy module npmod; vars(), so that nothing is imported or made."""
    npns = vars(npmod)
    for name, obj in ns.items():        # (notes change objects, not ns)
        if name.startswith('_') or not callable(obj) or isinstance(obj, _types.ModuleType):
            continue
        npobj = npns.get(name)
        if npobj is None:
            npobj = getattr(npmod, name, None) if hasattr(npmod, name) else None
        if npobj is None:
            continue
        note_one(obj, npobj, name)
        if isinstance(obj, type) and isinstance(npobj, type) and obj is not npobj:
            apply_class(obj, npobj)


def apply_class(cls, npcls):
    """The methods and properties cls defines (and its ndtile bases) against
    NumPy's class npcls: notes, and NumPy's signatures."""
    seen = set()
    for k in cls.__mro__:
        if k is object or not (k.__module__ or '').startswith('ndtile'):
            continue
        for name, attr in vars(k).items():
            if name in seen or name in ('__init__', '__new__'):
                continue
            seen.add(name)
            npattr = getattr(npcls, name, None)
            if npattr is None:
                continue
            if isinstance(attr, (staticmethod, classmethod)):
                attr = attr.__func__
            if (isinstance(attr, property) or callable(attr)) and \
                    (not name.startswith('_') or name == '__call__'):
                note_one(attr, npattr, name)
            _numpy_signature(attr, npattr)


def _numpy_signature(attr, npattr):
    """inspect.signature of ndtile's method attr gives NumPy's text signature
    of npattr (a C method of NumPy's, read only when asked): ndtile's takes
    NumPy's arguments, written out in Python where NumPy's says **kwargs
    (and NumPy's C keywords where its text signature names others)."""
    fn = getattr(attr, '__wrapped__', attr)     # (a _core.method's function)
    if isinstance(fn, _types.FunctionType) and not hasattr(fn, '__wrapped__') and \
            isinstance(npattr, (_types.MethodDescriptorType, _types.WrapperDescriptorType)) and \
            npattr.__text_signature__ is not None:
        fn.__wrapped__ = npattr


def noted_getattr(getattr_fn):
    """A module __getattr__ that gives what getattr_fn makes (fallback
    wrappers, NumPy's ufuncs wrapped as ndtile's) its note."""
    def __getattr__(name):
        obj = getattr_fn(name)
        if callable(obj) and not isinstance(obj, (type, _types.ModuleType)):
            note_one(obj, _np_counterpart(getattr_fn, name), name)
        return obj
    __getattr__.__wrapped__ = getattr_fn
    return __getattr__


def _np_counterpart(getattr_fn, name):
    mod = getattr_fn.__module__        # 'ndtile', 'ndtile.linalg', ...
    npmod = _np
    for part in mod.split('.')[1:]:
        npmod = getattr(npmod, part)
    return getattr(npmod, name, None)


def apply(pkg):
    """Notes for the package and its submodules, once, at import."""
    pairs = [(pkg, _np)]
    for sub, npsub in (('linalg', _np.linalg), ('fft', _np.fft), ('random', _np.random),
                       ('lib', _np.lib), ('lib.stride_tricks', _np.lib.stride_tricks)):
        mod = sys.modules.get(f"{pkg.__name__}.{sub}")
        if mod is not None:
            pairs.append((mod, npsub))
    for mod, npmod in pairs:
        ns = vars(mod)
        apply_module(ns, npmod)
        g = ns.get('__getattr__')
        if g is not None and not hasattr(g, '__wrapped__'):
            ns['__getattr__'] = noted_getattr(g)
