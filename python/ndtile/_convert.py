"""Moving data between NumPy and ndtile, and normalising operands."""
import inspect
import types
import warnings
import weakref

import numpy as _np

from . import _core
from . import _errstate
from . import _array_api
from . import _dtypes as D
from . import _order as _O

Array = _core.Array
_ndarray_np = _np.ndarray
_generic = _np.generic
_PYSCALARS = (bool, int, float, complex)
# set by _ndarray: the plain array class, and subclass_like(r, proto) (r as
# the class of a subclass instance proto, NumPy's subok=True)
ND = None
subclass_like = None
subclass_method = None     # (name, args, kwargs): args[0].name(*args[1:], **kwargs)
wrap_by_inputs = None      # (inputs, r): r wrapped as a ufunc's by its subclass inputs


def check_like(like):
    """NumPy's check of a creation function's like= (not None): an object
    whose type implements __array_function__ (a NumPy or ndtile array;
    other people's arrays were sent to NumPy's function by the entry check)."""
    if getattr(type(like), '__array_function__', None) is None:
        raise TypeError("The `like` argument must be an array-like that implements the "
                        "`__array_function__` protocol.")


NO_LIKE = object()     # like_call's answer where the creation function runs itself
_LIKE_SIGS = {}


def like_call(like, func, params, name=None):
    """NumPy's like= dispatch (NEP 35) of creation function func (ndtile's,
    called with its parameters params: its locals() as it is entered): an
    ndtile array whose class brings its own __array_function__ gets the call
    as NumPy gives it, like.__array_function__(numpy's function, (its
    class,), args, kwargs without like); NO_LIKE where func runs itself
    (an ndtile or NumPy array with the default hook). Checks like first."""
    check_like(like)
    t = type(like)
    if not isinstance(like, Array) or t.__array_function__ is ND.__array_function__:
        return NO_LIKE
    name = name or func.__name__
    sig = _LIKE_SIGS.get(func)
    if sig is None:
        # the code's own parameters (a __signature__ set for NumPy's may differ)
        sig = _LIKE_SIGS[func] = inspect.signature(
            types.FunctionType(func.__code__, {}, None, func.__defaults__))
    kwdefaults = func.__kwdefaults__ or {}
    args, kwargs = [], {}
    for p in sig.parameters.values():
        if p.name == 'like':
            continue
        v = params[p.name]
        if p.kind is p.VAR_POSITIONAL:
            args.extend(v)
        elif p.kind is p.VAR_KEYWORD:
            kwargs.update(v)
        elif p.kind is p.KEYWORD_ONLY:
            if p.name not in kwdefaults or v is not kwdefaults[p.name]:
                kwargs[p.name] = v
        elif p.default is p.empty:
            args.append(v)          # a required argument, by position as callers give it
        elif v is not p.default:
            kwargs[p.name] = v      # the others as given (those left at their defaults left out)
    return like_dispatch(like, name, tuple(args), kwargs)


def like_dispatch(like, name, args, kwargs):
    """like.__array_function__(numpy.<name>, (type(like),), args, kwargs),
    NumPy's TypeError where it answers NotImplemented."""
    npf = getattr(_np, name)
    if isinstance(npf, types.FunctionType):
        # NumPy's functions written in Python pass on every argument, by
        # keyword after the required ones (ones(2) gives dtype=None,
        # order='C', device=None); those in C pass the caller's own
        b = inspect.signature(npf).bind(*args, **kwargs)
        b.apply_defaults()
        args, kwargs = [], {}
        for p in b.signature.parameters.values():
            v = b.arguments.get(p.name)
            if p.name == 'like':
                continue
            if p.kind is p.VAR_KEYWORD:
                kwargs.update(v)
            elif p.kind is p.VAR_POSITIONAL:
                args.extend(v)
            elif p.default is p.empty and p.kind is not p.KEYWORD_ONLY:
                args.append(v)
            else:
                kwargs[p.name] = v
        args = tuple(args)
    r = like.__array_function__(npf, (type(like),), args, kwargs)
    if r is NotImplemented:
        raise TypeError(f"no implementation found for 'numpy.{name}' on types that implement "
                        f"__array_function__: [{type(like)}]")
    return r


