"""Indexing beyond what the C binding does itself (ints, slices, None,
Ellipsis): integer-array and boolean indexing, and values that need NumPy's
conversion rules.

Advanced reads and writes with integer arrays, boolean arrays, integers,
slices and Ellipsis run in the core: the key becomes one int64 index array
per axis, of the result's shape (NumPy's placement of the advanced
dimensions), and reads gather (ndt_gather) while writes put values at the
flat positions in C order of the result (ndt_put: the last of repeated
indices wins, as in NumPy). A boolean mask of the array's own shape with a
scalar value is assigned as a where. Keys mixing newaxis with advanced
indices go through NumPy (gathered, indexed there, written back).
"""

import math
import operator

import numpy as _np

from . import _convert as C
from . import _core
from . import _dtypes as D
from . import _fromnumeric
from . import _multiarray
from . import _numeric
from . import _umath

Array = _core.Array
_INT_SCALARS = D.INT_SCALAR_TYPES


def _component(k):
    """(k, was_array): 0-d integer arrays select as integers do (NumPy's
    rule), but they are advanced indices, so the result is a copy (NumPy:
    a[np.array(1)] copies where a[1] is a view); was_array says so. Other
    objects with __index__ are integers (basic indices) as in NumPy."""
    if isinstance(k, Array):
        if k.ndim == 0 and D.KIND[k._dt] in 'iu':
            return int(k._item()), True
        return k, False
    if isinstance(k, _np.ndarray):
        if k.ndim == 0 and k.dtype.kind in 'iu':
            return int(k), True
        return k, False
    if type(k) not in _PLAIN and not isinstance(k, (bool, _np.bool_, _np.generic, list, tuple)) \
            and hasattr(type(k), '__index__'):
        return operator.index(k), False
    if type(k) not in _PLAIN and not isinstance(k, (_np.generic, list, tuple, str)) and \
            getattr(type(k), '__array__', None) is not None:
        # an array-like index is its array (NumPy's; __array__ may hand back
        # an ndtile array, which NumPy's conversion refuses)
        return _component(C.asarray(k))
    return k, False


_PLAIN = (int, slice, type(None), type(Ellipsis))


def _slice_ok(s):
    for part in (s.start, s.stop, s.step):
        if part is None:
            continue
        if isinstance(part, (bool, _np.bool_, Array)) or not hasattr(part, '__index__'):
            raise TypeError("slice indices must be integers or None or have an __index__ "
                            "method")
    return True


_BAD_INDEX = ("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and "
              "integer or boolean arrays are valid indices")


def _is_basic(k):
    if isinstance(k, (int, _np.integer)) and not isinstance(k, (bool, _np.bool_)):
        if not -2**63 <= k < 2**63:
            # NumPy's errors for an index outside intp (the C binding
            # handed it back here, which recursed)
            if 0 <= k < 2**64:
                raise OverflowError("Python int too large to convert to C long")
            raise IndexError(_BAD_INDEX)
        return True
    return k is None or k is Ellipsis or isinstance(k, slice)


def normalize(key):
    """(key with 0-d integer arrays replaced, is_basic, copy): copy when a
    0-d integer array made an otherwise basic key advanced (the result is
    then a copy of the basic result)."""
    if isinstance(key, tuple):
        parts = [_component(k) for k in key]
        key = tuple(k for k, _ in parts)
        basic = all([_is_basic(k) for k in key])
        # NumPy checks a slice's bounds after every component's type (a[0.0:, 0.0]
        # is the IndexError of the float)
        if basic:
            for k in key:
                if isinstance(k, slice):
                    _slice_ok(k)
        return key, basic, basic and any(c for _, c in parts)
    key, c = _component(key)
    basic = _is_basic(key)
    if basic and isinstance(key, slice):
        _slice_ok(key)
    return key, basic, basic and c


