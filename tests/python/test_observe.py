"""Seeing what ndtile does (issue 17 item 5): show_config() and
memory_stats() from the C side, NDTILE_FALLBACK=summary at exit, the
progress line of a long wait (on a terminal only), the Chrome trace with
bytes and tiles per event. Runs that need their own settings run in a child
process without the suite's NDTILE_* variables."""
import gc
import json
import os
import pty
import subprocess
import sys
import textwrap

import numpy
import pytest

import ndtile
from ndtile import _core, _fallback

pytestmark = pytest.mark.skipif(ndtile.nranks() > 1, reason="starts its own processes")


def clean_env(**extra):
    env = {k: v for k, v in os.environ.items() if not k.startswith("NDTILE_")}
    env.update(extra)
    return env


def child(code, timeout=120, **env):
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=clean_env(**env),
                          capture_output=True, text=True, timeout=timeout)


# --- show_config ------------------------------------------------------------

def test_show_config_dicts_is_ndtiles_build():
    d = ndtile.show_config(mode="dicts")
    assert "ndtile" in d and "ndtile" not in numpy.show_config(mode="dicts")   # was NumPy's
    assert d["ndtile"]["version"] == ndtile.__version__
    deps = d["Build Dependencies"]
    assert "OpenBLAS" in deps["blas"]["openblas configuration"]
    assert os.path.exists(deps["blas"]["library"])
    assert deps["blas"]["found"].startswith(("scipy-openblas32", "system OpenBLAS"))
    assert deps["sleef"]["version"].count(".") == 2
    assert deps["mpi"]["ranks"] == ndtile.nranks() and deps["mpi"]["rank"] == ndtile.rank()
    assert isinstance(deps["mpi"]["built"], bool)
    if deps["mpi"]["built"]:
        assert deps["mpi"]["library"]           # the library's own version line
    assert deps["cuda"]["plugin"] in ("not built", "loaded", "not built or not loaded")
    simd = d["SIMD"]
    assert simd["name"] == ["scalar", "SSE2", "AVX2+FMA", "AVX-512F"][simd["level"]]
    rt = d["Runtime"]
    assert rt["tile bytes"] == _core.tile_bytes()
    assert rt["workers"] == _core.workers() == ndtile.settings()["NDTILE_WORKERS"]
    assert rt["inline elements"] == ndtile.settings()["NDTILE_INLINE_ELEMS"]
    assert rt["processors"][0] == "cpu" and rt["memories"][0] == "host"


def test_show_config_prints(capsys):
    assert ndtile.show_config() is None
    out = capsys.readouterr().out
    d = ndtile.show_config(mode="dicts")
    assert "Build Dependencies:" in out and "  blas:" in out
    assert f"tile bytes: {d['Runtime']['tile bytes']}" in out
    assert f"name: {d['SIMD']['name']}" in out
    assert "cuda:\n    plugin: " in out
    with pytest.raises(AttributeError, match="Invalid `mode`"):
        ndtile.show_config(mode="yaml")


def test_show_config_default_settings():
    r = child("""
        import ndtile
        d = ndtile.show_config(mode='dicts')['Runtime']
        print(d['tile bytes'], d['inline elements'], d['workers'])
    """, NDTILE_WORKERS="3", NDTILE_TILE_BYTES="1M")
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == [str(1 << 20), "32768", "3"]


def test_show_config_simdev():
    r = child("""
        import ndtile
        d = ndtile.show_config(mode='dicts')
        print(d['Runtime']['processors'], d['Runtime']['memories'])
        m = ndtile.memory_stats()
        a = ndtile.ones(1 << 20) + 1
        ndtile.sync()
        m2 = ndtile.memory_stats()
        dev = m2['simulated device']
        print(dev['capacity'], dev['in_use'] >= 8 << 20, dev['peak'] >= dev['in_use'])
    """, NDTILE_SIMDEVICE="1", NDTILE_SIMDEVICE_BYTES="64M")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "['cpu', 'simdev'] ['host', 'simulated device']"
    assert lines[1] == f"{64 << 20} True True"


# --- memory_stats -----------------------------------------------------------

