"""ndtile.io: arrays read from files straight into tiles (issue 19).

Round trips against the file's own values (h5py/NumPy read them as the
oracle), every dtype ndtile has, 0-d to 4-d, multi-panel frames, batches
that do not divide the run; the bad files (missing file or dataset, wrong
dtype or shape, truncated, unreadable) each raise naming file and dataset;
each rank reads exactly the bytes of the tiles it owns (1-3 ranks, through
the launcher); the X-ray job from a file gives the in-memory job's report.

Runs at the suite's small tiles (conftest: 4096 bytes) so small arrays span
many tiles, and once at the default 2 MiB tiles with frames just over one
tile.
"""
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy
import pytest

import ndtile
from ndtile import _core, io

h5py = pytest.importorskip("h5py")

ROOT = Path(__file__).resolve().parents[2]
XRAY = ROOT / "examples" / "xray"


@pytest.fixture
def shared_tmp(tmp_path):
    """A directory every rank sees at the same path (rank 0's tmp_path)."""
    if ndtile.nranks() == 1:
        return tmp_path
    from ndtile import _ranks
    return Path(_ranks.bcast(str(tmp_path) if ndtile.rank() == 0 else None, 0))


def write_h5(path, **datasets):
    """Every rank writes its own copy of the file (same bytes), with plain h5py."""
    with h5py.File(path, "w") as f:
        for k, v in datasets.items():
            f[k.replace("__", "/")] = v


def values(shape, dtype, seed=0):
    rng = numpy.random.default_rng(seed)
    dt = numpy.dtype(dtype)
    if dt.kind == "b":
        return rng.random(shape) < 0.5
    if dt.kind in "iu":
        info = numpy.iinfo(dt)
        return rng.integers(info.min, info.max, shape, dtype=dt, endpoint=True)
    if dt.kind == "c":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dt)
    return rng.standard_normal(shape).astype(dt)


def same(got, want):
    got = numpy.asarray(got)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert got.tobytes() == want.tobytes()


DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float32", "float64", "complex64", "complex128"]


@pytest.mark.parametrize("dtype", DTYPES)
def test_round_trip_dtypes(tmp_path, dtype):
    a = values((5, 17, 33), dtype)
    write_h5(tmp_path / "a.h5", x=a)
    io.stats(reset=True)
    b = io.read_hdf5(tmp_path / "a.h5", "x")
    assert isinstance(b, ndtile.ndarray)
    same(b, a)
    if ndtile.nranks() == 1:
        assert io.stats()["bytes"] == a.nbytes   # every byte read once, nothing more
    # the array is an ordinary one: ops on it see the file's values
    same(b[1:4, ::-1] if dtype == "bool" else b[1:4, ::-1] * 1, a[1:4, ::-1] if dtype == "bool"
         else a[1:4, ::-1] * 1)


@pytest.mark.parametrize("shape", [(), (0,), (7,), (3, 0, 4), (1, 1), (40, 40), (4, 3, 50, 20),
                                   (2, 16, 35, 64)])
def test_round_trip_shapes(tmp_path, shape):
    a = values(shape, "float64", seed=len(shape))
    write_h5(tmp_path / "a.h5", grp__x=a)
    same(io.read_hdf5(tmp_path / "a.h5", "grp/x"), a)
    numpy.save(tmp_path / "a.npy", a)
    same(io.read_npy(tmp_path / "a.npy"), a)


def test_big_endian_and_fortran_files(tmp_path):
    a = values((6, 30, 20), ">f4")
    write_h5(tmp_path / "a.h5", x=a)
    same(io.read_hdf5(tmp_path / "a.h5", "x"), a.astype("=f4"))
    f = numpy.asfortranarray(values((6, 30, 20), "int32"))
    numpy.save(tmp_path / "f.npy", f)
    same(io.read_npy(tmp_path / "f.npy"), numpy.ascontiguousarray(f))