def c_method_args(fname, names, defaults, args, kwargs):
    """A C method's arguments parsed as NumPy's npy_parse_arguments does,
    with its TypeErrors (too many, unknown keyword, given twice): the values
    of names in order, defaults for those not given."""
    n = len(args) + len(kwargs)
    if n > len(names):
        what = "arguments" if args else "keyword arguments"
        raise TypeError(f"{fname}() takes at most {len(names)} {what} ({n} given)")
    values = list(args) + list(defaults[len(args):])
    for k, v in kwargs.items():
        try:
            i = names.index(k)
        except ValueError:
            raise TypeError(f"'{k}' is an invalid keyword argument for {fname}()") from None
        if i < len(args):
            raise TypeError(f"argument for {fname}() given by name ('{k}') and position "
                            f"({i + 1})")
        values[i] = v
    return values


def shape_str(shape):
    """A shape as NumPy's messages print it (its iterator, indexing, ufunc
    outputs): (2,7,8), (3,), ()."""
    shape = tuple(shape)
    return "(" + ",".join(map(str, shape)) + ("," if len(shape) == 1 else "") + ")"


def is_nd(x):
    return isinstance(x, Array)


def int_scalar(x):
    """x as a Python int where NumPy's C converters (PyArray_PyIntAsInt) take
    it as one: a Python or NumPy integer or a 0-d integer array (not a bool);
    else None."""
    if isinstance(x, (bool, _np.bool_)):
        return None
    if isinstance(x, (int, _np.integer)):
        return int(x)
    if isinstance(x, (Array, _np.ndarray)) and x.ndim == 0 and x.dtype.kind in 'iu':
        return int(x)
    return None


_NOVALUE = _np._NoValue


def given(value, default):
    """value, or default where it is NumPy's _NoValue: the keywords NumPy's
    signatures default to _NoValue (keepdims, where), which callers forward
    as they are (np._NoValue for keepdims was taken as true). On every
    reduction's path: one global, not numpy's attribute."""
    return default if value is _NOVALUE else value


def to_numpy(a):
    """A NumPy copy of an ndtile array (waits for its data)."""
    out = _np.empty(a.shape, a.dtype)
    if out.size:
        a._to_buffer(out)
    return out


def to_numpy_k(a):
    """A NumPy copy of ndtile array a in its layout (NumPy's order 'K' of a
    Fortran-ordered array is Fortran order), for the casts into dtypes
    ndtile does not hold."""
    if a.ndim > 1 and _O.is_f_only(a):
        return to_numpy(a._transpose(None)).T
    return to_numpy(a)


def from_numpy(x):
    """An ndtile copy of a NumPy array of a supported dtype."""
    dt = x.dtype
    c = D.code(dt)
    if c is None:
        if dt.names is None and dt.subdtype is None and not dt.isnative:
            x = x.astype(dt.newbyteorder('='))
            c = D.code(x.dtype)
        if c is None:
            raise TypeError(f"ndtile arrays cannot hold dtype {dt}")
    return _core.from_buffer(x, c)


def supported(dt):
    return D.code(dt) is not None


def np_or_nd(x):
    """A NumPy array as ndtile when its dtype is one ndtile holds, else as it
    is: NumPy subclasses such as masked arrays, and dtypes the core lacks,
    non-native byte order included (docs/guide/deviations.md, items 2 and
    13), stay NumPy's."""
    if type(x) is _ndarray_np:
        c = D.code(x.dtype)
        if c is not None:
            return _core.from_buffer(x, c)
    return x


def asarray(x, dtype=None, native=True):
    """x as an ndtile array if it can be one, else as a NumPy array.

    dtype: a numpy dtype (or None); a non-native one gives a NumPy array of
    it. native: an operand of non-native byte order (a NumPy array, or what
    NumPy makes of x) is read into a native ndtile array, as ndtile's
    functions compute on it; native=False (the public array/asarray) keeps
    it a NumPy array, as NumPy does."""
    if type(x) is list or type(x) is tuple:
        # (the commonest input first: np.array(list) of small lists)
        return from_sequence(x, dtype, native)
    if isinstance(x, Array):
        if dtype is None or dtype == x.dtype:
            return x
        c = D.code(dtype)
        if c is None:
            return to_numpy_k(x).astype(dtype)
        return x._astype(c, _core.CASTING_UNSAFE)
    if isinstance(x, _ndarray_np):
        # np.asanyarray, not astype: an unsized string dtype of an object
        # array whose strings are all empty is S8/U2 there (the object
        # itemsize), S1/U1 in astype
        y = x if dtype is None or dtype == x.dtype else _np.asanyarray(x, dtype=dtype)
    elif has_array_method(x):
        # the __array__ protocol, called once here: an object may hand back
        # an ndtile array (NumPy's asarray refused it: "not producing an array")
        r = x.__array__()
        if isinstance(r, Array):
            return asarray(r, dtype, native)
        if not isinstance(r, _ndarray_np):
            raise ValueError("object __array__ method not producing an array")
        y = _np.asarray(r, dtype=dtype)
    else:
        return from_sequence(x, dtype, native)
    return from_converted(y, dtype, native)


