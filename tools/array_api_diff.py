"""A differential array namespace for the array API test suite
(tools/array_api_suite.py --diff loads it as the suite's module).

It is ndtile, with every public function of ndtile, ndtile.linalg and
ndtile.fft, and the array's operators (also in place, and __setitem__),
wrapped: each call also runs in NumPy on the arguments gathered into NumPy
arrays, and a difference (dtype, shape, value, signed zero, an exception
only one side raises or of another type) is written as a JSON line to
$NTDIFF_LOG. The suite checks the standard's properties; this checks the
same calls against NumPy, the oracle. What is returned is ndtile's.

Kinds in the log: VALUE (not within 8 ULP), approx (within 8 ULP: rounding,
docs/guide/deviations.md item 4), signed (a zero's sign), dtype, shape,
nt-raises / np-raises (one side raised), exc-type, container, py*.
Expected noise: empty/empty_like (uninitialised values), the order of
unique_values (NumPy's is a hash order) and of equal keys in argsort
(NumPy's default sort is not stable), rank-deficient linalg.
"""
import json
import os
import sys
import types
import warnings

import numpy as _np

import ndtile as _nt

_LOG_PATH = os.environ.get("NTDIFF_LOG", "/tmp/ndtile-array-api-diff.jsonl")
_log_file = []
_NTA = _nt.ndarray
_busy = [0]
_SKIP = {"ndarray", "dtype", "finfo", "iinfo", "__array_namespace_info__", "errstate",
         "printoptions", "from_dlpack", "empty", "empty_like"}
_OPS = ["__add__", "__sub__", "__mul__", "__truediv__", "__floordiv__", "__mod__", "__pow__",
        "__matmul__", "__and__", "__or__", "__xor__", "__lshift__", "__rshift__",
        "__radd__", "__rsub__", "__rmul__", "__rtruediv__", "__rfloordiv__", "__rmod__",
        "__rpow__", "__rmatmul__", "__rand__", "__ror__", "__rxor__", "__rlshift__",
        "__rrshift__", "__lt__", "__le__", "__gt__", "__ge__", "__eq__", "__ne__",
        "__neg__", "__pos__", "__abs__", "__invert__", "__getitem__",
        "__bool__", "__int__", "__float__", "__complex__", "__index__"]
_IOPS = ["__iadd__", "__isub__", "__imul__", "__itruediv__", "__ifloordiv__", "__imod__",
         "__ipow__", "__imatmul__", "__iand__", "__ior__", "__ixor__", "__ilshift__",
         "__irshift__", "__setitem__"]


def _to_np(x):
    if isinstance(x, _NTA):
        return _np.array(x, copy=True)
    if isinstance(x, (tuple, list)):
        return type(x)(_to_np(v) for v in x)
    if isinstance(x, dict):
        return {k: _to_np(v) for k, v in x.items()}
    return x


def _repr(x):
    try:
        with _np.printoptions(threshold=40, precision=17):
            return repr(x)[:400]
    except Exception as e:
        return f"<repr failed: {e}>"


def _log(name, detail, args, kw):
    if not _log_file:
        _log_file.append(open(_LOG_PATH, "a"))
    _log_file[0].write(json.dumps({"fn": name, "kind": detail.split(" ")[0], "detail": detail[:400],
                           "args": _repr(args), "kw": _repr(kw)}) + "\n")
    _log_file[0].flush()


def _ulpclose(a, b):
    with _np.errstate(all='ignore'):
        m = _np.maximum(_np.abs(a), _np.abs(b)).astype(a.dtype)
        return (_np.isnan(a) & _np.isnan(b)) | (a == b) | (_np.abs(a - b) <= 8 * _np.spacing(m))


def _cmp_float(a, b):
    ok = (a == b) | (_np.isnan(a) & _np.isnan(b))
    if not ok.all():
        i = tuple(_np.argwhere(~ok)[0])
        tag = "approx" if _ulpclose(a, b).all() else "VALUE"
        return f"{tag} at {i}: {a[i]!r} vs {b[i]!r}"
    s = (a == 0) & (_np.signbit(a) != _np.signbit(b))
    if s.any():
        i = tuple(_np.argwhere(s)[0])
        return f"signed zero at {i}: {a[i]!r} vs {b[i]!r}"
    return None