def test_leading_axis_slices(tmp_path):
    a = values((9, 20, 64), "uint16")
    write_h5(tmp_path / "a.h5", x=a)
    numpy.save(tmp_path / "a.npy", a)
    for start, stop in [(0, 9), (2, 5), (8, 9), (3, 3), (None, 4), (-3, None)]:
        same(io.read_hdf5(tmp_path / "a.h5", "x", start=start, stop=stop), a[start:stop])
        same(io.read_npy(tmp_path / "a.npy", start=start, stop=stop), a[start:stop])


@pytest.mark.parametrize("frame", [(24, 64), (3, 20, 64)])   # 2-D and multi-panel frames
@pytest.mark.parametrize("batch,prefetch", [(4, True), (5, True), (13, True), (5, False)])
def test_batches(tmp_path, frame, batch, prefetch):
    a = values((13,) + frame, "uint16")
    write_h5(tmp_path / "run.h5", entry__data__frames=a)
    io.stats(reset=True)
    seen = []
    with io.Batches(tmp_path / "run.h5", "entry/data/frames", batch, prefetch=prefetch) as it:
        assert len(it) == math.ceil(13 / batch)
        for first, arr in it:
            same(arr, a[first:first + batch])    # the last batch is shorter
            seen.append(first)
    assert seen == list(range(0, 13, batch))
    if ndtile.nranks() == 1:
        assert io.stats()["bytes"] == a.nbytes   # every frame read once


def test_batches_window_and_early_exit(tmp_path):
    a = values((10, 8, 64), "int16")
    write_h5(tmp_path / "run.h5", x=a)
    got = [(f, numpy.asarray(b)) for f, b in io.Batches(tmp_path / "run.h5", "x", 3, start=2,
                                                         stop=9)]
    assert [f for f, _ in got] == [0, 3, 6]
    same(numpy.concatenate([b for _, b in got]), a[2:9])
    for first, b in io.Batches(tmp_path / "run.h5", "x", 2):
        break    # leaving early closes the reader and the file
    same(b, a[:2])


def test_read_overlaps_analysis(tmp_path):
    """The next batch is read while the caller works on this one: by the
    end of the caller's work on batch k, batch k + 1 is already read (its
    bytes counted), and the caller does not wait for reads after the first."""
    a = values((6, 256, 256), "uint16")
    write_h5(tmp_path / "run.h5", x=a)
    import time
    frame = a[0].nbytes
    io.stats(reset=True)
    it = io.Batches(tmp_path / "run.h5", "x", 1)
    ahead, waits = [], []
    for first, b in it:
        time.sleep(0.2)     # the analysis (a read of 128 KiB takes well under this)
        ahead.append(io.stats()["bytes"] // frame - (first + 1))
        waits.append(it.wait_seconds)
    assert ahead == [1, 1, 1, 1, 1, 0], ahead      # one batch read ahead, the last has none
    assert waits[-1] - waits[0] < 0.1, waits
    # without prefetch nothing is read ahead
    io.stats(reset=True)
    ahead = [io.stats()["bytes"] // frame - (first + 1)
             for first, b in io.Batches(tmp_path / "run.h5", "x", 1, prefetch=False)]
    assert ahead == [0] * 6, ahead


def test_default_tiles_frames_just_over_one_tile():
    """At the default 2 MiB tiles, 704x768 float32 frames are 2.06 MiB: two
    tiles per frame. The file round trip and ops on what was read match."""
    code = r"""
import numpy, h5py, sys, tempfile, os
import ndtile
from ndtile import io
d = tempfile.mkdtemp()
rng = numpy.random.default_rng(1)
a = rng.random((3, 704, 768), dtype=numpy.float32)
with h5py.File(os.path.join(d, 'a.h5'), 'w') as f:
    f['x'] = a
b = io.read_hdf5(os.path.join(d, 'a.h5'), 'x')
assert ndtile._core.tile_bytes() == 2 << 20
assert numpy.asarray(b).tobytes() == a.tobytes()
c = numpy.asarray((b >= 0.5) & (b < a[0]))
assert (c == ((a >= 0.5) & (a < a[0]))).all()
assert io.stats()['bytes'] == a.nbytes
print('ok')
"""
    env = {k: v for k, v in os.environ.items() if not k.startswith("NDTILE_")}
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                       timeout=120)
    assert p.returncode == 0 and p.stdout.strip() == "ok", p.stderr[-2000:]


