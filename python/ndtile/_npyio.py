"""Files (NumPy's lib/_npyio_impl): load, save, savez, savez_compressed,
savetxt, loadtxt, genfromtxt, fromfile, fromstring, fromregex; they run
NumPy's on gathered data (one rank writes) and return ndtile arrays."""

import numpy as _np

from . import _convert as C
from . import _fallback as F
import functools


def _host_reader(npfunc):
    """A NumPy file or text reader whose result becomes ndtile arrays: the
    data comes from the host in any case (every rank reads the file)."""

    @functools.wraps(npfunc)
    def reader(*args, **kwargs):
        kwargs.pop('like', None)
        return C.from_np_tree(npfunc(*args, **kwargs))
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
        return C.from_np_tree(r)
    return r      # an NpzFile: its arrays convert when read (np.asarray works on them)


def _host_writer(name, npfunc):
    """A NumPy writer: the data is gathered and the file written once (by
    rank 0 on many ranks; an error there is raised on every rank)."""

    @functools.wraps(npfunc)
    def writer(*args, **kwargs):
        return F.run_numpy(npfunc, args, kwargs, name)
    writer.__module__ = __name__
    return writer


save = _host_writer('save', _np.save)
savetxt = _host_writer('savetxt', _np.savetxt)
savez = _host_writer('savez', _np.savez)
savez_compressed = _host_writer('savez_compressed', _np.savez_compressed)