def _np_key(key):
    if isinstance(key, tuple):
        return tuple(C.to_numpy(k) if isinstance(k, Array) else k for k in key)
    if isinstance(key, Array):
        return C.to_numpy(key)
    return key


def _int_array(k):
    """k as an ndtile integer array if it is an integer array or list (or
    tuple: within an index tuple NumPy takes one as a list), else None."""
    if isinstance(k, Array):
        return k if D.KIND[k._dt] in 'iu' else None
    if isinstance(k, _np.ndarray):
        return C.from_numpy(k) if k.dtype.kind in 'iu' and D.code(k.dtype) is not None else None
    if isinstance(k, (list, tuple)) and k:
        arr = _np.asarray(k)
        return C.from_numpy(arr) if arr.dtype.kind in 'iu' else None
    return None


def _bool_array(k):
    """k as an ndtile bool array if it is a boolean array or list (or tuple),
    else None."""
    if isinstance(k, Array):
        return k if k._dt == D.BOOL else None
    if isinstance(k, _np.ndarray):
        return C.from_numpy(k) if k.dtype == _np.bool_ else None
    if isinstance(k, (list, tuple)) and k:
        arr = _np.asarray(k)
        return C.from_numpy(arr) if arr.dtype == _np.bool_ else None
    return None


# index arrays up to this many elements (all together) are read whole by _extents
_SMALL_EXTENTS = 1 << 14


def _extents(arrays):
    """{id(ix): (min, max)} of integer index arrays, with one read for all
    of them: each read waits for the arrays' producers, and on many ranks
    is two agreements and a broadcast (a 3-d gather read six, 18
    collectives for a 30-element index in the X-ray job's peak finder).
    uint64 arrays are read apart (their values may not fit int64). Index
    arrays of at most _SMALL_EXTENTS elements in all are read whole, in one
    read, and their extents taken on the host (no reductions: a tenth of the
    time of a small gather)."""
    out, parts, keys = {}, [], []
    small = []
    for ix in arrays:
        if id(ix) in out or id(ix) in keys:
            continue
        if ix._dt == D.UINT64:
            out[id(ix)] = int(_fromnumeric.min(ix)), int(_fromnumeric.max(ix))
            continue
        keys.append(id(ix))
        small.append(ix)
    if keys and sum(ix.size for ix in small) <= _SMALL_EXTENTS and _core.nranks() == 1:
        # small index arrays: their values in one read (no reductions; on
        # many ranks a read of whole arrays takes a collective more than
        # the read of their extents)
        if len(small) == 1:
            vals = C.to_numpy(small[0]).ravel()
        else:
            vals = C.to_numpy(_multiarray.concatenate(
                [ix._reshape((-1,))._astype(D.INT64, _core.CASTING_UNSAFE) for ix in small]))
        at = 0
        for key, ix in zip(keys, small):
            part = vals[at:at + ix.size]
            at += ix.size
            out[key] = int(part.min()), int(part.max())
        return out
    for ix in small:
        for f in (_fromnumeric.min, _fromnumeric.max):
            parts.append(f(ix, keepdims=True)._reshape((1,))._astype(D.INT64,
                                                                       _core.CASTING_UNSAFE))
    if parts:
        both = C.to_numpy(_multiarray.concatenate(parts) if len(parts) > 1 else parts[0])
        for k, key in enumerate(keys):
            out[key] = int(both[2 * k]), int(both[2 * k + 1])
    return out


