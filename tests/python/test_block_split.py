"""Elementwise tasks fit the tiles of their widest operand (issue 19).

At the default 2 MiB tiles a 704x768 float32 frame is two tiles (352 rows
each) while a bool frame is a quarter of one: a bool result of float32
frames (`photons >= local_max` in the X-ray job) tiled by its own itemsize
had one task per frame, each gathering two float32 tiles into scratch. The
tasks now follow the float32 tiles: one per float32 tile, read in place.
Checked by the task count in the trace, on the fused path and on the
unfused one (an input lent out through a memoryview is never fused), with
the values against NumPy.
"""
import json
import os
import subprocess
import sys
import textwrap


def run_default(code, tmp_path):
    """code in a child with the default settings and a trace; returns the
    trace's task names."""
    trace = tmp_path / "trace.json"
    env = {k: v for k, v in os.environ.items() if not k.startswith("NDTILE_")}
    env["NDTILE_PROFILE"] = str(trace)
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    return [e["name"] for e in json.load(open(trace))["traceEvents"] if e.get("ph") == "X"]


CODE = """
    import numpy
    import ndtile as np
    rng = numpy.random.default_rng(0)
    a = rng.random((3, 704, 768), dtype=numpy.float32)
    b = rng.random((3, 704, 768), dtype=numpy.float32)
    x, y = np.asarray(a), np.asarray(b)
    assert np._core.tile_bytes() == 2 << 20
    LEND
    np._core.sync()
    got = x >= y
    assert (numpy.asarray(got) == (a >= b)).all()
    c = numpy.asarray(x < 0.5)
    assert (c == (a < 0.5)).all()
"""


def test_bool_of_float32_frames_one_task_per_float32_tile(tmp_path):
    names = run_default(CODE.replace("LEND", ""), tmp_path)
    # 3 frames x 2 float32 tiles each; before: 3 tasks, one per frame
    assert names.count("greater_equal") == 6, names
    assert names.count("less") == 6, names


def test_unfused_path_too(tmp_path):
    names = run_default(CODE.replace("LEND", "held = memoryview(x)"), tmp_path)
    assert names.count("greater_equal") == 6, names
    assert names.count("less") == 6, names


def test_small_view_across_tiles_cut_along_first_axis(tmp_path):
    """A border slab of a padded batch of frames (a view under one tile of
    its own, over every tile of the store) is cut into pieces that each lie
    in one tile: one task per frame, not one task gathering and scattering
    across all of them (on many ranks: across every rank's tiles)."""
    names = run_default("""
        import numpy
        import ndtile as np
        out = np.empty((8, 710, 774), dtype=np.float32)   # 2 tiles a frame
        out[...] = 1.0
        np._core.sync()
        out[:, 0:3] = 7.0
        out[:, :, 0:3] = 5.0
        got = numpy.asarray(out)
        want = numpy.ones((8, 710, 774), numpy.float32)
        want[:, 0:3] = 7.0
        want[:, :, 0:3] = 5.0
        assert (got == want).all()
    """, tmp_path)
    # 8 for the full write, 8 for the rows slab (each frame's 3 rows in one
    # tile), 16 for the columns (each frame's 710 rows over its 2 tiles)
    assert names.count("copy") == 8 + 8 + 16, names


RANKS = r"""
import numpy, sys, ndtile as np
from ndtile import _ranks
rng = numpy.random.default_rng(0)
a = rng.random((7, 704, 768), dtype=numpy.float32)
x, y = np.asarray(a), np.asarray(a[::-1].copy())
np._core.sync()
_ranks.comm_stats(True)
# 7 frames: the float32 frames split at the middle of frame 3 (two tiles a
# frame, 7 + 7 tiles), the bool ones after frame 3 (2 + 2 + 2 + 1 frames a
# tile: the leading axis in a multiple of the ranks' pieces, store.c), so
# bool tile 1 straddles the ranks' float32 frames
got = x >= y
np._core.sync()
s = _ranks.comm_stats(True)
ok = (numpy.asarray(got) == (a >= a[::-1])).all()
with open(sys.argv[1] + f'.rank{np.rank()}', 'w') as f:
    print(np.rank(), s['recv_bytes'], int(ok), file=f)
"""