def from_sequence(x, dtype, native):
    """asarray of an object NumPy converts (a list, a tuple, a scalar)."""
    if type(x) is list and x and isinstance(x[0], Array):
        # NumPy reads the list's items by borrowed reference, and an
        # ndtile array's buffer export may let another thread run
        # (waiting for its data): one that replaces the list's items
        # freed the array NumPy was reading (a crash). NumPy reads a
        # copy of the list, holding its items.
        x = list(x)
    try:
        y = _np.asarray(x, dtype)
    except ValueError:
        r = _array_method_result(x)
        if r is None:
            t = _array_method_tree(x, 0)
            if t is None:
                raise
            return _put_back(asarray(t, dtype, native))
        y = asarray(r, dtype, native)
        return y._copy() if y is r else y     # a new array, as from any object
    return from_converted(y, dtype, native)


def from_converted(y, dtype, native):
    """asarray's result for y, NumPy's array of the input."""
    c = D.code_of(y.dtype)    # (cached by the dtype object: a third of D.code's time)
    if c is None:
        if native and dtype is None and not y.dtype.isnative and \
                D.code(y.dtype.newbyteorder('=')) is not None:
            return from_numpy(y)
        return y
    return _core.from_buffer(y, c)


def _array_method_result(x):
    """The ndtile array an object's __array__ gives (code written for
    `import ndtile as np` returns np.array(...) there; NumPy refuses any
    result but its own arrays), else None."""
    if not has_array_method(x):
        return None
    r = x.__array__()
    return r if isinstance(r, Array) else None


_NO_COPY = "Unable to avoid copy while creating an array as requested."
_NO_COPY_KEYWORD = (
    "__array__ implementation doesn't accept a copy keyword, so passing copy=False "
    "failed. __array__ must implement 'dtype' and 'copy' keyword arguments. To learn "
    "more, see the migration guide https://numpy.org/devdocs/numpy_2_0_migration_guide"
    ".html#adapting-to-changes-in-the-copy-keyword")


def has_array_method(x):
    """Whether np.array(x) goes through x's __array__ protocol: an object
    of a class with __array__ that is no array or NumPy scalar, and that
    NumPy does not read first by the buffer protocol, __array_struct__ or
    __array_interface__ (NumPy's order: those three before __array__)."""
    t = type(x)
    if getattr(t, '__array__', None) is None or isinstance(x, (Array, _ndarray_np, _generic)):
        return False
    if isinstance(x, (bytes, str)):
        return True
    try:
        memoryview(x).release()
    except Exception:    # (no buffer: TypeError; a failed export)
        pass
    else:
        return False
    # (looked up on the instance, as NumPy does)
    return not (hasattr(x, '__array_struct__') or hasattr(x, '__array_interface__'))


def from_array_method(x, dtype, copy, subok=False):
    """np.array(x, dtype, copy=copy) of an object with __array__
    (has_array_method), by NumPy 2's protocol: x.__array__(dtype, copy=copy),
    dtype only when given, copy only when not None; an __array__ without a
    copy keyword gets NumPy's DeprecationWarning and a call without it
    (copy=False then cannot be promised: ValueError). copy=True trusts an
    __array__ that took it; one that did not is copied. A result of another
    dtype is cast (copy=False: ValueError). An ndtile array __array__ gives
    is the result as it is, NumPy's array of a dtype ndtile holds is read
    into tiles (a copy: copy=False raises), one of a dtype ndtile does not
    hold is NumPy's. subok (asanyarray): a NumPy subclass instance that
    __array__ gives (a memmap, a masked array) stays one, cast and copied
    by NumPy's rules, as NumPy's asanyarray keeps it."""
    args = () if dtype is None else (dtype,)
    copied = False
    if copy is None:
        r = x.__array__(*args)
    else:
        try:
            r = x.__array__(*args, copy=copy)
            copied = copy
        except TypeError as e:
            if "__array__() got an unexpected keyword argument 'copy'" not in str(e):
                raise
            warnings.warn(_NO_COPY_KEYWORD, DeprecationWarning,
                          stacklevel=_errstate._stacklevel())     # the caller's line
            if copy is False:
                raise ValueError(_NO_COPY) from None
            r = x.__array__(*args)
    if isinstance(r, Array):
        if dtype is not None and r.dtype != dtype:
            if copy is False:
                raise ValueError(_NO_COPY)
            return asarray(r, dtype, False)     # a cast: a new array
        return r._copy() if copy and not copied else r
    if not isinstance(r, _ndarray_np):
        raise ValueError("object __array__ method not producing an array")
    if subok and type(r) is not _ndarray_np:
        return _np.asanyarray(r, dtype, copy=True if copy and not copied else
                              (False if copy is False else None))
    y = r
    if dtype is not None and r.dtype != dtype:
        if copy is False:
            raise ValueError(_NO_COPY)
        y = _np.asarray(r, dtype=dtype)
    if D.code_of(y.dtype) is None:
        # a dtype ndtile does not hold: NumPy's array, by NumPy's copy rules
        return _np.array(y) if copy and not copied and y is r else y
    if copy is False:
        raise ValueError(_NO_COPY + "\nndtile arrays always copy data from NumPy arrays "
                         "into tiles.")
    return from_converted(y, dtype, False)