def _index_arrays(a, key, on_shape=None, on_parsed=None, sliced=False, getting=False):
    """NumPy's advanced indexing as one int64 index array per axis of a,
    all of the result's shape: (arrays, result shape), or None for keys
    this does not cover (newaxis among advanced indices, other types).
    Integer arrays, boolean arrays (their nonzero positions), integers,
    slices and Ellipsis; NumPy's placement of the broadcast advanced
    dimensions (where the advanced indices are, when they are adjacent,
    else first) and NumPy's IndexErrors. A written value is checked in
    NumPy's order: on_parsed() once the index's types and boolean shapes
    are valid (the value's conversion), on_shape(shape) after the index
    arrays broadcast (the value's shape), before the bounds. sliced: a
    sliced axis comes as (its result axis, start, step) (ndtile's gather
    reads only the part of `a` a block reaches), and the result is
    (arrays, shape, bounds): an upper bound of each axis's indices.
    getting: a[key] (NumPy checks a single index array in another order
    than an assignment's)."""
    parts = list(key) if isinstance(key, tuple) else [key]
    if any(k is None for k in parts) or sum(k is Ellipsis for k in parts) > 1:
        return None
    # expand booleans into their nonzero positions (one array per axis)
    items = []       # (kind, value): 'adv' int array, 'int' int, 'slice' slice, 'ell'
    given = {}       # id of an index array made from a NumPy array: that array (its layout
    #                  gives the order in which NumPy checks its values)
    for k in parts:
        if k is Ellipsis:
            items.append(('ell', None))
        elif isinstance(k, slice):
            items.append(('slice', k))
        elif isinstance(k, (int, _np.integer)) and not isinstance(k, (bool, _np.bool_)):
            items.append(('int', int(k)))
        elif isinstance(k, (bool, _np.bool_)):
            return None
        else:
            b = _bool_array(k)
            if b is not None:
                if b.ndim == 0:
                    return None
                items.append(('bool', b))
                continue
            ix = _int_array(k)
            if ix is None:
                return None
            if isinstance(k, _np.ndarray):
                given[id(ix)] = k
            items.append(('adv', ix))
    for t, v in items:              # after every type (NumPy's order)
        if t == 'slice':
            _slice_ok(v)
    used = sum(v.ndim if t == 'bool' else 0 if t == 'ell' else 1 for t, v in items)
    if used > a.ndim:
        raise IndexError(f"too many indices for array: array is {a.ndim}-dimensional, but "
                         f"{used} were indexed")
    full = []
    for t, v in items:
        if t == 'ell':
            full.extend([('slice', slice(None))] * (a.ndim - used))
        else:
            full.append((t, v))
    if not any(t == 'ell' for t, _ in items):
        full.extend([('slice', slice(None))] * (a.ndim - used))
    # one entry per axis; booleans split into per-axis arrays
    axes = []        # (kind, value, group) with group = position of the key item
    unsigned = {}    # id of an int64 index array made from uint64: that array
    ax = 0
    for g, (t, v) in enumerate(full):
        if t == 'bool':
            # NumPy: each axis of the mask has the array's extent, or 0 (an
            # empty mask axis selects nothing from an axis of any length)
            for j in range(v.ndim):
                if v.shape[j] not in (a.shape[ax + j], 0):
                    raise IndexError(
                        f"boolean index did not match indexed array along axis {ax + j}; "
                        f"size of axis is {a.shape[ax + j]} but size of corresponding "
                        f"boolean axis is {v.shape[j]}")
            nz = _multiarray.nonzero(v)
            for j in range(v.ndim):
                axes.append(('adv', nz[j], g))
            ax += v.ndim
        else:
            if t == 'adv' and v._dt == D.UINT64:
                # NumPy casts index arrays to intp: a uint64 index past
                # int64's range wraps negative (2**64 - 1 is -1, the last);
                # NumPy checks them in the uint64 array's order
                u64 = given.get(id(v), v)
                v = v._astype(D.INT64, _core.CASTING_UNSAFE)
                unsigned[id(v)] = u64
            axes.append((t, v, g))
            ax += 1
    if on_parsed is not None:
        on_parsed()
    adv = [i for i, (t, _, _) in enumerate(axes) if t in ('adv', 'int')]
    if not any(t == 'adv' for t, _, _ in axes):
        return None
    shapes = [() if axes[i][0] == 'int' else tuple(axes[i][1].shape) for i in adv]
    try:
        bshape = _np.broadcast_shapes(*shapes)
    except ValueError as e:
        if 'too large' in str(e):
            # shapes that broadcast, to more elements than an index can count
            raise ValueError("iterator is too large") from None    # NumPy's
        shapes = "".join(C.shape_str(sh) + " " for sh in shapes)
        raise IndexError("shape mismatch: indexing arrays could not be broadcast together "
                         f"with shapes {shapes}") from None
    groups = [axes[i][2] for i in adv]
    adjacent = all(groups[j + 1] - groups[j] <= 1 for j in range(len(groups) - 1)) and \
        all(axes[i][0] in ('adv', 'int') for i in range(adv[0], adv[-1] + 1))
    slices = [i for i, (t, _, _) in enumerate(axes) if t == 'slice']
    lens = {i: len(range(*axes[i][1].indices(a.shape[i]))) for i in slices}
    if adjacent:
        before = [i for i in slices if i < adv[0]]
        after = [i for i in slices if i > adv[0]]
    else:
        before, after = [], slices
    nb = len(bshape)
    shape = tuple(lens[i] for i in before) + bshape + tuple(lens[i] for i in after)
    if on_shape is not None:
        on_shape(shape)     # NumPy checks a written value's shape before the bounds
    arrays = {}
    bounds = {}      # an index array's values lie below bounds[i] (known from its extent)
    extent = _extents([axes[i][1] for i in adv if axes[i][0] == 'adv' and axes[i][1].size
                       and 0 not in bshape])
    for i in adv:      # NumPy checks the integers first (as it parses the key)
        t, ix, _ = axes[i]
        if t == 'int' and not -a.shape[i] <= ix < a.shape[i]:
            raise IndexError(f"index {ix} is out of bounds for axis {i} with size {a.shape[i]}")
    # the order in which NumPy checks an index array's values (it names the
    # first bad one): an assignment's, and several arrays', in memory order;
    # a getitem's one array in its strides' order (its own order beside a
    # sliced axis)
    nfancy = sum(t == 'adv' for t, _, _ in axes)
    order = 'K' if not getting or nfancy > 1 else 'C' if slices else 'S'
    for i in adv:
        t, ix, _ = axes[i]
        n = a.shape[i]
        if t == 'int':
            arrays[i] = C.from_numpy(_np.asarray(ix + n if ix < 0 else ix, dtype=_np.int64))
            bounds[i] = (ix + n if ix < 0 else ix) + 1
            continue
        lo = 0
        if ix.size and 0 not in bshape:   # NumPy checks only the indices it visits
            lo, hi = extent[id(ix)]
            if hi >= n or lo < -n:
                # NumPy checks each index array in order and names its
                # first bad index: found only now, on the error path
                bad = _fromnumeric._first_out_of_bounds(
                    unsigned.get(id(ix), given.get(id(ix), ix)), n, order)[1]
                raise IndexError(f"index {bad} is out of bounds for axis {i} with size {n}")
            bounds[i] = hi + 1 if lo >= 0 else hi + n + 1 if hi < 0 else n
        if ix._dt != D.INT64:
            # (before the negative ones are wrapped: -1 + n of an int8
            # index into 300 elements is out of int8's range)
            ix = ix._astype(D.INT64, _core.CASTING_UNSAFE)
        if lo < 0:
            ix = _multiarray.where(ix < 0, ix + n, ix)
        arrays[i] = ix
    pos = {i: k for k, i in enumerate(before)}
    pos.update({i: len(before) + nb + k for k, i in enumerate(after)})
    out = []
    for i in range(a.ndim):
        if i in arrays:
            ix = arrays[i]
            ix = ix._reshape((1,) * (len(bshape) - ix.ndim) + tuple(ix.shape)) \
                if ix.ndim < nb else ix
            ix = ix._reshape((1,) * len(before) + tuple(ix.shape) + (1,) * len(after))
        elif sliced:
            start, _, step = axes[i][1].indices(a.shape[i])
            out.append((pos[i], start, step))
            continue
        else:
            s = axes[i][1]
            start, _, step = s.indices(a.shape[i])
            ix = _multiarray.arange(start, start + step * lens[i], step, dtype=_np.int64) \
                if lens[i] else _multiarray.arange(0, dtype=_np.int64)
            sh = [1] * len(shape)
            sh[pos[i]] = lens[i]
            ix = ix._reshape(tuple(sh))
        out.append(ix if tuple(ix.shape) == shape else ix._broadcast_to(shape))
    if sliced:
        return out, shape, [bounds.get(i, a.shape[i]) for i in range(a.ndim)]
    return out, shape


