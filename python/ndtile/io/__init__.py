"""Arrays from files, read straight into tiles.

    from ndtile import io
    frames = io.read_hdf5("run.h5", "frames")             # the whole dataset
    part = io.read_hdf5("run.h5", "frames", start=8, stop=16)
    for first, batch in io.Batches("run.h5", "frames", 8):  # the next batch loads meanwhile
        ...
    a = io.read_npy("a.npy")
    io.write_hdf5("out.h5", {"D": d, "powder": p})

Each tile of the new array is read by the rank that owns it, straight into
the tile's buffer: a hyperslab read (h5py ``read_direct``) into a NumPy array
that wraps the tile's memory (``_core.host_tiles``), so no rank reads what it
does not own and nothing passes through a full-size NumPy copy. On many ranks
every rank opens the file itself (read-only; plain h5py on a shared file
system is enough) and reads its own tiles.

Errors (a missing file or dataset, a dtype or shape that differs from the one
asked for, a truncated or unreadable file) raise an exception that names the
file and the dataset - FileNotFoundError, KeyError, TypeError, ValueError or
OSError - on every rank at once (the ranks agree before they go on, so none
is left waiting), and no array is returned half-read. ``write_hdf5`` writes
once (rank 0, into a temporary file renamed into place when complete).

h5py is needed for the HDF5 functions only; it is imported on first use.
``stats()`` counts the bytes this rank read (what tests and reports show).
"""
from __future__ import annotations

import math
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import numpy

from .. import _core
from .. import _multiarray
from .. import _ranks

__all__ = ['read_hdf5', 'read_npy', 'write_hdf5', 'Batches', 'stats']

# What this rank read (bytes of data, time inside the reads), for reports
# and for the tests that check each rank reads its own tiles only.
_stats_lock = threading.Lock()
_stats = {'bytes': 0, 'seconds': 0.0, 'reads': 0}


def stats(reset=False):
    """{'bytes', 'seconds', 'reads'} this rank read since the last reset."""
    with _stats_lock:
        out = dict(_stats)
        if reset:
            _stats.update(bytes=0, seconds=0.0, reads=0)
    return out


def _count(nbytes, seconds):
    with _stats_lock:
        _stats['bytes'] += int(nbytes)
        _stats['seconds'] += seconds
        _stats['reads'] += 1


def _h5py():
    try:
        import h5py  # lazy: h5py is optional
    except ImportError as exc:   # pragma: no cover - depends on the install
        raise ImportError("ndtile.io's HDF5 functions need h5py (pip install h5py)") from exc
    return h5py


# ---- agreement between ranks ------------------------------------------------

_ERRORS = {c.__name__: c for c in (FileNotFoundError, FileExistsError, KeyError, TypeError,
                                   ValueError, ImportError,
                                   OSError, MemoryError, RuntimeError)}


class _Failure:
    """An error seen on one rank, in a form every rank can raise."""

    def __init__(self, exc):
        kind = type(exc)
        name = next((c.__name__ for c in kind.__mro__ if c.__name__ in _ERRORS), 'RuntimeError')
        self.kind, self.message = name, _message(exc)

    def exception(self):
        cls = _ERRORS[self.kind]
        return cls(self.message)


def _message(exc):
    if isinstance(exc, KeyError) and len(exc.args) == 1 and isinstance(exc.args[0], str):
        return exc.args[0]
    return str(exc)


def _agree(failure):
    """Every rank learns whether any rank failed; all raise the lowest
    failing rank's error (or none). One bcast per rank: the ranks are few
    and this runs once per read."""
    n = _core.nranks()
    if n == 1:
        if failure is not None:
            raise failure.exception()
        return
    first = None
    for r in range(n):
        f = _ranks.bcast(failure if _core.rank() == r else None, r)
        if first is None and f is not None:
            first = f
    if first is not None:
        raise first.exception()


class _Where:
    """'file.h5:/dataset' in messages."""

    def __init__(self, path, dataset=None):
        self.path, self.dataset = os.fspath(path), dataset

    def __str__(self):
        return self.path if self.dataset is None else f"{self.path}:{self.dataset}"


# ---- tiles as boxes -----------------------------------------------------------

