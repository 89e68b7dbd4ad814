"""The rank API as a plain process sees it (tests/mpi/run.py runs this
suite on 2-4 ranks too, where the same assertions hold rank by rank)."""
import os

import numpy as np
import pytest

import ndtile as nt
from ndtile import _ranks


def test_rank_and_size():
    assert 0 <= nt.rank() < nt.nranks()
    if "OMPI_COMM_WORLD_SIZE" not in os.environ and "PMI_SIZE" not in os.environ:
        assert (nt.rank(), nt.nranks()) == (0, 1)
    nt.barrier()


def test_comm_stats_counts_and_resets():
    nt.comm_stats(reset=True)
    x = nt.arange(20000.0).reshape(100, 200)
    assert float((x + x.T[:200, :100].T).sum()) == float(2 * np.arange(20000.0).sum())
    c = nt.comm_stats(reset=True)
    assert set(c) == {'sends', 'send_bytes', 'recvs', 'recv_bytes', 'collectives',
                      'coll_bytes'}
    if nt.nranks() == 1:
        assert all(v == 0 for v in c.values())
    else:
        assert c['collectives'] > 0
    assert all(v == 0 for v in nt.comm_stats().values()) or nt.nranks() > 1


def test_bcast_and_on_root():
    assert _ranks.bcast({'a': [1, 2]}, 0) == {'a': [1, 2]}
    assert _ranks.on_root(lambda a, b=0: a + b, (2,), {'b': 3}) == 5
    with pytest.raises(ZeroDivisionError):
        _ranks.on_root(lambda: 1 / 0, (), {})
    with pytest.raises(ValueError, match="root"):
        nt._core.bcast_bytes(b"x", nt.nranks())


def test_save_writes_the_array(tmp_path):
    a = nt.arange(3000.0).reshape(30, 100) * 0.5
    # pytest makes a temporary folder per process: rank 0's for all
    tmp_path = _ranks.bcast(tmp_path, 0)
    path = str(tmp_path / "a.npy")
    nt.save(path, a)
    back = np.load(path)
    assert back.dtype == np.float64 and back.shape == (30, 100)
    assert np.array_equal(back, np.arange(3000.0).reshape(30, 100) * 0.5)
    raw = str(tmp_path / "a.bin")
    a.tofile(raw)
    assert np.array_equal(np.fromfile(raw), back.ravel())


def test_save_error_is_raised(tmp_path):
    with pytest.raises(OSError):
        nt.save(str(tmp_path / "no" / "such" / "dir" / "a.npy"), nt.ones(3))