def _one_index_array(a, key):
    """_index_arrays(a, key, sliced=True) for a key that is one small
    integer array (ndtile's or NumPy's; not uint64) of one axis or more,
    all its values in [0, a.shape[0]), and a without empty axes, in one
    process; None for
    anything else (negative values and errors: the general path)."""
    if isinstance(key, Array):
        if not key.ndim or D.KIND[key._dt] not in 'iu' or key._dt == D.UINT64:
            return None
        ix, vals = key, None
    elif type(key) is _np.ndarray:
        if not key.ndim or key.dtype.kind not in 'iu' or key.dtype == _np.uint64 or \
                D.code(key.dtype) is None:
            return None
        ix, vals = None, key
    else:
        return None
    size = key.size
    if not size or size > _SMALL_EXTENTS or 0 in a.shape or _core.nranks() > 1:
        return None      # (on many ranks: _extents' reductions, fewer collectives)
    if vals is None:
        vals = C.to_numpy(ix)
    if size <= 64:
        flat = vals.ravel().tolist()     # (NumPy's min and max cost more)
        lo, hi = min(flat), max(flat)
    else:
        lo, hi = int(vals.min()), int(vals.max())
    if lo < 0 or hi >= a.shape[0]:
        return None
    if ix is None:
        ix = C.from_numpy(key)
    if ix._dt != D.INT64:
        ix = ix._astype(D.INT64, _core.CASTING_UNSAFE)
    rest = tuple(a.shape[1:])
    if not rest:
        return [ix], tuple(ix.shape), [hi + 1]     # (what the lines below give)
    nb = ix.ndim
    shape = tuple(ix.shape) + rest
    if rest:
        ix = ix._reshape(tuple(ix.shape) + (1,) * len(rest))
    out = [ix if tuple(ix.shape) == shape else ix._broadcast_to(shape)]
    out.extend((nb + k, 0, 1) for k in range(len(rest)))
    return out, shape, [hi + 1] + list(rest)