def test_memory_stats_follow_an_array():
    ndtile.sync()
    gc.collect()
    before = ndtile.memory_stats()["host"]
    for k in ("in_use", "peak", "cached", "reserved", "capacity"):
        assert before[k] >= 0
    n = 1 << 20
    a = ndtile.ones(n)          # 8 MiB of float64: tiles of 4096 bytes here
    ndtile.sync()
    mid = ndtile.memory_stats()["host"]
    assert mid["in_use"] - before["in_use"] >= a.nbytes
    assert mid["reserved"] - before["reserved"] == a.nbytes
    assert mid["peak"] >= mid["in_use"]
    assert mid["peak_with_cache"] >= mid["peak"]
    del a
    gc.collect()
    ndtile.sync()
    after = ndtile.memory_stats()["host"]
    assert after["in_use"] <= before["in_use"]
    assert after["reserved"] == before["reserved"]
    assert after["peak"] >= mid["in_use"]           # the high-water mark stays


def test_memory_stats_default_tiles_and_cache():
    # 2 MiB tiles: freed tile buffers go to the cache (up to the peak)
    r = child("""
        import gc, json, ndtile as np
        m0 = np.memory_stats()['host']
        a = np.ones(1 << 21)                # 16 MiB: 8 tiles
        b = a + 1
        np.sync()
        m1 = np.memory_stats()['host']
        del a, b
        gc.collect(); np.sync()
        m2 = np.memory_stats()['host']
        print(json.dumps([m0, m1, m2]))
    """)
    assert r.returncode == 0, r.stderr
    m0, m1, m2 = json.loads(r.stdout)
    assert m1["in_use"] - m0["in_use"] >= 2 * (16 << 20)
    assert m2["in_use"] <= m0["in_use"] + (1 << 20)
    assert m2["cached"] > 0 and m2["in_use"] + m2["cached"] <= m2["peak"]


# --- NDTILE_FALLBACK=summary --------------------------------------------------

SUMMARY_CODE = """
    import warnings
    import ndtile as np
    a = np.arange(12.0).reshape(3, 4)
    for _ in range(3):
        np.kaiser(4, 2.0)
    np.i0(a)
    print('done', len(np._fallback.counts()))
"""


def test_fallback_summary_at_exit():
    r = child(SUMMARY_CODE, NDTILE_FALLBACK="summary")
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["done", str(len(_fallback_names(r.stderr)))]
    assert "RuntimeWarning" not in r.stderr            # silent while running
    lines = r.stderr.splitlines()
    head = [i for i, line in enumerate(lines) if "fell back" in line]
    assert len(head) == 1, r.stderr
    rows = {line.split()[0]: line for line in lines[head[0] + 1:]}
    assert "3 calls" in rows["kaiser"] and "first at <string>:6" in rows["kaiser"]
    assert "1 call " in rows["i0"] + " "
    assert "(4 calls)" in lines[head[0]]


def _fallback_names(stderr):
    lines = stderr.splitlines()
    i = [k for k, line in enumerate(lines) if "fell back" in line][0]
    return [line.split()[0] for line in lines[i + 1:] if line.startswith("  ")]


def test_fallback_summary_none_and_other_modes():
    r = child("import ndtile as np; print(float(np.ones(3).sum()))", NDTILE_FALLBACK="summary")
    assert r.returncode == 0, r.stderr
    assert "no NumPy function fell back" in r.stderr
    r = child(SUMMARY_CODE, NDTILE_FALLBACK="warn")          # the default: warns, no summary
    assert r.returncode == 0, r.stderr
    assert "RuntimeWarning: ndtile does not implement kaiser" in r.stderr
    assert "fell back" not in r.stderr
    r = child(SUMMARY_CODE, NDTILE_FALLBACK="off")            # an alias of ignore
    assert r.returncode == 0 and r.stderr == "", r.stderr
    r = child(SUMMARY_CODE, NDTILE_FALLBACK="error")
    assert r.returncode != 0 and "NotImplementedError" in r.stderr


def test_fallback_setting_errors():
    r = child("import ndtile", NDTILE_FALLBACK="sumary")
    assert r.returncode != 0
    assert ("ValueError: NDTILE_FALLBACK=sumary is not one of the accepted words: warn, "
            "ignore, error, summary") in r.stderr
    with pytest.raises(ValueError, match="NDTILE_FALLBACK=loud is not one of"):
        _core.parse_setting("NDTILE_FALLBACK", "loud")
    assert _core.parse_setting("NDTILE_FALLBACK", "Summary") == 3
    assert ndtile.settings()["NDTILE_FALLBACK"] in ("warn", "error", "ignore", "summary")


