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
