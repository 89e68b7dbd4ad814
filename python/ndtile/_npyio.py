"""Files (NumPy's lib/_npyio_impl): load, save, savez, savez_compressed,
savetxt, loadtxt, genfromtxt, fromfile, fromstring, fromregex; they run
NumPy's on gathered data (one rank writes) and return ndtile arrays."""

import numpy as _np

from . import _convert as C
from . import _fallback as F
from . import _order as O
import functools


def _from_np(r):
    """A reader's result as ndtile arrays, in NumPy's layout: a Fortran-ordered
    result (a file written in Fortran order, loadtxt's unpack=True transpose)
    is the transpose of a C-ordered store, owning it where NumPy's does."""
    if type(r) is _np.ndarray and r.ndim > 1 and r.flags.f_contiguous and \
            not r.flags.c_contiguous:
        a = C.from_np_tree(r.T)
        if not isinstance(a, C.Array):
            return r
        return O._owned_t(a) if r.flags.owndata else a._transpose(None)
    return C.from_np_tree(r)


def _host_reader(npfunc):
    """A NumPy file or text reader whose result becomes ndtile arrays: the
    data comes from the host in any case (every rank reads the file)."""

    @functools.wraps(npfunc)
    def reader(*args, **kwargs):
        like = kwargs.pop('like', None)
        if like is not None:
            # (other people's arrays went to NumPy's reader; an ndtile
            # subclass with its own __array_function__ gets the call)
            C.check_like(like)
            if isinstance(like, C.Array) and \
                    type(like).__array_function__ is not C.ND.__array_function__:
                return C.like_dispatch(like, npfunc.__name__, args, kwargs)
        return _from_np(npfunc(*args, **kwargs))
    reader.__module__ = __name__
    return reader


loadtxt = _host_reader(_np.loadtxt)
genfromtxt = _host_reader(_np.genfromtxt)
fromfile = _host_reader(_np.fromfile)
fromstring = _host_reader(_np.fromstring)
fromregex = _host_reader(_np.fromregex)


def load(file, *args, **kwargs):
    r = _np.load(file, *args, **kwargs)
    if isinstance(r, _np.ndarray):
        return _from_np(r)      # (a memmap, for mmap_mode, stays NumPy's: its data is the file)
    if type(r) is _NpzFile.__base__:
        r.__class__ = _NpzFile  # its arrays convert when read
    return r


load.__wrapped__ = _np.load     # (inspect.signature: NumPy's, whose arguments these are)


class _NpzFile(_np.lib.npyio.NpzFile):
    """NumPy's NpzFile whose members read as ndtile arrays (f['x'], f.f.x,
    values(), items())."""

    def __getitem__(self, key):
        return _from_np(super().__getitem__(key))


def _host_writer(name, npfunc):
    """A NumPy writer: the data is gathered and the file written once (by
    rank 0 on many ranks; an error there is raised on every rank)."""

    @functools.wraps(npfunc)
    def writer(*args, **kwargs):
        # a Fortran-ordered array is written in Fortran order, as NumPy's
        # (run_numpy's copies are C-ordered)
        args = tuple(_f_numpy(a) for a in args)
        kwargs = {k: _f_numpy(v) for k, v in kwargs.items()}
        return F.run_numpy(npfunc, args, kwargs, name)
    writer.__module__ = __name__
    return writer


def _f_numpy(x):
    """A Fortran-ordered ndtile array as a Fortran-ordered NumPy copy (the
    C-ordered copy of its transposed store, transposed); x else."""
    if isinstance(x, C.Array) and x.ndim > 1 and O.is_f_only(x):
        return C.to_numpy(x._transpose(None)).T
    return x


save = _host_writer('save', _np.save)
savetxt = _host_writer('savetxt', _np.savetxt)
savez = _host_writer('savez', _np.savez)
savez_compressed = _host_writer('savez_compressed', _np.savez_compressed)