def _gather(a, key):
    """a[key] in the core for advanced keys _index_arrays covers (or a
    boolean mask of a's shape); None otherwise."""
    if not a.ndim:
        return None
    mask = _mask_of(key, a.shape)
    if mask is not None:
        cols = _numeric.argwhere(mask)
        return _core.gather(a, [cols[:, k] for k in range(a.ndim)])
    r = _one_index_array(a, key)
    if r is None:
        r = _index_arrays(a, key, sliced=True, getting=True)
    if r is None:
        return None
    arrays, shape, bounds = r
    if 0 in shape:
        return _multiarray.empty(shape, dtype=a.dtype)
    # the sliced axes as (result axis, start, step) and the index arrays'
    # bounds: each task reads only the part of `a` its block reaches
    return _core.gather(a, arrays, shape, bounds)


def _scatter(a, key, value):
    """a[key] = value in the core for advanced keys _index_arrays covers;
    False when it does not apply. Elements are written in C order of the
    indexing result, so the last of repeated indices wins (as NumPy)."""
    if not a.ndim:
        return False
    val = None

    def convert():
        nonlocal val
        val = _value_array(value, a.dtype, True)

    def fits(shape):
        # NumPy's mapping iterator reshapes a value of more dimensions than
        # the result to its trailing ones: leading length-1 axes go, and any
        # leading axes of an empty value
        nonlocal val
        orig = tuple(val.shape)
        if val.ndim > len(shape):
            tail = orig[val.ndim - len(shape):]
            if math.prod(tail) == val.size:
                val = val._reshape(tail)
        try:
            vshape = _np.broadcast_shapes(tuple(val.shape), shape)
        except ValueError:
            vshape = None
        if vshape != shape:
            raise ValueError(f"shape mismatch: value array of shape {C.shape_str(orig)} "
                             f"could not be broadcast to indexing result of shape "
                             f"{C.shape_str(shape)}")

    r = _index_arrays(a, key, fits, convert)
    if r is None:
        return False
    arrays, shape = r
    if 0 in shape:
        return True
    # flat C-order positions in a: a new array once a second axis is added
    # in; a 1-d a's index array may be the caller's (even a itself), so it
    # is copied before a is written
    flat = None
    stride = 1
    for i in range(a.ndim - 1, -1, -1):
        term = arrays[i] if stride == 1 else _umath.UFUNCS['multiply']._arrays(arrays[i], stride)
        flat = term if flat is None else _umath.UFUNCS['add']._arrays(flat, term)
        stride *= a.shape[i]
    if a.ndim == 1:
        flat = flat._copy()
    if val._dt != a._dt:
        val = val._astype(a._dt, _core.CASTING_UNSAFE)
    vals = val._broadcast_to(shape) if tuple(val.shape) != shape else val
    flat = flat._reshape((-1,))
    vals = vals._copy()._reshape((-1,))
    _core.put(a, flat, vals)
    return True