def test_fallback_policy_follows_the_environment(monkeypatch):
    monkeypatch.setenv("NDTILE_FALLBACK", "summary")
    assert _fallback.policy() == "summary"
    monkeypatch.setenv("NDTILE_FALLBACK", "quiet")
    assert _fallback.policy() == "ignore"
    monkeypatch.setenv("NDTILE_FALLBACK", "nope")
    with pytest.raises(ValueError, match="NDTILE_FALLBACK=nope"):
        _fallback.policy()
    monkeypatch.delenv("NDTILE_FALLBACK")
    assert _fallback.policy() == "warn"


# --- the progress line --------------------------------------------------------

PROGRESS_CODE = """
    import time
    import ndtile as np
    # one worker, sized to last about SECONDS s on this machine: a 1000 x
    # 1000 product first, then n x n with n^3 scaled up from it
    a = np.ones((1000, 1000))
    t = time.perf_counter()
    float((a @ a)[0, 0])
    n = int(1000 * min(216.0, max(1.0, SECONDS / (time.perf_counter() - t))) ** (1 / 3))
    a = np.ones((n, n))
    c = a @ a                   # recorded at once (no look-ahead bound)
    np.sync()
    print('ok', float(c[0, 0]) == n)
"""


LONG = dict(NDTILE_WORKERS="1", NDTILE_MAX_PENDING="1M", NDTILE_MAX_PENDING_BYTES="100G")


def run_on_terminal(code, **env):
    """(stdout, what the child wrote to its stderr, a terminal)."""
    m, s = pty.openpty()
    p = subprocess.Popen([sys.executable, "-c", textwrap.dedent(code)], env=clean_env(**env),
                         stdout=subprocess.PIPE, stderr=s, text=True)
    os.close(s)
    out = p.communicate(timeout=300)[0]
    err = b""
    while True:
        try:
            d = os.read(m, 1 << 16)
        except OSError:
            break
        if not d:
            break
        err += d
    os.close(m)
    assert p.returncode == 0, err
    return out, err.decode()


def test_progress_line_on_a_terminal():
    # the line shows only when the wait lasts over NDTILE_PROGRESS (1 s): the
    # product is sized by a timing, so where a load change made the wait
    # shorter than that, it is sized again for a longer one
    for seconds in (3.0, 10.0, 30.0):
        out, err = run_on_terminal(PROGRESS_CODE.replace("SECONDS", str(seconds)),
                                   NDTILE_PROGRESS="1", **LONG)
        assert out.split() == ["ok", "True"]
        if "tasks done (" in err:
            break
    assert "tasks done (" in err, err
    shown = [s for s in err.split("\r") if s.startswith("ndtile: ")]
    done, total = shown[-1].split()[1], shown[-1].split()[3]
    assert 0 <= int(done) <= int(total)
    assert err.endswith("\r\x1b[K")                   # erased when the wait ends


def test_progress_line_off():
    # NDTILE_PROGRESS=0, or stderr not a terminal: nothing
    out, err = run_on_terminal(PROGRESS_CODE.replace("SECONDS", "3.0"), NDTILE_PROGRESS="0",
                               **LONG)
    assert out.split() == ["ok", "True"] and "tasks done" not in err
    r = child(PROGRESS_CODE.replace("SECONDS", "3.0"), NDTILE_PROGRESS="1", **LONG)
    assert r.returncode == 0 and "tasks done" not in r.stderr, r.stderr


def test_progress_setting():
    r = child("import ndtile; print(ndtile.settings()['NDTILE_PROGRESS'])")
    assert r.stdout.strip() == "2"
    r = child("import ndtile", NDTILE_PROGRESS="soon")
    assert "ValueError: NDTILE_PROGRESS=soon is not a count" in r.stderr


# --- the trace ------------------------------------------------------------------