def _cmp(a, b):
    """None when ndtile's result a is NumPy's b, else what differs."""
    if isinstance(b, (tuple, list)):
        if type(a) is not type(b) and not (isinstance(a, tuple) and isinstance(b, tuple)):
            return f"container {type(a).__name__} vs {type(b).__name__}"
        if len(a) != len(b):
            return f"container len {len(a)} vs {len(b)}"
        for i, (u, v) in enumerate(zip(a, b)):
            m = _cmp(u, v)
            if m:
                return f"{m.split(' ')[0]} [{i}] {m}"
        return None
    if isinstance(b, (_np.ndarray, _np.generic)) or isinstance(a, _NTA):
        if not isinstance(a, (_NTA, _np.ndarray, _np.generic)):
            return f"pytype {type(a).__name__} vs {type(b).__name__}"
        A, B = _np.asarray(a), _np.asarray(b)
        if A.dtype != B.dtype:
            return f"dtype {A.dtype} vs {B.dtype}"
        if A.shape != B.shape:
            return f"shape {A.shape} vs {B.shape}"
        if A.dtype.kind == 'c':
            return _cmp_float(A.real.copy(), B.real.copy()) or _cmp_float(A.imag.copy(),
                                                                           B.imag.copy())
        if A.dtype.kind == 'f':
            return _cmp_float(A, B)
        if not _np.array_equal(A, B):
            i = tuple(_np.argwhere(A != B)[0]) if A.ndim else ()
            return f"VALUE at {i}: {A[i]!r} vs {B[i]!r}"
        return None
    if isinstance(b, (bool, int, float, complex, str, type(None))):
        if type(a) is not type(b):
            return f"pytype {type(a).__name__} {a!r} vs {type(b).__name__} {b!r}"
        if isinstance(b, (float, complex)):
            return _cmp_float(_np.asarray(a), _np.asarray(b)) if type(b) is float else \
                _cmp(_np.asarray(a), _np.asarray(b))
        return None if a == b else f"pyvalue {a!r} vs {b!r}"
    return None     # dtypes, finfo, info objects: not compared


def _wrap(name, ntf, npf, inplace=False):
    def body(args, kw):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            nargs, nkw = _to_np(args), _to_np(kw)
        try:
            r = ntf(*args, **kw)
        except Exception as e:
            try:
                with warnings.catch_warnings(), _np.errstate(all='ignore'):
                    warnings.simplefilter("ignore")
                    npf(*nargs, **nkw)
            except Exception as e2:
                if not (isinstance(e, type(e2)) or isinstance(e2, type(e))):
                    _log(name, f"exc-type {type(e).__name__}: {e} | NumPy "
                         f"{type(e2).__name__}: {e2}", nargs, nkw)
            else:
                _log(name, f"nt-raises {type(e).__name__}: {e}", nargs, nkw)
            raise
        try:
            with warnings.catch_warnings(), _np.errstate(all='ignore'):
                warnings.simplefilter("ignore")
                try:
                    rn = npf(*nargs, **nkw)
                except Exception as e2:
                    _log(name, f"np-raises {type(e2).__name__}: {e2}", nargs, nkw)
                    return r
                m = _cmp(args[0], nargs[0]) if inplace else _cmp(r, rn)
                if m:
                    _log(name, m, nargs, nkw)
        except Exception as e3:
            _log(name, f"diff-error {e3!r}", nargs, nkw)
        return r

    def f(*args, **kw):
        if _busy[0]:        # ndtile's own calls inside a wrapped one
            return ntf(*args, **kw)
        _busy[0] += 1
        try:
            return body(args, kw)
        finally:
            _busy[0] -= 1
    f.__name__ = getattr(ntf, "__name__", name)
    f.__qualname__ = f.__name__
    f.__doc__ = getattr(ntf, "__doc__", None)
    f.__wrapped__ = ntf     # inspect.signature follows it
    return f


def _namespace(name, ntmod, npmod):
    m = types.ModuleType(name)
    for k in dir(ntmod):
        if k.startswith("_") and k not in ("__array_namespace_info__", "__array_api_version__"):
            continue
        v = getattr(ntmod, k)
        if (k in _SKIP or isinstance(v, (type, types.ModuleType)) or not callable(v)
                or not hasattr(npmod, k)):
            setattr(m, k, v)
        else:
            setattr(m, k, _wrap(f"{name}.{k}", v, getattr(npmod, k)))
    return m


def _method(meth):
    def g(self, *a, **k):
        return getattr(self, meth)(*a, **k)
    return g


def install():
    """The namespace; the array's operators are wrapped from then on (in
    this process: a run of the suite, nothing else)."""
    xp = _namespace("ndtile", _nt, _np)
    xp.linalg = _namespace("ndtile.linalg", _nt.linalg, _np.linalg)
    xp.fft = _namespace("ndtile.fft", _nt.fft, _np.fft)
    xp.__name__ = "ndtile_diff"
    for ops, inplace in ((_OPS, False), (_IOPS, True)):
        for op in ops:
            if hasattr(_NTA, op):
                setattr(_NTA, op, _wrap(f"ndarray.{op}", getattr(_NTA, op), _method(op),
                                        inplace))
    return xp


def summary(path, out=sys.stdout):
    """One line per (function, kind) in the log at path, with its shortest
    example; the count of each."""
    rows = [json.loads(line) for line in open(path)]
    groups = {}
    for r in rows:
        groups.setdefault((r["fn"], r["kind"]), []).append(r)
    for (fn, kind), rs in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        r = min(rs, key=lambda r: len(r["args"]) + len(r["kw"]))
        print(f"{fn} {kind} x{len(rs)}: {r['detail'][:160]}\n    args={r['args'][:300]} "
              f"kw={r['kw'][:160]}", file=out)
    return len(rows)


if __name__ == "__main__":
    n = summary(sys.argv[1] if len(sys.argv) > 1 else _LOG_PATH)
    print(f"{n} differences", file=sys.stderr)