def _long_basic_key(a, key):
    """A basic key of more entries than the C parser takes (2 * 32 + 1) is
    never valid in ndtile (getitem went back and forth to the C binding
    until RecursionError): NumPy's IndexError on a stand-in without data,
    else ndtile's limit of 32 axes."""
    if isinstance(key, tuple) and len(key) > 65:
        _np.broadcast_to(_np.zeros((), _np.uint8), a.shape)[key]
        raise IndexError("number of dimensions must be within [0, 32]")


def getitem(a, key):
    """Array.__getitem__ for keys the C binding does not parse."""
    key, basic, copy = normalize(key)
    if basic:
        _long_basic_key(a, key)
        res = Array.__getitem__(a, key)
        # an advanced index (a 0-d integer array) copies, also where the
        # integers alone would give a view; a single element stays a scalar
        return res._copy() if copy and isinstance(res, Array) else res
    res = _gather(a, key)
    if res is not None:
        return res
    res = C.to_numpy(a)[_np_key(key)]
    if isinstance(res, _np.ndarray):
        return C.np_or_nd(res)
    return res


def _value_array(value, dtype, advanced=False):
    """value as an ndtile array to assign into an array of `dtype`, with
    NumPy's conversion rules (OverflowError for out-of-range Python ints,
    ValueError for NaN into integers, ...). advanced: for an advanced index
    (a mask, integer arrays), where NumPy casts a NumPy scalar as an array
    (unsafe: float64(300.) into int8 is 44, inf is 0 with NumPy's 'invalid
    value' warning), as basic indexing does not."""
    if isinstance(value, Array):
        return value
    if isinstance(value, _np.ndarray):
        arr = value
    elif advanced and isinstance(value, _np.generic):
        arr = _np.asarray(value).astype(dtype)
    elif C.has_array_method(value):
        # the __array__ protocol, called once, as NumPy's setitem calls it
        # (the target's dtype): an ndtile array it gives (which NumPy's
        # asarray refuses) is assigned as it is
        r = value.__array__(dtype)
        if isinstance(r, Array):
            return r
        if not isinstance(r, _np.ndarray):
            raise ValueError("object __array__ method not producing an array")
        arr = _np.asarray(r, dtype=dtype)
    elif not isinstance(value, (_np.generic, int, float, complex)):
        arr = _np.asarray(C.to_np_tree(value) if isinstance(value, (list, tuple)) else value,
                          dtype=dtype)
    else:
        # a scalar is stored as NumPy's setitem stores it, not as asarray
        # casts it: a NumPy float or integer scalar into a signed integer
        # array goes through int() and a range check (np.int64(300) or
        # np.float64(300.5) into int8 is an OverflowError, a NaN a ValueError)
        arr = _np.empty((), dtype=dtype)
        arr[()] = value
    r = C.asarray(arr)
    if not isinstance(r, Array):
        r = C.from_numpy(arr.astype(dtype))
    return r