def test_trace_events_carry_bytes_and_tiles(tmp_path):
    path = tmp_path / "t.json"
    r = child("""
        import ndtile as np
        a = np.ones((1000, 1000))
        b = (a * 2 + 1).sum(axis=0)
        print(float(b[0]))
    """, NDTILE_PROFILE=str(path))
    assert r.returncode == 0, r.stderr
    trace = json.loads(path.read_text())
    assert trace["otherData"]["rank"] == 0 and trace["otherData"]["ranks"] == 1
    ev = trace["traceEvents"]
    assert {e["pid"] for e in ev} == {0}
    tasks = [e for e in ev if e["ph"] == "X" and e["cat"] in ("task", "inline")]
    assert tasks
    for e in tasks:
        assert e["args"]["bytes"] > 0 and e["args"]["tiles"] >= 1 and e["dur"] >= 0
    sums = [e for e in tasks if e["name"] == "sum"]
    # the sum reads 8 MB in tiles of 2 MiB
    assert sum(e["args"]["bytes"] for e in sums) >= 8_000_000
    assert max(e["args"]["tiles"] for e in sums) >= 2
    meta = {e["name"] for e in ev if e["ph"] == "M"}
    assert {"process_name", "thread_name"} <= meta
    threads = {e["tid"]: e["args"]["name"] for e in ev if e["name"] == "thread_name"}
    assert threads[0] == "caller"
    assert all(threads.get(e["tid"], "").startswith(("worker", "caller")) for e in tasks)
    # the CPU alone: no processor named (the trace is as it was before devices)
    assert all("proc" not in e["args"] and "kind" not in e["args"] for e in tasks)


def test_trace_gather_tasks_read_only_the_tiles_their_block_reaches(tmp_path):
    """take, take_along_axis and a[:, idx] along one axis: each gather task
    reads the source tiles its block of the result reaches, not the whole
    source (which made them cost output tiles x source tiles: 700 source
    tiles per task here)."""
    path = tmp_path / "t.json"
    r = child("""
        import numpy
        import ndtile as np
        a = np.zeros((11, 12, 9, 1, 300))
        s = np.argsort(np.asarray(numpy.random.default_rng(0).random((40, 2000))), axis=1)
        b = np.asarray(numpy.random.default_rng(1).random((40, 2000)))
        c = np.asarray(numpy.random.default_rng(2).random((2000, 40)))
        print(float(np.take(a, [0, 0, 0], axis=3).sum()),
              float(np.take_along_axis(b, s, axis=1).sum()) > 0,
              float(c[:, np.asarray([5, 39, 0])].sum()) > 0)
    """, NDTILE_PROFILE=str(path), NDTILE_TILE_BYTES="4096")
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["0.0", "True", "True"]
    tasks = [e for e in json.loads(path.read_text())["traceEvents"]
             if e["ph"] == "X" and e["cat"] in ("task", "inline") and e["name"] == "gather"]
    assert len(tasks) > 100
    # its block's rows of the source, the result block, the index blocks
    assert max(e["args"]["tiles"] for e in tasks) <= 24, \
        sorted(e["args"]["tiles"] for e in tasks)[-5:]


def test_trace_strided_view_tasks_name_only_the_tiles_they_touch(tmp_path):
    """A task on a block of a transposed view names the tiles that hold its
    elements, not every tile of the view's extent: a.T.copy() of a
    (7, 57142) array in 4 KiB tiles (784 tiles) made each copy task name
    all 784 (tasks x tiles accesses: 6 s with devices), and tasks on
    disjoint tiles waited for each other."""
    path = tmp_path / "t.json"
    r = child("""
        import numpy
        import ndtile as np
        n = numpy.arange(7 * 57142, dtype=numpy.float64).reshape(7, 57142)
        a = np.asarray(n)
        b = a.T.copy()
        print(bool((numpy.asarray(b) == n.T).all()))
    """, NDTILE_PROFILE=str(path), NDTILE_TILE_BYTES="4096")
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["True"]
    tasks = [e for e in json.loads(path.read_text())["traceEvents"]
             if e["ph"] == "X" and e["cat"] in ("task", "inline") and e["name"] == "copy"]
    # a task a tile of the result (its rows cross the input's tiles with
    # an element in each: one task reading them, not one per row)
    assert len(tasks) >= 783
    # a block of the result and the 7 rows it reads (a tile or two each)
    assert max(e["args"]["tiles"] for e in tasks) <= 24, \
        sorted(e["args"]["tiles"] for e in tasks)[-5:]
    assert sum(e["args"]["tiles"] for e in tasks) <= 16 * len(tasks)