def _array_method_tree(x, depth, seen=None):
    """A list/tuple x with the objects in it whose __array__ gives an
    ndtile array replaced by NumPy copies of those (np.array([obj])), or
    None when there are none. Each list is walked once (seen), so a list
    that holds itself costs no more than another."""
    if type(x) not in (list, tuple) or depth > 64:
        return None
    seen = {} if seen is None else seen
    if id(x) in seen:
        return seen[id(x)]
    seen[id(x)] = None
    out, found = [], False
    for v in x:
        w = _array_method_tree(v, depth + 1, seen)
        if w is None and type(v) not in (list, tuple):
            r = _array_method_result(v)
            w = None if r is None else to_numpy(r) if r.ndim else _zero_d_stand_in(v, r)
        found = found or w is not None
        out.append(v if w is None else w)
    seen[id(x)] = r = (out if type(x) is list else tuple(out)) if found else None
    return r


# an object's class: the class of its stand-ins (_zero_d_stand_in)
_STAND_INS = weakref.WeakKeyDictionary()


def _zero_d_stand_in(v, r):
    """A stand-in for v, inside a list, whose __array__ gives the ndtile 0-d
    array r: NumPy reads an object whose __array__ gives a 0-d array for
    its dtype only, and converts the object itself into the element
    (float(v), int(v), str(v): NumPy's TypeError for most objects; v itself
    in an object array, see _put_back). The stand-in's __array__ gives
    NumPy's copy of r; its class has v's class's name, and the conversions
    are v's."""
    t = type(v)
    cls = _STAND_INS.get(t)
    if cls is None:
        def forward(name):
            return lambda self, *args: getattr(type(self._v), name)(self._v, *args)
        ns = {'__slots__': ('_v', '_a'), '__module__': t.__module__,
              '__array__': lambda self, dtype=None, copy=None: self._a,
              '__bool__': lambda self: bool(self._v), '__str__': lambda self: str(self._v),
              '__repr__': lambda self: repr(self._v)}
        for name in ('__float__', '__int__', '__index__', '__complex__', '__bytes__'):
            if hasattr(t, name):
                ns[name] = forward(name)
        cls = type(t.__name__, (), ns)
        cls.__qualname__ = t.__qualname__
        _STAND_INS[t] = cls
    s = object.__new__(cls)
    s._v, s._a = v, to_numpy(r)
    return s


def _put_back(y):
    """The objects the stand-ins of _zero_d_stand_in stand for, back in
    the object array y (NumPy keeps each object itself)."""
    if isinstance(y, _ndarray_np) and y.dtype == object and _STAND_INS:
        kinds = tuple(_STAND_INS.values())
        for idx, e in _np.ndenumerate(y):
            if isinstance(e, kinds):
                y[idx] = e._v
    return y


def asnd(x):
    """x as an ndtile array; raises TypeError for unsupported dtypes."""
    if isinstance(x, Array):
        return x
    r = asarray(x)
    if not isinstance(r, Array):
        raise TypeError(f"ndtile arrays cannot hold dtype {r.dtype}")
    return r


def scalar_array(x, c):
    """A strong 0-d ndtile array of code c holding the Python/NumPy scalar x."""
    if isinstance(x, _generic):
        x = x.item()
    return _core.scalar(x, c, False)