def _mask_of(key, shape):
    """The key as a boolean mask of exactly `shape`, or None."""
    k = key[0] if isinstance(key, tuple) and len(key) == 1 else key
    if isinstance(k, Array) and k._dt == D.BOOL and k.shape == shape:
        return k
    if isinstance(k, _np.ndarray) and k.dtype == _np.bool_ and k.shape == shape and k.ndim:
        return C.from_numpy(k)
    return None


def _one_element(key, ndim):
    key = key if isinstance(key, tuple) else (key,)
    return len(key) == ndim and all(isinstance(k, (int, _np.integer)) and
                                    not isinstance(k, (bool, _np.bool_)) for k in key)


def _is_sequence(value):
    return isinstance(value, (list, tuple)) or getattr(value, 'ndim', 0) > 0


def _pack_element(dtype, value):
    """What NumPy stores for a[i, j] = value when value is a sequence or an
    array of one dimension or more: the element type's own conversion of
    it (ValueError "setting an array element with a sequence.", complex's
    and int's TypeErrors, bool's truth value), done by NumPy on one element."""
    if isinstance(value, Array):
        value = C.to_numpy(value)
    one = _np.empty(1, dtype=dtype)
    one[0] = value
    return one[0]


def setitem(a, key, value, delete=False):
    """Array.__setitem__ for what the C binding does not handle."""
    if delete:
        raise ValueError("cannot delete array elements")
    key, basic, _ = normalize(key)
    if isinstance(value, (Array, _np.ndarray)) and value.dtype.kind == 'c' and \
            a.dtype.kind in 'iuf':
        # NumPy's ComplexWarning, once, and the cast's real parts from here
        _core.warn_complex_cast(D.code(value.dtype) or 0, a._dt)
        value = value.real
    if basic:
        _long_basic_key(a, key)
        v = a._view_index(key)     # the index's errors come first
        if _one_element(key, a.ndim) and _is_sequence(value):
            value = _pack_element(a.dtype, value)
        v._assign(_value_array(value, a.dtype), _core.CASTING_UNSAFE)
        return
    mask = _mask_of(key, a.shape)
    sval = value        # what _scatter converts (the converted value where it is done here)
    if mask is not None and a.ndim:
        val = sval = _value_array(value, a.dtype, True)
        if val.ndim > 1:
            raise TypeError("NumPy boolean array indexing assignment requires a 0 or "
                            f"1-dimensional input, input has {val.ndim} dimensions")
        if val.size == 1 and val.ndim <= 1:
            if val._dt != a._dt:
                val = val._astype(a._dt, _core.CASTING_UNSAFE)
            _core.apply(_umath.WHERE, [mask, val, a], a)
            return
        n = int(mask.sum())
        if val.size != n:
            raise ValueError(f"NumPy boolean array indexing assignment cannot assign {val.size} "
                             f"input values to the {n} output values where the mask is true")
    if _scatter(a, key, sval):
        return
    npa = C.to_numpy(a)
    npa[_np_key(key)] = C.to_np_tree(value) if C.has_nd(value) else value
    a._assign(C.from_numpy(npa), _core.CASTING_UNSAFE)