def test_trace_names_the_processor_and_kind_with_devices(tmp_path):
    """With devices, each task event says where it ran ("proc") and its task
    kind ("kind"): the fused chain and the sum on the simulated devices, the
    copies on the CPU. A device too small for a tile sends the tasks
    to the CPU (planned fallbacks), and the trace says so."""
    path = tmp_path / "t.json"
    code = """
        import ndtile as np
        a = np.ones((1000, 1000))
        b = (a * 2 + 1).sum(axis=0)
        print(float(b[0]))
    """
    r = child(code, NDTILE_PROFILE=str(path), NDTILE_DEVICES="sim:2,mem=64M")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "3000.0"
    tasks = [e for e in json.loads(path.read_text())["traceEvents"]
             if e["ph"] == "X" and e["cat"] in ("task", "inline")]
    assert all(e["args"]["proc"] in ("cpu", "simdev", "simdev1") for e in tasks)
    where = {(e["args"]["kind"], e["args"]["proc"]) for e in tasks}
    # (the sum over axis 0 of a C array folds straight into the result)
    assert ("fused elementwise", "simdev") in where and ("fused elementwise", "simdev1") in where
    assert {k for k, p in where if p != "cpu"} == {"fused elementwise", "reduce combine"}, where
    assert {p for k, p in where if k.startswith("copy")} == {"cpu"}, where
    # a device below one tile: every task on the CPU
    r = child(code, NDTILE_PROFILE=str(path), NDTILE_DEVICES="sim:1,mem=64k")
    assert r.returncode == 0 and r.stdout.strip() == "3000.0", r.stderr
    tasks = [e for e in json.loads(path.read_text())["traceEvents"]
             if e["ph"] == "X" and e["cat"] in ("task", "inline")]
    assert tasks and {e["args"]["proc"] for e in tasks} == {"cpu"}
    assert {"reduce combine", "fused elementwise"} <= {e["args"]["kind"] for e in tasks}


def test_trace_gathers_read_between_their_blocks_least_and_greatest_index(tmp_path):
    """take with mode='wrap' and 'clip', take_along_axis, median (its
    gather of the selected elements), isin's sorted lookup and reduceat's rows:
    the core finds each block's least and greatest index, and
    each gather task reads the source tiles between them: a few, where the
    bounds of the whole index array (or the axis) made every task read the
    whole axis (390 tiles of a, 196 a row of b, 98 of isin's sorted table)."""
    path = tmp_path / "t.json"
    r = child("""
        import numpy
        import ndtile as np
        n = 20000
        an = numpy.arange(n * 10.0).reshape(n, 10)                # 80-byte rows: 51 a tile
        a = np.asarray(an)
        bn = numpy.random.default_rng(0).random((4, 100000))     # 196 tiles a row
        b = np.asarray(bn)
        s = numpy.broadcast_to(numpy.arange(100000) ^ 1, (4, 100000)).copy()  # neighbours
        en, tn = numpy.arange(50000) // 2, numpy.arange(0, 100000, 2)
        i = numpy.arange(n) + n
        c = numpy.arange(-5, n - 5)
        checks = [
            (np.take(a, np.asarray(i), axis=0, mode='wrap'), numpy.take(an, i, axis=0, mode='wrap')),
            (np.take(a, np.asarray(c), axis=0, mode='clip'), numpy.take(an, c, axis=0, mode='clip')),
            (np.take_along_axis(b, np.asarray(s), axis=1), numpy.take_along_axis(bn, s, axis=1)),
            (np.median(a, axis=1), numpy.median(an, axis=1)),
            (np.isin(np.asarray(en), np.asarray(tn), kind='sort'), numpy.isin(en, tn, kind='sort')),
            (np.add.reduceat(a, [0, 5, 3, 9], axis=1), numpy.add.reduceat(an, [0, 5, 3, 9], axis=1)),
        ]
        print(all(numpy.array_equal(numpy.asarray(x), y) for x, y in checks))
    """, NDTILE_PROFILE=str(path), NDTILE_TILE_BYTES="4096")
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["True"]
    tasks = [e for e in json.loads(path.read_text())["traceEvents"]
             if e["ph"] == "X" and e["cat"] in ("task", "inline") and e["name"] == "gather"]
    assert len(tasks) > 300
    # the source tiles between the block's bounds, the result block, the
    # index blocks
    assert max(e["args"]["tiles"] for e in tasks) <= 24, \
        sorted(e["args"]["tiles"] for e in tasks)[-5:]