def test_bool_result_straddling_the_ranks(tmp_path):
    """On 2 ranks a bool result whose tile straddles the ranks' float32
    frames is right. (It is computed at the bool tile's owner, with the
    float32 inputs it lacks moved in; with 8 frames, before the tilings of
    the leading axis took a multiple of the ranks, 8.65 MB; a rule that put the task where most
    of its bytes are moved a quarter of that, but broke writes through
    transposed out= views on ranks, so it was taken back.)"""
    sys.path.insert(0, str(os.path.join(os.path.dirname(__file__), "..", "mpi")))
    from launch import mpirun_command
    import pytest
    if mpirun_command(2) is None:
        pytest.skip("no mpirun")
    (tmp_path / "s.py").write_text(RANKS)
    env = {k: v for k, v in os.environ.items() if not k.startswith("NDTILE_")}
    out = tmp_path / "out"
    r = subprocess.run([sys.executable, "-m", "ndtile", "--ranks", "2", "--cpus", "2",
                        str(tmp_path / "s.py"), str(out)], env=env, capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    rows = [open(f"{out}.rank{k}").read().split() for k in (0, 1)]
    assert all(row[2] == "1" for row in rows)
    assert sum(int(row[1]) for row in rows) > 0, rows   # the ranks did exchange tiles


def run_trace_events(code, tmp_path):
    """As run_default, but the task events themselves (with their args)."""
    trace = tmp_path / "trace.json"
    env = {k: v for k, v in os.environ.items() if not k.startswith("NDTILE_")}
    env["NDTILE_PROFILE"] = str(trace)
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    return [e for e in json.load(open(trace))["traceEvents"] if e.get("ph") == "X"]


FLAT_CODE = """
    import numpy
    import ndtile as np
    assert np._core.tile_bytes() == 2 << 20
    rng = numpy.random.default_rng(1)
    # the X-ray job's radial profile: one bincount over the flat view of a
    # batch of frames (int64 index, float32 weights of whole photons)
    idx = rng.integers(0, 5000, size=(3, 704, 768))
    w = rng.poisson(0.3, size=(3, 704, 768)).astype(numpy.float32)
    x, y = np.asarray(idx), np.asarray(w)
    got = np.bincount(x.ravel(), weights=y.ravel(), minlength=5000)
    assert (numpy.asarray(got) == numpy.bincount(idx.ravel(), w.ravel(), 5000)).all()
    got = np.bincount(x.ravel())
    assert (numpy.asarray(got) == numpy.bincount(idx.ravel())).all()
    v = rng.random((3, 704, 768))
    h, e = np.histogram(np.asarray(v), bins=50, range=(0, 1), weights=y)
    hn, en = numpy.histogram(v, bins=50, range=(0, 1), weights=w)
    assert (numpy.asarray(h) == hn).all()
    edges = numpy.linspace(0, 1, 33)
    s = np.searchsorted(np.asarray(edges), np.asarray(v))
    assert (numpy.asarray(s) == numpy.searchsorted(edges, v)).all()
"""


def test_flat_views_of_frames_read_in_place(tmp_path):
    """bincount, histogram and searchsorted cut the flat view of an N-d
    array into 1-d blocks whose ends are not its tiles' ends (a 704x768
    int64 frame is 2.06 tiles): each block is read tile by tile in place
    (a walked operand), where before it was gathered into scratch (1-2 MB
    copied per block, 35 MB per batch of 8 frames in the X-ray job)."""
    ev = run_trace_events(FLAT_CODE, tmp_path)
    names = {"bincount", "range", "histogram", "searchsorted"}
    ran = [e for e in ev if e["name"] in names]
    assert {e["name"] for e in ran} == names, sorted({e["name"] for e in ev})
    gathered = {e["name"]: 0 for e in ran}
    for e in ran:
        gathered[e["name"]] += e["args"]["gathered"]
    assert gathered == {n: 0 for n in names}, gathered


def test_bincount_with_minlength_reads_its_index_once(tmp_path):
    """minlength covering every index (the X-ray job's radial profiles): the
    count tasks find the bounds as they count, so no separate bounds pass
    ('range' tasks) reads the index array first; an index past minlength
    costs a second count, with the same values."""
    ev = run_trace_events("""
        import numpy
        import ndtile as np
        idx = numpy.random.default_rng(2).integers(0, 5000, size=(3, 704, 768))
        w = (numpy.arange(idx.size) % 5).astype(numpy.float32).reshape(idx.shape)
        x, y = np.asarray(idx), np.asarray(w)
        got = np.bincount(x.ravel(), weights=y.ravel(), minlength=5000)
        assert (numpy.asarray(got) == numpy.bincount(idx.ravel(), w.ravel(), 5000)).all()
        np._core.sync()
        np.negative(np.ones(3, dtype=np.int8))      # a marker in the trace
        got = np.bincount(x.ravel(), weights=y.ravel(), minlength=4000)
        assert (numpy.asarray(got) == numpy.bincount(idx.ravel(), w.ravel(), 4000)).all()
    """, tmp_path)
    mark = [i for i, e in enumerate(ev) if e["name"] == "negative"][0]
    first, second = ev[:mark], ev[mark:]
    blocks = sum(e["name"] == "bincount" for e in first) - 1    # and the combining task
    assert blocks > 1 and not any(e["name"] == "range" for e in first)
    # too small a minlength: the first count is redone into max + 1 bins
    assert sum(e["name"] == "bincount" for e in second) == 2 * blocks + 1