# ---- bad files -------------------------------------------------------------------

def test_missing_file(tmp_path):
    path = tmp_path / "nope.h5"
    for call in (lambda: io.read_hdf5(path, "x"), lambda: io.Batches(path, "x", 2),
                 lambda: io.read_npy(tmp_path / "nope.npy")):
        with pytest.raises(FileNotFoundError, match="nope"):
            call()


def test_missing_dataset(tmp_path):
    write_h5(tmp_path / "a.h5", g__x=numpy.zeros(3))
    with pytest.raises(KeyError, match=r"a\.h5:g/y: no such dataset"):
        io.read_hdf5(tmp_path / "a.h5", "g/y")
    with pytest.raises(KeyError, match=r"a\.h5:g: not a dataset"):
        io.read_hdf5(tmp_path / "a.h5", "g")
    with pytest.raises(KeyError, match="frames"):
        io.Batches(tmp_path / "a.h5", "frames", 2)


def test_wrong_dtype_or_shape(tmp_path):
    write_h5(tmp_path / "a.h5", x=numpy.zeros((4, 6), numpy.uint16),
             s=numpy.array([b"ab", b"cd"]), h=numpy.zeros(3, numpy.float16))
    with pytest.raises(TypeError, match=r"a\.h5:x: dtype is uint16, expected float32"):
        io.read_hdf5(tmp_path / "a.h5", "x", dtype=numpy.float32)
    with pytest.raises(ValueError, match=r"a\.h5:x: shape is \(4, 6\), expected \(4, 7\)"):
        io.read_hdf5(tmp_path / "a.h5", "x", shape=(4, 7))
    with pytest.raises(TypeError, match=r"a\.h5:s: dtype"):
        io.read_hdf5(tmp_path / "a.h5", "s")
    with pytest.raises(TypeError, match=r"a\.h5:h: dtype float16"):
        io.read_hdf5(tmp_path / "a.h5", "h")
    with pytest.raises(ValueError, match="outside the 4"):
        io.read_hdf5(tmp_path / "a.h5", "x", start=2, stop=9)
    numpy.save(tmp_path / "a.npy", numpy.zeros((4, 6), numpy.int8))
    with pytest.raises(TypeError, match=r"a\.npy: dtype is int8, expected int16"):
        io.read_npy(tmp_path / "a.npy", dtype="int16")
    with pytest.raises(ValueError, match=r"a\.npy: shape"):
        io.read_npy(tmp_path / "a.npy", shape=(6, 4))
    with pytest.raises(ValueError, match="batch"):
        io.Batches(tmp_path / "a.h5", "x", 0)