def _box(shape, start, length):
    """The box of a C-order array of `shape` whose flat elements are
    [start, start + length): a tile holds whole rows of the trailing axes,
    a range of one axis and single indices before it (the tiling rule,
    src/runtime/store.c). Returns (index tuple of slices, box shape)."""
    nd = len(shape)
    if nd == 0:
        return (), ()
    inner = 1
    for a in range(nd - 1, -1, -1):
        if start % inner == 0 and length % inner == 0:
            q, r = start // inner, length // inner
            pos = q % shape[a]
            if pos + r <= shape[a]:
                lead = numpy.unravel_index(q // shape[a], shape[:a]) if a else ()
                index = tuple(slice(int(i), int(i) + 1) for i in lead)
                index += (slice(pos, pos + r),) + (slice(None),) * (nd - a - 1)
                return index, (1,) * a + (r,) + tuple(shape[a + 1:])
        inner *= shape[a]
    raise AssertionError(f"tile [{start}, {start + length}) of {shape} is not a box")


def _offset(index, axis0):
    """index shifted by axis0 along the leading axis (a batch of a run)."""
    if not index or axis0 == 0:
        return index
    s = index[0]
    first = slice((s.start or 0) + axis0, (s.stop if s.stop is not None else 0) + axis0)
    return (first,) + index[1:]


def _new_array(shape, dtype):
    return _multiarray.empty(shape, dtype=dtype)


def _own_tiles(arr, shape, dtype):
    """[(index, dest)] for each tile this rank owns: dest a writable NumPy
    array on the tile's memory, index its place in arr."""
    out = []
    for start, length, mem in _core.host_tiles(arr, True):
        if length == 0:
            continue
        index, bshape = _box(shape, start, length)
        dest = numpy.frombuffer(mem, dtype=dtype).reshape(bshape)
        out.append((index, dest))
    return out


def _native(dt):
    """The native-byte-order dtype of a file's dtype, or None when ndtile
    has no such dtype."""
    dt = numpy.dtype(dt)
    if dt.kind not in 'biufc' or dt.names is not None or dt.subdtype is not None:
        return None
    dt = dt.newbyteorder('=')
    if dt.name not in _core.DTYPE_NAMES:
        return None
    return dt


def _check(where, fshape, fdtype, dtype, shape, start, stop):
    """The shape and dtype of the array read, after the caller's checks."""
    native = _native(fdtype)
    if native is None:
        raise TypeError(f"{where}: dtype {numpy.dtype(fdtype)} has no ndtile equivalent")
    if dtype is not None and numpy.dtype(dtype) != native:
        raise TypeError(f"{where}: dtype is {native}, expected {numpy.dtype(dtype)}")
    fshape = tuple(int(n) for n in fshape)
    if shape is not None:
        want = tuple(int(n) for n in ((shape,) if isinstance(shape, int) else shape))
        if want != fshape:
            raise ValueError(f"{where}: shape is {fshape}, expected {want}")
    if start is None and stop is None:
        return fshape, native, 0
    if not fshape:
        raise ValueError(f"{where}: a 0-d dataset has no leading axis to slice")
    n = fshape[0]
    lo, hi, step = slice(start, stop).indices(n)
    if step != 1 or (start is not None and not -n <= start <= n) or \
            (stop is not None and not -n <= stop <= n):
        raise ValueError(f"{where}: frames [{start}, {stop}) are outside the {n} in the file")
    return (max(hi - lo, 0),) + fshape[1:], native, lo


# ---- HDF5 ----------------------------------------------------------------------

def _open_hdf5(path, mode='r'):
    h5py = _h5py()
    where = _Where(path)
    if mode == 'r' and not os.path.exists(where.path):
        raise FileNotFoundError(f"{where}: no such file")
    try:
        return h5py.File(where.path, mode)
    except FileNotFoundError:
        raise FileNotFoundError(f"{where}: no such file") from None
    except OSError as exc:
        raise OSError(f"{where}: cannot open as HDF5 ({exc})") from None


def _dataset(f, path, dataset):
    where = _Where(path, dataset)
    try:
        d = f[dataset]
    except KeyError:
        raise KeyError(f"{where}: no such dataset") from None
    h5py = _h5py()
    if not isinstance(d, h5py.Dataset):
        raise KeyError(f"{where}: not a dataset (a {type(d).__name__})")
    return d


def _read_tiles(dset, tiles, axis0, where):
    """Hyperslab reads of the dataset into each tile; returns a _Failure
    or None (never raises: the ranks must agree first)."""
    try:
        for index, dest in tiles:
            t0 = time.perf_counter()
            src = _offset(index, axis0)
            if dest.size:
                if dest.ndim == 0:
                    dest[()] = dset[()]
                else:
                    dset.read_direct(dest, source_sel=src)
            _count(dest.nbytes, time.perf_counter() - t0)
    except Exception as exc:   # noqa: BLE001 - reported on every rank
        return _Failure(OSError(f"{where}: read failed ({_message(exc)})"))
    return None


def read_hdf5(path, dataset, *, dtype=None, shape=None, start=None, stop=None):
    """The dataset (frames [start, stop) of its leading axis, when given) as
    a new ndtile array; each rank reads the tiles it owns.

    dtype, shape: what the caller expects the dataset to be (TypeError /
    ValueError naming the file and dataset when it is not)."""
    where = _Where(path, dataset)
    f = failure = None
    try:
        f = _open_hdf5(path)
        d = _dataset(f, path, dataset)
        out_shape, dt, axis0 = _check(where, d.shape, d.dtype, dtype, shape, start, stop)
    except Exception as exc:   # noqa: BLE001
        failure = _Failure(exc)
    try:
        _agree(failure)
        arr = _new_array(out_shape, dt)
        _agree(_read_tiles(d, _own_tiles(arr, out_shape, dt), axis0, where))
        return arr
    finally:
        if f is not None:
            f.close()


class Batches:
    """Batches of `batch` frames along the leading axis of a dataset (the
    last one may be shorter): iterating yields (first frame, array). While
    the caller analyses a batch, a reader thread reads the next one into
    its tiles (h5py and NumPy's copies release the GIL while they read, and
    ndtile's waits release it too, so the read overlaps the analysis).

    ``.path``, ``.dataset``, ``.shape`` (the whole dataset), ``.dtype``.
    ``wait_seconds``: the time the caller spent waiting for reads that had
    not finished (0 when reading is fully hidden). Use as a context manager
    or call close() to close the file early."""

    def __init__(self, path, dataset, batch, *, start=None, stop=None, dtype=None,
                 shape=None, prefetch=True):
        if int(batch) < 1:
            raise ValueError(f"batch must be >= 1, got {batch}")
        self.path, self.dataset, self.batch = os.fspath(path), dataset, int(batch)
        self.prefetch = bool(prefetch)
        self.wait_seconds = 0.0
        self._where = _Where(path, dataset)
        self._file = self._reader = None
        failure = None
        try:
            self._file = _open_hdf5(path)
            self._dset = _dataset(self._file, path, dataset)
            sel, dt, self._lo = _check(self._where, self._dset.shape, self._dset.dtype, dtype,
                                       shape, start, stop)
            if not sel:
                raise ValueError(f"{self._where}: a 0-d dataset has no frames to batch")
        except Exception as exc:   # noqa: BLE001
            failure = _Failure(exc)
        try:
            _agree(failure)
        except BaseException:
            self.close()
            raise
        self.dtype = dt
        self.shape = tuple(int(n) for n in self._dset.shape)
        self._n = sel[0]
        self._frame = sel[1:]

    def __len__(self):
        return -(-self._n // self.batch)

    def _submit(self, first):
        """Makes the array of frames [first, first + batch) and starts
        reading its tiles (on the reader thread, or now)."""
        n = min(self.batch, self._n - first)
        shape = (n,) + self._frame
        arr = _new_array(shape, self.dtype)
        tiles = _own_tiles(arr, shape, self.dtype)
        axis0 = self._lo + first
        if self._reader is None and self.prefetch:
            self._reader = ThreadPoolExecutor(1, thread_name_prefix='ndtile-io')
        if self.prefetch:
            job = self._reader.submit(_read_tiles, self._dset, tiles, axis0, self._where)
        else:
            job = _read_tiles(self._dset, tiles, axis0, self._where)
        return first, arr, job

    def _take(self, pending):
        first, arr, job = pending
        if self.prefetch:
            t0 = time.perf_counter()
            failure = job.result()
            self.wait_seconds += time.perf_counter() - t0
        else:
            failure = job
        _agree(failure)
        return first, arr

    def __iter__(self):
        try:
            pending = self._submit(0) if self._n else None
            while pending is not None:
                nxt = pending[0] + self.batch
                # the next read starts before this batch is handed out
                ahead = self._submit(nxt) if self.prefetch and nxt < self._n else None
                try:
                    first, arr = self._take(pending)
                except BaseException:
                    if ahead is not None:
                        ahead[2].result()   # no read may still be writing on return
                    raise
                yield first, arr
                if not self.prefetch and nxt < self._n:
                    ahead = self._submit(nxt)
                pending = ahead
        finally:
            self.close()

    def close(self):
        if self._reader is not None:
            self._reader.shutdown(wait=True)
            self._reader = None
        if self._file is not None:
            self._file.close()
            self._file = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def write_hdf5(path, datasets, *, attrs=None, mode='w'):
    """Writes {name: array} (ndtile or NumPy arrays, or anything
    numpy.asarray takes) to an HDF5 file, once: on many ranks rank 0 writes
    (every rank takes part in gathering the arrays), and an error there is
    raised on every rank. The file appears complete or not at all: it is
    written under a temporary name in the same directory and renamed.
    attrs: {name: value} on the file's root. mode 'w' replaces the file,
    'x' fails when it exists."""
    if mode not in ('w', 'x'):
        raise ValueError(f"mode must be 'w' or 'x', got {mode!r}")
    # gathering is a step every rank takes (one array's values on all ranks)
    host = {name: numpy.asarray(a) for name, a in dict(datasets).items()}
    target = os.fspath(path)
    failure = None
    if _core.rank() == 0:
        tmp = f"{target}.tmp-{os.getpid()}"
        try:
            h5py = _h5py()
            if mode == 'x' and os.path.exists(target):
                raise FileExistsError(f"{target}: file exists")
            try:
                with h5py.File(tmp, 'w') as f:
                    for name, a in host.items():
                        try:
                            f.create_dataset(name, data=a)
                        except Exception as exc:   # noqa: BLE001
                            kind = type(exc) if isinstance(exc, (TypeError, ValueError)) \
                                else OSError
                            raise kind(f"{_Where(target, name)}: cannot write "
                                       f"({_message(exc)})") from None
                    for k, v in (attrs or {}).items():
                        f.attrs[k] = v
                os.replace(tmp, target)
            finally:
                if os.path.exists(tmp):
                    os.remove(tmp)
        except (FileExistsError, TypeError, ValueError) as exc:
            failure = _Failure(exc)
        except Exception as exc:   # noqa: BLE001
            failure = _Failure(OSError(f"{target}: write failed ({_message(exc)})"))
    _agree(failure)


# ---- .npy ------------------------------------------------------------------------

def read_npy(path, *, dtype=None, shape=None, start=None, stop=None):
    """A .npy file as a new ndtile array: the file is memory-mapped and each
    rank copies the tiles it owns out of the map (so it reads only those
    pages). dtype, shape, start, stop as in read_hdf5."""
    where = _Where(path)
    mm = failure = None
    try:
        if not os.path.exists(where.path):
            raise FileNotFoundError(f"{where}: no such file")
        try:
            mm = numpy.load(where.path, mmap_mode='r', allow_pickle=False)
        except (ValueError, OSError, EOFError) as exc:
            raise OSError(f"{where}: not a readable .npy file ({exc})") from None
        if not isinstance(mm, numpy.ndarray):
            raise OSError(f"{where}: not a .npy file")
        out_shape, dt, axis0 = _check(where, mm.shape, mm.dtype, dtype, shape, start, stop)
    except Exception as exc:   # noqa: BLE001
        failure = _Failure(exc)
    _agree(failure)
    arr = _new_array(out_shape, dt)
    failure = None
    try:
        for index, dest in _own_tiles(arr, out_shape, dt):
            t0 = time.perf_counter()
            if dest.size:
                dest[...] = mm[_offset(index, axis0)] if index else mm[()]
            _count(dest.nbytes, time.perf_counter() - t0)
    except Exception as exc:   # noqa: BLE001
        failure = _Failure(OSError(f"{where}: read failed ({_message(exc)})"))
    del mm
    _agree(failure)
    return arr
