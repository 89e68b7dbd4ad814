"""Floating-point errors as NumPy reports them.

The core records, per operation, which IEEE errors its tiles raised
(division by zero, overflow, underflow, invalid value). The binding hands the
records to report() once the operation is done: at the end of the call for
work run inline, and, for deferred work, at the end of the first later call
that finds it done (at the latest the call that waits for its data).

The error state is NumPy's own: ndtile.errstate, seterr, geterr, seterrcall
and geterrcall are NumPy's functions, so settings made through either module
apply to both. A deferred operation is reported in the state the program had
when it called the operation (the binding keeps NumPy's errstate object with
it), with its warnings attributed to the line that called it. Under 'raise'
the binding waits for a deferred operation before the call returns, so the
FloatingPointError comes from that line, as in NumPy.

What each mode does is NumPy's (numpy/_core/src/umath/extobj.c): 'warn' a
RuntimeWarning "<what> encountered in <op>", 'raise' FloatingPointError,
'call' func(what, flags) once per kind of error, 'print' a line on the
standard error stream, 'log' func.write(line).
"""
import contextvars
import os
import sys
import threading
import warnings

import numpy as _np

try:
    from numpy._core.umath import _extobj_contextvar as _VAR
except ImportError:  # pragma: no cover - NumPy 2 has it
    _VAR = None

# NumPy's order of checks, bits (NPY_FPE_*) and words
_KINDS = ((1, 'divide', 'divide by zero'), (2, 'over', 'overflow'),
          (4, 'under', 'underflow'), (8, 'invalid', 'invalid value'))
_PKG = os.path.dirname(os.path.abspath(__file__)) + os.sep


def _current():
    return _np.geterr(), _np.geterrcall()


def _set_and_get(ext):
    _VAR.set(ext)
    return _current()


def _state(ext):
    """(geterr() dict, geterrcall()) of a captured errstate object."""
    if ext is None or _VAR is None or _VAR.get() is ext:
        return _current()
    return contextvars.copy_context().run(_set_and_get, ext)


def raises(ext):
    """The NPY_FPE bits of the errors the errstate object says 'raise' for
    (0: none)."""
    modes = _state(ext)[0]
    return sum(bit for bit, key, _ in _KINDS if modes[key] == 'raise')


def _stacklevel():
    """warnings.warn's stacklevel of the first frame outside ndtile, seen
    from report()'s caller's caller."""
    f = sys._getframe(2)
    level = 2
    while f is not None and f.f_code.co_filename.startswith(_PKG):
        f = f.f_back
        level += 1
    return level


def report(records):
    """records: [(op name, NPY_FPE flags, ctx)]; ctx is None for work run
    inline (reported in the current state, at the caller's line), else
    (errstate object, file, line, module globals[, the call's scope])
    captured when the op was called (file None: at the caller's line)."""
    for name, flags, ctx in records:
        ext, filename, lineno, glob = ctx[:4] if ctx is not None else (None, None, 0, None)
        modes, func = _state(ext)
        for bit, key, what in _KINDS:
            if not flags & bit:
                continue
            mode = modes[key]
            if mode == 'ignore':
                continue
            msg = f"{what} encountered in {name}"
            if mode == 'warn':
                if filename is None:
                    warnings.warn(msg, RuntimeWarning, stacklevel=_stacklevel())
                else:
                    g = glob if isinstance(glob, dict) else {}
                    warnings.warn_explicit(
                        msg, RuntimeWarning, filename, lineno, module=g.get('__name__'),
                        registry=g.setdefault("__warningregistry__", {}))
            elif mode == 'raise':
                err = FloatingPointError(msg)
                if filename is not None:
                    err.add_note(f"ndtile: raised by {name}, called at {filename}:{lineno}")
                raise err
            elif mode == 'call':
                if func is None:
                    raise NameError(f"python callback specified for {what} (in  {name}) "
                                    "but no function found.")
                func(what, flags)
            elif mode == 'print':
                sys.stderr.flush()
                os.write(2, f"Warning: {msg}\n".encode())
            elif mode == 'log':
                if func is None:
                    raise NameError(f"log specified for {what} (in {name}) but no object "
                                    "with write method found.")
                func.write(f"Warning: {msg}\n")


# ---- NumPy's own computations run on the user's behalf ------------------------
# NumPy's ufuncs warn of floating-point errors at the Python line that called
# them: ndtile's line where ndtile calls NumPy (a ufunc of scalars, a
# function that falls back), so the warning named ndtile's file, and
# Python's once-per-line filter showed one of them per program. numpy_call
# runs such a call in NumPy's 'log' mode and reports each line NumPy logs
# (its op's name in it) through report(): in the user's errstate, at the
# user's line.
_LOGGED = threading.local()


class _Log:
    """NumPy's 'log' mode writer: keeps the lines of this thread's call."""
    __slots__ = ()

    def write(self, line):
        _LOGGED.lines.append(line)


_LOG_EXT = None
if _VAR is not None:
    with _np.errstate(all='log', call=_Log()):
        _LOG_EXT = _VAR.get()

_WHAT_BIT = {what: bit for bit, _, what in _KINDS}


def numpy_call(func, *args, **kwargs):
    """func(*args, **kwargs), NumPy code run for the user, its floating-point
    errors reported as the user's errstate says, at the user's line."""
    if _LOG_EXT is None:
        return func(*args, **kwargs)
    outer = getattr(_LOGGED, 'lines', None)
    _LOGGED.lines = lines = []
    token = _VAR.set(_LOG_EXT)
    try:
        r = func(*args, **kwargs)
    finally:
        _VAR.reset(token)
        _LOGGED.lines = outer
    for line in lines:
        # "Warning: <what> encountered in <op>\n"
        what, _, name = line[len("Warning: "):].rstrip("\n").partition(" encountered in ")
        report([(name, _WHAT_BIT.get(what, 0), None)])
    return r
