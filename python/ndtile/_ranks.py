"""Many processes: what a script sees when it runs on several ranks.

Under mpirun/srun (or the `ndtile` launcher) every rank runs the same
script; the C runtime spreads tiles over the ranks and moves data between
them (control replication). This module makes the rest behave as one
program would:

  - output: `print` shows once - standard output and warnings are shown by
    rank 0 only (NDTILE_ALL_RANKS_PRINT=1 keeps every rank's);
  - files: functions that write files (save, savez, savetxt, tofile, ...)
    write once, on rank 0, and an error there is raised on every rank;
  - fail-stop: an exception nobody catches on one rank prints its traceback
    and stops every rank (exit code 1) instead of leaving the others waiting;
    a rank that ends (sys.exit, the end of the script) or reads an array
    while the others do not stops every rank with a message that says so
    (the runtime's exit notes, comm.c), with the sys.exit status.

On one rank none of this changes anything.
"""
import os
import pickle
import sys
import traceback
import warnings

from . import _core

# NumPy functions (fallback names) that write files.
WRITES_FILES = {'save', 'savez', 'savez_compressed', 'savetxt', 'ndarray.tofile',
                'ndarray.dump'}


def rank():
    """This process's rank (0 on a single process)."""
    return _core.rank()


def nranks():
    """The number of ranks running this program (1 on a single process)."""
    return _core.nranks()


def barrier():
    """Waits until every rank has reached this call."""
    _core.barrier()


def comm_stats(reset=False):
    """Traffic between ranks counted by this rank since the last reset: a
    dict of sends, send_bytes, recvs, recv_bytes (point-to-point messages)
    and collectives, coll_bytes (broadcasts and agreements)."""
    return _core.comm_stats(bool(reset))


def bcast(obj, root=0):
    """root's Python object (pickled) on every rank."""
    data = pickle.dumps(obj) if _core.rank() == root else None
    return pickle.loads(_core.bcast_bytes(data, root))


def on_root(func, args, kwargs):
    """func(*args, **kwargs) on rank 0 only; its result or exception on
    every rank."""
    if _core.nranks() == 1:
        return func(*args, **kwargs)
    out = None
    if _core.rank() == 0:
        try:
            out = (True, func(*args, **kwargs))
        except BaseException as e:      # raised again below, on every rank
            out = (False, e)
        try:
            pickle.dumps(out)
        except Exception:
            out = (out[0], None) if out[0] else (False, RuntimeError(repr(out[1])))
    ok, val = bcast(out, 0)
    if not ok:
        raise val
    return val


def _excepthook(kind, value, tb):
    r = _core.rank()
    lines = traceback.format_exception(kind, value, tb)
    sys.stderr.write(f"ndtile rank {r} of {_core.nranks()}: an uncaught exception stops "
                     f"every rank\n" + ''.join(lines))
    try:
        sys.stderr.flush()
        sys.__stdout__.flush()
    except Exception:
        pass
    _core.abort(1)


def _quiet_warning(*args, **kwargs):
    pass


_sys_exit = sys.exit


def _exit(status=None):
    """sys.exit that tells the runtime the exit status first: a rank that
    ends while the others still wait for it names it in the message that
    stops them (and the job ends with it)."""
    code = 0 if status is None else status if isinstance(status, int) else 1
    try:
        _core.set_exit_code(code & 0xff if code >= 0 else 1)
    except Exception:
        pass
    _sys_exit(status)


def setup():
    """Called once at import."""
    if _core.nranks() == 1:
        return
    # a program a rank starts (subprocess) runs as a plain process
    os.environ['NDTILE_MPI'] = '0'
    if os.environ.get('NDTILE_LAUNCHED') == '1':
        # Ctrl-C reaches every rank on a node and the runtime does not act
        # on it with many ranks: they end at once and quietly (no traceback
        # from each); the launcher says once what stopped the run.
        import signal  # lazy: only under the launcher
        signal.signal(signal.SIGINT, signal.SIG_DFL)
    sys.excepthook = _excepthook
    sys.exit = _exit
    if _core.rank() != 0 and os.environ.get('NDTILE_ALL_RANKS_PRINT', '') not in ('1', 'yes'):
        sys.stdout = open(os.devnull, 'w')
        warnings.showwarning = _quiet_warning