def test_truncated_and_garbage_files(tmp_path):
    a = values((8, 64, 64), "float64")
    write_h5(tmp_path / "a.h5", x=a)
    data = (tmp_path / "a.h5").read_bytes()
    (tmp_path / "t.h5").write_bytes(data[: len(data) // 2])
    with pytest.raises(OSError, match=r"t\.h5"):
        io.read_hdf5(tmp_path / "t.h5", "x")
    (tmp_path / "g.h5").write_bytes(b"not an hdf5 file at all" * 10)
    with pytest.raises(OSError, match=r"g\.h5"):
        io.read_hdf5(tmp_path / "g.h5", "x")
    numpy.save(tmp_path / "a.npy", a)
    data = (tmp_path / "a.npy").read_bytes()
    (tmp_path / "t.npy").write_bytes(data[: len(data) // 2])
    with pytest.raises(OSError, match=r"t\.npy"):
        io.read_npy(tmp_path / "t.npy")
    (tmp_path / "g.npy").write_bytes(b"garbage")
    with pytest.raises(OSError, match=r"g\.npy"):
        io.read_npy(tmp_path / "g.npy")


def test_ndtile_imports_without_h5py():
    """h5py is imported by ndtile.io's HDF5 functions only."""
    code = ("import sys; sys.modules['h5py'] = None\n"
            "import ndtile, ndtile.io, numpy\n"
            "assert 'h5py' not in sys.modules or sys.modules['h5py'] is None\n"
            "try:\n    ndtile.io.read_hdf5('x.h5', 'x')\n"
            "except ImportError as e:\n    print('ImportError', 'h5py' in str(e))\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert p.stdout.strip() == "ImportError True", p.stderr[-2000:]


# ---- writing -----------------------------------------------------------------------

def test_write_hdf5_round_trip(shared_tmp):
    a = ndtile.arange(3 * 40 * 64, dtype=ndtile.float32).reshape(3, 40, 64) / 7
    b = numpy.arange(5, dtype=numpy.int16)
    path = shared_tmp / "out.h5"
    io.write_hdf5(path, {"a": a, "grp/b": b}, attrs={"note": "x"})
    ndtile.barrier() if hasattr(ndtile, "barrier") else None
    with h5py.File(path, "r") as f:
        same(f["a"][()], numpy.asarray(a))
        same(f["grp/b"][()], b)
        assert f.attrs["note"] == "x"
    same(io.read_hdf5(path, "a"), numpy.asarray(a))
    assert [p.name for p in shared_tmp.iterdir() if ".tmp-" in p.name] == []


def test_write_hdf5_fails_whole(shared_tmp):
    """A write that fails leaves no file and no temporary behind; mode 'x'
    keeps an existing file."""
    path = shared_tmp / "bad.h5"
    with pytest.raises(Exception, match="bad.h5"):
        io.write_hdf5(path, {"a": numpy.zeros(3), "a/b": numpy.zeros(2)})  # a is no group
    assert not path.exists()
    assert [p.name for p in shared_tmp.iterdir() if ".tmp-" in p.name] == []
    io.write_hdf5(path, {"a": numpy.ones(2)})
    with pytest.raises(FileExistsError):
        io.write_hdf5(path, {"a": numpy.zeros(2)}, mode="x")
    with h5py.File(path, "r") as f:
        same(f["a"][()], numpy.ones(2))


# ---- ranks: each reads what it owns -------------------------------------------------

def rank_lines(path):
    """What each rank wrote to PATH.rankN (one file per rank: their stdout
    would interleave)."""
    return sorted(ln for p in path.parent.glob(path.name + ".rank*")
                  for ln in p.read_text().splitlines() if ln.startswith("RANK"))


RANKS_SCRIPT = r"""
import sys, numpy, h5py, ndtile
from ndtile import io, _core, _ranks
path, npy = sys.argv[1], sys.argv[2]
with h5py.File(path, 'r') as f:
    want = f['frames'][()]
io.stats(reset=True)
a = io.read_hdf5(path, 'frames')
h5_bytes = io.stats(reset=True)['bytes']
b = io.read_npy(npy)
npy_bytes = io.stats(reset=True)['bytes']
seen = 0
for first, batch in io.Batches(path, 'frames', 3):
    seen += batch.shape[0]
    assert numpy.asarray(batch).tobytes() == want[first:first + 3].tobytes()
batch_bytes = io.stats()['bytes']
# the bytes of the tiles this rank owns (the runtime's placement)
own = sum(n for _, n, _ in _core.host_tiles(a, False)) * a.itemsize
ok = numpy.asarray(a).tobytes() == want.tobytes() and numpy.asarray(b).tobytes() == want.tobytes()
with open(f'{path}.rank{ndtile.rank()}', 'w') as out:
    print('RANK', ndtile.rank(), h5_bytes, npy_bytes, batch_bytes, own, int(ok), seen, file=out)
"""


@pytest.mark.skipif(ndtile.nranks() > 1, reason="starts its own ranks")
@pytest.mark.parametrize("n", [1, 2, 3])
def test_ranks_read_own_tiles(tmp_path, n):
    sys.path.insert(0, str(ROOT / "tests" / "mpi"))
    from launch import mpirun_command
    if n > 1 and mpirun_command(n) is None:
        pytest.skip("no mpirun")
    a = values((11, 24, 64), "float32")     # 6 KiB frames: at 4 KiB tiles, 2 tiles each
    write_h5(tmp_path / "run.h5", frames=a)
    numpy.save(tmp_path / "run.npy", a)
    (tmp_path / "s.py").write_text(RANKS_SCRIPT)
    env = dict(os.environ, NDTILE_TILE_BYTES="4096", NDTILE_ALL_RANKS_PRINT="1")
    p = subprocess.run([sys.executable, "-m", "ndtile", "--ranks", str(n), "--cpus", "2",
                        str(tmp_path / "s.py"), str(tmp_path / "run.h5"), str(tmp_path / "run.npy")],
                       capture_output=True, text=True, env=env, timeout=240)
    rows = sorted(tuple(int(v) for v in ln.split()[1:]) for ln in rank_lines(tmp_path / "run.h5"))
    assert p.returncode == 0 and len(rows) == n, p.stdout[-2000:] + p.stderr[-3000:]
    for rank, h5b, npyb, batchb, own, ok, seen in rows:
        assert ok == 1 and seen == 11
        assert h5b == own and npyb == own          # exactly its own tiles
        if n > 1:
            assert 0 < own < a.nbytes
    assert sum(r[1] for r in rows) == a.nbytes      # every tile read once, in total
    assert sum(r[3] for r in rows) == a.nbytes      # the batches too


BAD_RANKS_SCRIPT = r"""
import sys, ndtile
from ndtile import io
try:
    io.read_hdf5(sys.argv[1], 'missing')
except KeyError as e:
    with open(f'{sys.argv[1]}.rank{ndtile.rank()}', 'w') as out:
        print('RANK', ndtile.rank(), 'KeyError', 'missing' in str(e), file=out)
"""


@pytest.mark.skipif(ndtile.nranks() > 1, reason="starts its own ranks")
def test_ranks_agree_on_errors(tmp_path):
    """A missing dataset raises on every rank (none is left waiting)."""
    sys.path.insert(0, str(ROOT / "tests" / "mpi"))
    from launch import mpirun_command
    if mpirun_command(2) is None:
        pytest.skip("no mpirun")
    write_h5(tmp_path / "run.h5", frames=numpy.zeros((4, 8)))
    (tmp_path / "s.py").write_text(BAD_RANKS_SCRIPT)
    env = dict(os.environ, NDTILE_ALL_RANKS_PRINT="1")
    p = subprocess.run([sys.executable, "-m", "ndtile", "--ranks", "2", "--cpus", "2",
                        str(tmp_path / "s.py"), str(tmp_path / "run.h5")],
                       capture_output=True, text=True, env=env, timeout=120)
    assert rank_lines(tmp_path / "run.h5") == \
        ["RANK 0 KeyError True", "RANK 1 KeyError True"], p.stdout + p.stderr[-2000:]


# ---- the X-ray job from a file ---------------------------------------------------------

def test_xray_from_file_same_report(tmp_path):
    """run.py --input RUN.h5 reports what the in-memory run of the same
    simulation reports (every line but the timings and the input line)."""
    sys.path.insert(0, str(XRAY))
    import generate
    import run as xray_run
    sim = generate.Simulator("128x128", seed=3, forced_hits=(2, 9), weak_signal=0.5)
    path = generate.write_run(tmp_path / "run.h5", sim, 24, 8)
    with h5py.File(path, "r") as f:
        assert f[generate.FRAMES].shape == (24, 128, 128)
        assert f[generate.FRAMES].dtype == numpy.uint16
        assert "truth" not in "".join(f.keys()) and "counts" not in f
    reports = {}
    for lib, mod in (("numpy", numpy), ("ndtile", ndtile)):
        mem = xray_run.run_pipeline(mod, generate.Simulator("128x128", seed=3, forced_hits=(2, 9),
                                                            weak_signal=0.5), 24, 8, 8)
        vm = xray_run.evaluate(sim, *mem)
        run = xray_run.FileRun(path, mod)
        truth = generate.RunTruth(path)
        fil = xray_run.run_pipeline_file(mod, run, truth, 24, 8)
        vf = xray_run.evaluate(truth, *fil)
        keep = lambda v: [ln for ln in xray_run.format_report(v, lib).splitlines()  # noqa: E731
                          if not any(w in ln for w in ("frames/s", "dark calibration",
                                                       "input  "))]
        assert keep(vf) == keep(vm)
        assert vf["read_bytes_per_rank"] == [24 * 128 * 128 * 2 + 8 * 128 * 128 * 2]
        assert "input" in xray_run.format_report(vf, lib)
        reports[lib] = vf
    assert reports["ndtile"]["hits_matched"] == reports["ndtile"]["hits_planted"] > 0


def test_xray_cli_input(tmp_path):
    sys.path.insert(0, str(XRAY))
    import generate
    sim = generate.Simulator("64x128", seed=1, forced_hits=(1,))
    path = generate.write_run(tmp_path / "r.h5", sim, 6, 4)
    p = subprocess.run([sys.executable, str(XRAY / "run.py"), "--input", str(path), "--lib",
                        "ndtile", "--batch", "4", "--output", str(tmp_path / "out")],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr[-2000:]
    report = (tmp_path / "out" / "report.txt").read_text()
    assert "6 frames of 64x128" in report and "MB read" in report
    assert (tmp_path / "out" / "figure.png").exists()


@pytest.mark.skipif(ndtile.nranks() > 1, reason="starts its own ranks")
def test_xray_file_two_ranks_same_report(tmp_path):
    """The job from a file through the launcher on 2 ranks: the 1-rank
    report line for line (but the timings and the input line), and every
    frame read once in total, half by each rank."""
    sys.path.insert(0, str(ROOT / "tests" / "mpi"))
    from launch import mpirun_command
    if mpirun_command(2) is None:
        pytest.skip("no mpirun")
    sys.path.insert(0, str(XRAY))
    import generate
    sim = generate.Simulator("128x128", seed=3, forced_hits=(2, 9), weak_signal=0.5)
    path = generate.write_run(tmp_path / "run.h5", sim, 16, 8)
    env = dict(os.environ, NDTILE_TILE_BYTES="65536")   # a float32 frame a tile
    reports = {}
    for n in (1, 2):
        out = tmp_path / f"out{n}"
        p = subprocess.run([sys.executable, "-m", "ndtile", "--ranks", str(n), "--cpus", "2",
                            str(XRAY / "run.py"), "--input", str(path), "--output", str(out)],
                           capture_output=True, text=True, env=env, timeout=600)
        assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-3000:]
        reports[n] = (out / "report.txt").read_text().splitlines()
    keep = lambda lines: [ln for ln in lines  # noqa: E731
                          if not any(w in ln for w in ("frames/s", "dark calibration", "input  "))]
    assert keep(reports[2]) == keep(reports[1])
    total = (16 + 8) * 128 * 128 * 2
    line = next(ln for ln in reports[2] if ln.startswith("input"))
    assert f"{total / 1e6:.1f} MB read (rank 0: {total / 2e6:.1f}, rank 1: {total / 2e6:.1f})" \
        in line, line