def to_np_tree(x):
    """Replace ndtile arrays by NumPy copies inside lists, tuples and dicts."""
    if isinstance(x, Array):
        return to_numpy(x)
    t = type(x)
    if t is list:
        return [to_np_tree(v) for v in x]
    if t is tuple:
        return tuple(to_np_tree(v) for v in x)
    if t is dict:
        return {k: to_np_tree(v) for k, v in x.items()}
    return x


def has_nd(x):
    if isinstance(x, Array):
        return True
    t = type(x)
    if t is list or t is tuple:
        return any(has_nd(v) for v in x)
    if t is dict:
        return any(has_nd(v) for v in x.values())
    return False


def from_np_tree(x):
    """NumPy arrays (of supported dtypes) in a result back to ndtile arrays."""
    if isinstance(x, _ndarray_np):
        if type(x) is _ndarray_np:
            return np_or_nd(x)
        return x
    t = type(x)
    if t is list:
        return [from_np_tree(v) for v in x]
    if t is tuple:
        return tuple(from_np_tree(v) for v in x)
    if isinstance(x, tuple) and hasattr(x, '_fields'):
        return t(*[from_np_tree(v) for v in x])
    return x


def ravel_order(order):
    """A ravel/flatten order as one of 'C', 'F', 'A', 'K' (NumPy's spelling:
    None is 'C', letters in either case)."""
    if order is None:
        return 'C'
    if not isinstance(order, str):
        raise TypeError(f"order must be str, not {type(order).__name__}")
    if len(order) == 1 and order.upper() in 'CFAK':
        return order.upper()
    raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")


class _ctypes:
    """a.ctypes: NumPy's ctypes helper over the array's own memory. It holds
    a buffer export (see docs/design.md, "Lending memory") for as long as it
    lives, and so do the pointers data_as() returns; `data` is the address as
    an int, valid while the array lives (NumPy's rule), its values current
    between ndtile calls while an export is alive."""

    def __init__(self, a):
        import ctypes  # lazy: ctypes only for ndarray.ctypes, not at import
        self._ctypes_mod = ctypes
        self._arr = a
        self._loan = memoryview(a)
        self._data = ctypes.c_void_p(_core.buffer_address(self._loan))
        self._zerod = a.ndim == 0

    def data_as(self, obj):
        ptr = self._ctypes_mod.cast(self._data, obj)
        ptr._arr = self          # the pointer keeps the loan (NumPy's keeps the array)
        return ptr

    def shape_as(self, obj):
        if self._zerod:
            return None
        return (obj * self._arr.ndim)(*self._arr.shape)

    def strides_as(self, obj):
        if self._zerod:
            return None
        return (obj * self._arr.ndim)(*self._arr.strides)

    @property
    def data(self):
        return self._data.value

    @property
    def shape(self):
        return self.shape_as(_intp_ctype())

    @property
    def strides(self):
        return self.strides_as(_intp_ctype())

    @property
    def _as_parameter_(self):
        return self.data_as(self._ctypes_mod.c_void_p)


def _intp_ctype():
    return _np.ctypeslib.c_intp


def dlpack_source(a, copy):
    """The NumPy array whose DLPack capsule exports ndtile array a: a view of
    a's own memory (the buffer protocol), or with copy=True a copy; where a
    cannot lend its memory (several ranks) a copy, or BufferError for
    copy=False."""
    if copy:
        return to_numpy(a)
    try:
        return _np.asarray(memoryview(a))
    except BufferError:
        if copy is False:
            raise
        return to_numpy(a)


def from_dlpack(x, device=None, copy=None):
    """ndtile.from_dlpack: an ndtile array gives a new view of its memory,
    a plain ndarray as NumPy's (not the array itself: a shape or flag set
    on the result must not change it; copy=True: a copy); another
    library's data is copied into tiles, so copy=False raises BufferError,
    as the standard says for a copy that is needed."""
    if isinstance(x, Array):
        _array_api._check_device(device)
        return x._copy() if copy else x._view()
    if copy is False:
        if not hasattr(x, '__dlpack__'):
            _np.from_dlpack(x, device=device, copy=copy)   # NumPy's error for a non-producer
        _array_api._check_device(device)
        raise BufferError("ndtile cannot use another library's memory without a copy "
                          "(copy=False): its arrays live in tiles")
    return from_np_tree(_np.from_dlpack(x, device=device, copy=copy))
