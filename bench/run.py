#!/usr/bin/env python3
"""ndtile's benchmark suite against NumPy, numexpr and cuPyNumeric.

    python3 bench/run.py [--quick] [--only a,b] [--libs numpy,ndtile,numexpr,cupynumeric]
                         [--repeat N] [--budget S] [--timeout S] [--slow-factor F]
                         [--min-timeout S] [--json PATH] [--strict] [--cupynumeric PYTHON]

Every workload in bench/workloads/ is one plain NumPy program.  For each
library it runs in a fresh subprocess (so the peak RSS belongs to that
library alone): inputs are made untimed, then one warm-up run and up to
--repeat timed runs (fewer when runs are slow, see --budget); the median is
reported.  Results are checked against NumPy's with the workload's tolerance.
Prints one table and writes bench/results.json (see bench/README.md).
"""
from __future__ import annotations

import argparse
import datetime
import importlib
import json
import math
import os
import platform
import re
import resource
import statistics
import signal
import subprocess
import sys
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
WORKLOADS_DIR = HERE / "workloads"
REPO = HERE.parent

# Table order; any other workload file found in bench/workloads/ comes after.
ORDER = ["blackscholes_f32", "blackscholes_f64", "chain", "transcendental", "jacobi", "cg",
         "kmeans", "logreg", "matmul", "reductions", "small_loop", "small_ops", "xray", "stats", "linalg",
         "histogram", "fft", "sort_search", "lexsort_few", "lexsort_many", "random_draws",
         "scan_join", "running_max"]
ALL_LIBS = ["numpy", "ndtile", "numexpr", "cupynumeric"]
SHORT = {"numpy": "np", "ndtile": "nd", "numexpr": "ne", "cupynumeric": "cpn"}
# Results bigger than this many elements are forced with the library's sync()
# (no host copy); smaller ones are converted with numpy.asarray in the timed
# region.  See force().
SMALL = 1 << 16


# =============================================================================
# child side: one workload on one library
# =============================================================================

def _status_kib(field: str) -> int | None:
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def load_lib(name: str):
    import numpy
    if name in ("numpy", "numexpr"):     # numexpr kernels take NumPy inputs
        if name == "numexpr":
            import numexpr  # noqa: F401
        return numpy
    if name == "ndtile":
        import ndtile
        return ndtile
    if name == "cupynumeric":
        import cupynumeric
        return cupynumeric
    raise ValueError(f"unknown library {name!r}")


def lib_version(name: str) -> str:
    mod = importlib.import_module(name)
    return str(getattr(mod, "__version__", "?"))


def _leaves(obj):
    if isinstance(obj, dict):
        for v in obj.values():
            yield from _leaves(v)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            yield from _leaves(v)
    else:
        yield obj


def _wait_all(name: str, lib):
    """Wait for all outstanding work of a lazy/asynchronous library."""
    if hasattr(lib, "sync"):                       # ndtile
        lib.sync()
        return True
    if name == "cupynumeric":
        try:
            from legate.core import get_legate_runtime
            get_legate_runtime().issue_execution_fence(block=True)
            return True
        except Exception:  # noqa: BLE001
            return False
    return False


def force(name: str, lib, out):
    """Make sure the work that produced `out` is really done (inside the timed
    region).  Small arrays are converted with numpy.asarray; large ones are
    waited for with the library's sync() when it has one (so NumPy does not
    get charged for nothing while ndtile pays a host copy), else converted."""
    import numpy
    large = []
    for leaf in _leaves(out):
        if isinstance(leaf, (numpy.ndarray, numpy.generic, int, float, bool, str, type(None))):
            continue
        size = getattr(leaf, "size", 0)
        if size <= SMALL:
            numpy.asarray(leaf)
        else:
            large.append(leaf)
    if large and not _wait_all(name, lib):
        for leaf in large:
            numpy.asarray(leaf)


def to_jsonable(obj):
    """Summaries (dicts of scalars and small arrays) as JSON, arrays tagged."""
    import numpy
    if isinstance(obj, dict):
        return {str(k): to_jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [to_jsonable(v) for v in obj]
    if isinstance(obj, numpy.generic):
        obj = obj.item()
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else repr(obj)
    if isinstance(obj, (int, bool, str)) or obj is None:
        return obj
    a = numpy.asarray(obj)
    vals = a.tolist()
    if a.dtype.kind == "f":
        vals = [v if math.isfinite(v) else repr(v) for v in a.ravel().tolist()]
    return {"__array__": vals, "dtype": a.dtype.str, "shape": list(a.shape)}


def child(args) -> dict:
    """Runs in the subprocess; returns the record written to --result."""
    import numpy
    rec = {"workload": args.child, "lib": args.lib, "mode": args.mode}
    t0 = time.perf_counter()
    lib = load_lib(args.lib)
    rec["version"] = lib_version(args.lib)
    rec["import_s"] = time.perf_counter() - t0
    rec["rss_after_import_kib"] = _status_kib("VmRSS")

    sys.path.insert(0, str(WORKLOADS_DIR))
    w = importlib.import_module(args.child)
    if hasattr(w, "available"):
        ok, why = w.available()
        if not ok:
            rec["skipped"] = why
            return rec
    size = w.SIZES[args.mode]
    rec["size"] = size

    t0 = time.perf_counter()
    inputs = w.setup(lib, size)
    force(args.lib, lib, inputs)
    rec["setup_s"] = time.perf_counter() - t0
    rec["rss_after_setup_kib"] = _status_kib("VmRSS")

    if args.lib == "numexpr":
        def once():
            return w.kernel_numexpr(*inputs)
    else:
        def once():
            return w.kernel(lib, *inputs)

    def timed():
        t = time.perf_counter()
        out = once()
        force(args.lib, lib, out)
        return time.perf_counter() - t, out

    warm, out = timed()
    rec["warmup_s"] = warm
    # Up to --repeat timed runs, stopping early once the next one would take
    # the timed total past --budget (the warm-up, often slower because of page
    # faults, does not count).  Always at least one.
    times = []
    while len(times) < args.repeat and (not times or sum(times) + times[-1] <= args.budget):
        dt, out = timed()
        times.append(dt)
    rec["times_s"] = times
    rec["median_s"] = statistics.median(times)
    rec["min_s"] = min(times)

    # Not timed: how long handing the last result to host NumPy takes (a
    # check that force() really waited: a lazy result would show up here).
    t = time.perf_counter()
    host = [numpy.asarray(x) for x in _leaves(out)
            if not isinstance(x, (int, float, bool, str, type(None)))]
    rec["to_host_s"] = time.perf_counter() - t
    del host
    rec["summary"] = to_jsonable(w.summarize(out))
    rec["peak_rss_kib"] = _status_kib("VmHWM") or resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rec


def child_main(args):
    import warnings
    try:
        # Record warnings (ndtile's "does not implement X; running NumPy's
        # version" fallbacks above all) instead of printing them.
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("default")
            rec = child(args)
        seen = []
        for w in caught:
            text = f"{w.category.__name__}: {w.message}"
            if text not in seen:
                seen.append(text)
        if seen:
            rec["warnings"] = [t[:300] for t in seen[:20]]
    except BaseException as exc:  # noqa: BLE001 - report anything to the parent
        rec = {"workload": args.child, "lib": args.lib, "mode": args.mode,
               "error": f"{type(exc).__name__}: {exc}"[:500],
               "traceback": traceback.format_exc()[-4000:]}
    with open(args.result, "w") as f:
        json.dump(rec, f)


# =============================================================================
# parent side
# =============================================================================

def from_jsonable(obj):
    import numpy
    if isinstance(obj, dict):
        if "__array__" in obj:
            dt = numpy.dtype(obj["dtype"])
            vals = obj["__array__"]
            if dt.kind == "f":
                vals = [float(v) for v in vals]
            return numpy.asarray(vals, dtype=dt).reshape(obj["shape"])
        return {k: from_jsonable(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [from_jsonable(v) for v in obj]
    if isinstance(obj, str) and obj in ("nan", "inf", "-inf"):
        return float(obj)
    return obj


def compare(ref, got, rtol, atol, path="result"):
    """None when `got` matches `ref`, else a short description of the first
    difference.  Integers (and integer arrays) must match exactly."""
    import numpy
    if isinstance(ref, dict):
        if not isinstance(got, dict) or set(ref) != set(got):
            return f"{path}: keys differ"
        for k in ref:
            d = compare(ref[k], got[k], rtol, atol, f"{path}.{k}")
            if d:
                return d
        return None
    if isinstance(ref, list):
        if not isinstance(got, list) or len(ref) != len(got):
            return f"{path}: lengths differ"
        for i, (r, g) in enumerate(zip(ref, got)):
            d = compare(r, g, rtol, atol, f"{path}[{i}]")
            if d:
                return d
        return None
    r, g = numpy.asarray(ref), numpy.asarray(got)
    if r.shape != g.shape:
        return f"{path}: shape {g.shape} != {r.shape}"
    if r.dtype.kind in "iub" and g.dtype.kind in "iub":
        if not numpy.array_equal(r, g):
            bad = numpy.flatnonzero(r.ravel() != g.ravel())
            return f"{path}: {len(bad)} integer values differ (first at {bad[0]})"
        return None
    try:
        ok = numpy.allclose(g.astype(float), r.astype(float), rtol=rtol, atol=atol, equal_nan=True)
    except (TypeError, ValueError):
        ok = numpy.array_equal(r, g)
    if not ok:
        err = numpy.max(numpy.abs(g.astype(float) - r.astype(float)))
        return f"{path}: max abs diff {err:.3g} (rtol {rtol:g}, atol {atol:g})"
    return None


def workload_names(only: str | None) -> list[str]:
    found = sorted(p.stem for p in WORKLOADS_DIR.glob("*.py") if not p.stem.startswith("_"))
    names = [n for n in ORDER if n in found] + [n for n in found if n not in ORDER]
    if only:
        want = [s.strip() for s in only.split(",") if s.strip()]
        unknown = [s for s in want if s not in found]
        if unknown:
            raise SystemExit(f"unknown workload(s): {', '.join(unknown)}; "
                             f"have: {', '.join(names)}")
        names = [n for n in names if n in want]
    return names


def machine_info() -> dict:
    info = {"date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
            "hostname": platform.node(), "platform": platform.platform(),
            "python": platform.python_version(), "cores": os.cpu_count()}
    try:
        info["cores_available"] = len(os.sched_getaffinity(0))
    except AttributeError:
        pass
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    info["cpu"] = line.split(":", 1)[1].strip()
                    break
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal"):
                    info["memory_gib"] = round(int(line.split()[1]) / 2**20, 1)
                    break
    except OSError:
        pass
    info.setdefault("cpu", platform.processor() or "?")
    for lib in ("numpy", "numexpr"):
        try:
            info[f"{lib}_version"] = importlib.import_module(lib).__version__
        except ImportError:
            pass
    try:
        info["load_average_at_start"] = [round(x, 2) for x in os.getloadavg()]
    except OSError:
        pass
    try:
        info["git_commit"] = subprocess.run(
            ["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], capture_output=True,
            text=True, timeout=10).stdout.strip() or None
    except (OSError, subprocess.SubprocessError):
        pass
    return info


def probe_import(python: list[str], module: str, env=None, timeout=120) -> tuple[bool, str]:
    """Can `module` be imported (and run a tiny op) by this interpreter command?"""
    code = (f"import {module} as m, numpy\n"
            "a = m.arange(10.0)\n"
            "assert float((a * a).sum()) == 285.0\n"
            "print(getattr(m, '__version__', '?'))\n")
    try:
        p = subprocess.run(python + ["-c", code], capture_output=True, text=True,
                           timeout=timeout, env=env, cwd=str(REPO))
    except subprocess.TimeoutExpired:
        return False, f"import {module} timed out after {timeout} s"
    except OSError as exc:
        return False, str(exc)
    if p.returncode != 0:
        lines = [ln for ln in (p.stderr + p.stdout).strip().splitlines() if ln.strip()]
        return False, (lines[-1] if lines else f"exit status {p.returncode}")[:300]
    return True, p.stdout.strip()


class Cupynumeric:
    """How to launch a cuPyNumeric child: the `legate` launcher of the Python
    environment that has it (it is not installed into the main one: its wheel
    pulls in the CUDA stack).  Probed once; see bench/README.md."""

    def __init__(self, python: str | None, cpus: int):
        self.python = python
        self.cpus = cpus
        self.ok, self.reason, self.version = False, "", ""
        if not python:
            self.reason = ("not installed (bash bench/cupynumeric/setup.sh, or set "
                           "CUPYNUMERIC_PYTHON to the python of an environment that has it)")
            return
        venv = Path(python).parent.parent
        bindir = Path(python).parent
        env = dict(os.environ, PATH=f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}")
        env.setdefault("LEGATE_CONFIG", f"--cpus {cpus} --gpus 0 --sysmem 4000")
        shim = venv / "nocuda"
        if (shim / "libcuda.so.1").exists():     # CPU-only machine: see nocuda.c
            env["LD_LIBRARY_PATH"] = os.pathsep.join(
                p for p in (str(shim), os.environ.get("LD_LIBRARY_PATH")) if p)
        self.env = env
        legate = bindir / "legate"
        self.launch = [str(legate)] if legate.exists() else [python]
        ok, msg = probe_import([python], "cupynumeric", env=self.env)
        self.ok = ok
        if ok:
            self.version = msg.splitlines()[-1] if msg else "?"
        else:
            self.reason = f"installed, but does not run here: {msg}"

    def command(self, script_args: list[str]) -> list[str]:
        return self.launch + [str(Path(__file__).resolve())] + script_args


def kill_tree(pid: int) -> None:
    """SIGKILL pid and all its descendants (found through /proc before any
    is killed, since orphans are re-parented), whatever their session."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        children.setdefault(ppid, []).append(int(entry))
    todo, tree = [pid], []
    while todo:
        q = todo.pop()
        tree.append(q)
        todo.extend(children.get(q, []))
    for q in tree:
        try:
            os.kill(q, signal.SIGKILL)
        except OSError:
            pass


def run_child(cmd: list[str], timeout: float, env=None) -> dict:
    import tempfile
    fd, path = tempfile.mkstemp(prefix="ndtile-bench-", suffix=".json")
    os.close(fd)
    try:
        t0 = time.perf_counter()
        # A timeout kills the child and everything it started: a launcher
        # such as legate runs the workload in a grandchild of its own
        # session, which would otherwise keep running (and holding the
        # pipes) and skew every later run.
        child = subprocess.Popen(cmd + ["--result", path], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True, env=env, cwd=str(REPO),
                                 start_new_session=True)
        try:
            out, err = child.communicate(timeout=timeout)
        except BaseException as exc:
            kill_tree(child.pid)
            child.wait()
            for f in (child.stdout, child.stderr):
                f.close()
            if isinstance(exc, subprocess.TimeoutExpired):
                return {"error": f"timed out after {timeout:.0f} s", "timeout": True,
                        "limit_s": timeout}
            raise
        p = subprocess.CompletedProcess(child.args, child.returncode, out, err)
        wall = time.perf_counter() - t0
        try:
            with open(path) as f:
                rec = json.load(f)
        except (OSError, ValueError):
            lines = [ln for ln in (p.stderr or p.stdout).strip().splitlines() if ln.strip()]
            key = [ln for ln in lines if re.search(r"Error|Assertion|error:|Killed", ln)]
            tail = key[-2:] or lines[-3:]
            rec = {"error": f"child exited {p.returncode}: {' | '.join(tail)}"[:500]}
        rec["wall_s"] = wall
        # ru_maxrss of the children so far is a cumulative max; the child's own
        # VmHWM (peak_rss_kib) is the per-run figure.
        if p.stderr.strip():
            rec["stderr_tail"] = p.stderr.strip()[-1500:]
        return rec
    finally:
        try:
            os.unlink(path)
        except OSError:
            pass


def rate_of(w, size, seconds):
    """(value, unit) of the workload's throughput at `seconds` per run, or None."""
    if not seconds:
        return None
    if hasattr(w, "bytes_moved"):
        return w.bytes_moved(size) / seconds / 1e9, "GB/s"
    if hasattr(w, "flops"):
        return w.flops(size) / seconds / 1e9, "GF/s"
    if hasattr(w, "items"):
        return seconds / w.items(size) * 1e6, f"us/{getattr(w, 'ITEM_NAME', 'item')}"
    return None


def fmt_time(s):
    if s is None:
        return "-"
    return f"{s:.4f}" if s < 0.1 else f"{s:.3f}" if s < 10 else f"{s:.1f}"


def fmt_ratio(x):
    return f"{x:.2f}" if x >= 0.1 else f"{x:.3f}" if x >= 0.001 else f"{x:.1e}"


def fmt_rate(r):
    if r is None:
        return "-"
    v, unit = r
    return (f"{v:.1f}" if v >= 10 else f"{v:.2f}") + ("" if unit == "GB/s" else " " + unit)


def status_cell(rec):
    """Short text for a record that has no time."""
    if rec is None:
        return "-"
    if "skipped" in rec:
        return "skipped"
    if rec.get("timeout"):
        return f">{rec.get('limit_s', 0):.0f}s"
    if "error" in rec:
        return "error"
    return "-"


def build_table(rows, libs):
    """rows: per workload dict(name, w, size, recs={lib: rec}, agree={lib: text})."""
    others = [l for l in libs if l != "numpy"]
    head = ["workload", "numpy s"]
    for l in others:
        head += [f"{l} s", f"speedup np/{SHORT[l]}"]
    for l in libs:
        head.append(f"GB/s {SHORT[l]}")
    absolute = [l for l in libs if l in ("numpy", "ndtile")]   # others: ratios only (JSON has all)
    for l in absolute:
        head.append(f"RSS {SHORT[l]} MiB")
    for l in others:
        head.append(f"RSS {SHORT[l]}/np")
    head.append("agree")
    table = [head]
    for row in rows:
        recs, w, size = row["recs"], row["w"], row["size"]
        med = {l: (recs.get(l) or {}).get("median_s") for l in libs}
        line = [row["name"], fmt_time(med["numpy"]) if med.get("numpy") else
                "skipped" if "skipped" in row else status_cell(recs.get("numpy"))]
        for l in others:
            line.append(fmt_time(med[l]) if med[l] else status_cell(recs.get(l)))
            line.append(fmt_ratio(med["numpy"] / med[l]) + "x" if med[l] and med.get("numpy") else "-")
        for l in libs:
            line.append(fmt_rate(rate_of(w, size, med[l])) if w is not None and size is not None else "-")
        rss = {l: (recs.get(l) or {}).get("peak_rss_kib") for l in libs}
        for l in absolute:
            line.append(f"{rss[l] / 1024:.0f}" if rss[l] else "-")
        for l in others:
            line.append(fmt_ratio(rss[l] / rss["numpy"]) if rss[l] and rss.get("numpy") else "-")
        line.append(row["agree_text"])
        table.append(line)
    widths = [max(len(r[i]) for r in table) for i in range(len(head))]
    out = []
    for i, r in enumerate(table):
        cells = [r[0].ljust(widths[0])] + [c.rjust(widths[j + 1]) for j, c in enumerate(r[1:])]
        out.append("  ".join(cells))
        if i == 0:
            out.append("  ".join("-" * w_ for w_ in widths))
    return "\n".join(out)


def parent_main(args):
    names = workload_names(args.only)
    mode = "quick" if args.quick else "full"
    repeat = args.repeat if args.repeat is not None else (3 if args.quick else 5)
    budget = args.budget if args.budget is not None else (1.0 if args.quick else 6.0)
    timeout = args.timeout if args.timeout is not None else (90 if args.quick else 240)
    libs_arg = args.libs or ("numpy,ndtile,numexpr" + (",cupynumeric" if args.cupynumeric else ""))
    requested = [l.strip() for l in libs_arg.split(",") if l.strip()]
    bad = [l for l in requested if l not in ALL_LIBS]
    if bad:
        raise SystemExit(f"unknown lib(s) {bad}; choose from {ALL_LIBS}")
    if "numpy" not in requested:
        requested.insert(0, "numpy")     # the reference for ratios and agreement
    notes = []
    machine = machine_info()
    py = [sys.executable]

    libs, versions = [], {}
    missing = {}
    for lib in requested:
        if lib == "cupynumeric":
            continue
        # numexpr has no arange: a plain import check
        ok, msg = probe_import_plain(py, lib) if lib == "numexpr" else probe_import(py, lib)
        if ok:
            libs.append(lib)
            versions[lib] = msg.splitlines()[-1] if msg else "?"
        else:
            missing[lib] = msg
            notes.append(f"{lib} is missing: {msg} -- its columns are left out.")
    cpn = None
    if "cupynumeric" in requested:
        cpn = Cupynumeric(args.cupynumeric, os.cpu_count() or 1)
        if cpn.ok:
            libs.append("cupynumeric")
            versions["cupynumeric"] = cpn.version
        else:
            missing["cupynumeric"] = cpn.reason
            notes.append(f"cupynumeric: {cpn.reason} -- its column is left out (bench/README.md).")
    if "numpy" not in libs:
        raise SystemExit(f"numpy is not importable: {missing.get('numpy')}")

    print(f"ndtile bench ({mode}): {machine.get('cpu')}, {machine.get('cores')} cores, "
          f"load {machine.get('load_average_at_start')}, {machine['date']}", flush=True)
    print("libs: " + ", ".join(f"{l} {versions[l]}" for l in libs), flush=True)
    for n in notes:
        print("note: " + n, flush=True)

    rows = []
    t_start = time.perf_counter()
    for name in names:
        sys.path.insert(0, str(WORKLOADS_DIR))
        try:
            w = importlib.import_module(name)
            size = w.SIZES[mode]
        except Exception as exc:  # noqa: BLE001
            print(f"  {name}: cannot load the workload file: {exc}", flush=True)
            rows.append({"name": name, "w": None, "size": None, "recs": {},
                         "agree_text": "error", "agree": {}, "description": str(exc)})
            continue
        if hasattr(w, "available"):
            ok, why = w.available()
            if not ok:
                print(f"  {name}: skipped: {why}", flush=True)
                rows.append({"name": name, "w": w, "size": size, "recs": {},
                             "agree_text": "skipped", "agree": {}, "skipped": why,
                             "description": getattr(w, "DESCRIPTION", "")})
                continue
        recs = {}
        for lib in libs:
            if lib == "numexpr" and not hasattr(w, "kernel_numexpr"):
                continue
            script_args = ["--child", name, "--lib", lib, "--mode", mode, "--repeat",
                           str(repeat), "--budget", str(budget)]
            if lib == "cupynumeric":
                cmd, env = cpn.command(script_args), cpn.env
            else:
                cmd, env = py + [str(Path(__file__).resolve())] + script_args, None
            # A library far slower than NumPy is cut off: at most `timeout`,
            # and at most --slow-factor times NumPy's whole child (>= 60 s).
            limit = timeout
            np_wall = recs.get("numpy", {}).get("wall_s")
            if lib != "numpy" and np_wall:
                limit = min(timeout, max(args.min_timeout, args.slow_factor * np_wall))
            rec = run_child(cmd, limit, env)
            recs[lib] = rec
            if "median_s" in rec:
                msg = (f"median {rec['median_s']:.4f} s of {len(rec['times_s'])} "
                       f"(warm-up {rec['warmup_s']:.3f} s), peak RSS {rec['peak_rss_kib'] / 1024:.0f} MiB")
            elif "skipped" in rec:
                msg = f"skipped: {rec['skipped']}"
            else:
                msg = f"FAILED: {rec.get('error')}"
            print(f"  {name:<17} {lib:<11} {msg}", flush=True)
        # agreement with NumPy
        agree, texts = {}, []
        ref = recs.get("numpy", {}).get("summary")
        tol = getattr(w, "TOL", {"rtol": 1e-7, "atol": 0.0})
        for lib, rec in recs.items():
            if lib == "numpy" or "summary" not in rec:
                continue
            if ref is None:
                agree[lib] = "no numpy reference"
                continue
            d = compare(from_jsonable(ref), from_jsonable(rec["summary"]), tol["rtol"], tol["atol"])
            agree[lib] = "yes" if d is None else d
            if d is not None:
                texts.append(f"NO({SHORT[lib]})")
                print(f"  {name:<17} {lib:<11} DISAGREES with numpy: {d}", flush=True)
        if "summary" not in recs.get("numpy", {}):
            agree_text = "-"
        elif any(v != "yes" for v in agree.values()):
            agree_text = " ".join(texts) or "?"
        elif agree:
            agree_text = "yes"
        else:
            agree_text = "-"
        rows.append({"name": name, "w": w, "size": size, "recs": recs, "agree": agree,
                     "agree_text": agree_text, "description": getattr(w, "DESCRIPTION", "")})
    total = time.perf_counter() - t_start

    table = build_table(rows, libs)
    print()
    print(table)
    print()
    print("s = median seconds per run; speedup np/X = NumPy time / X time (>1: X is faster);")
    print("GB/s = compulsory bytes (inputs read once, outputs written once) / median time;")
    print("matmul shows GFLOP/s (GF/s), small_loop microseconds per iteration;")
    print("RSS = peak resident memory of the whole process (VmHWM), X/np = ratio to NumPy's;")
    print("agree = result matches NumPy's within the workload's tolerance.")
    fallbacks = {}
    for row in rows:
        for lib, rec in row["recs"].items():
            for text in rec.get("warnings", []):
                m = re.search(r"does not implement ([\w.]+)", text)
                if m:
                    fallbacks.setdefault(lib, {}).setdefault(row["name"], []).append(m.group(1))
    for n in notes:
        print("note: " + n)
    for lib, per in fallbacks.items():
        where = "; ".join(f"{name} ({', '.join(sorted(set(fns)))})" for name, fns in per.items())
        line = f"{lib} fell back to NumPy on gathered data in: {where}"
        notes.append(line)
        print("note: " + line)
    load = machine.get("load_average_at_start")
    if load and load[0] > 0.5 * (machine.get("cores") or 1):
        line = (f"the machine was busy (load average {load[0]} on {machine.get('cores')} cores "
                "at the start): times are noisy; rerun on an idle machine for real numbers.")
        notes.append(line)
        print("warning: " + line)
    print(f"total {total:.0f} s")

    results = {
        "machine": machine, "mode": mode, "repeat": repeat, "budget_s": budget,
        "libs": libs, "versions": versions, "missing": missing, "notes": notes,
        "total_s": total, "table": table,
        "workloads": [],
    }
    for row in rows:
        entry = {"name": row["name"], "description": row.get("description", ""),
                 "size": row["size"], "agree": row["agree"], "results": {}}
        if "skipped" in row:
            entry["skipped"] = row["skipped"]
        w = row["w"]
        for lib, rec in row["recs"].items():
            r = dict(rec)
            med = r.get("median_s")
            if med and w is not None:
                rt = rate_of(w, row["size"], med)
                if rt:
                    r["rate"], r["rate_unit"] = rt
                npm = row["recs"].get("numpy", {}).get("median_s")
                if npm and lib != "numpy":
                    r["speedup_vs_numpy"] = npm / med
                nprss = row["recs"].get("numpy", {}).get("peak_rss_kib")
                if nprss and r.get("peak_rss_kib") and lib != "numpy":
                    r["rss_ratio_vs_numpy"] = r["peak_rss_kib"] / nprss
            entry["results"][lib] = r
        results["workloads"].append(entry)
    out = Path(args.json) if args.json else HERE / "results.json"
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_text(json.dumps(results, indent=1) + "\n")
    os.replace(tmp, out)
    print(f"wrote {out}")
    failed = [r["name"] for r in rows if any("error" in rec for rec in r["recs"].values())
              or r["agree_text"].startswith("NO")]
    return 1 if failed and args.strict else 0


def probe_import_plain(python, module):
    try:
        p = subprocess.run(python + ["-c", f"import {module} as m; print(m.__version__)"],
                           capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError) as exc:
        return False, str(exc)
    if p.returncode:
        lines = p.stderr.strip().splitlines()
        return False, lines[-1] if lines else f"exit status {p.returncode}"
    return True, p.stdout.strip()


DEFAULT_CPN_VENV = Path(os.environ.get("CUPYNUMERIC_VENV",
                                      Path.home() / ".cache" / "ndtile" / "cupynumeric-venv"))


def default_cupynumeric_python():
    if os.environ.get("CUPYNUMERIC_PYTHON"):
        return os.environ["CUPYNUMERIC_PYTHON"]
    py = DEFAULT_CPN_VENV / "bin" / "python"
    return str(py) if py.exists() else None


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--quick", action="store_true", help="small sizes (CI smoke run)")
    p.add_argument("--only", help="comma-separated workload names")
    p.add_argument("--libs", default=None,
                   help="comma-separated: numpy,ndtile,numexpr,cupynumeric (default "
                        "numpy,ndtile,numexpr, plus cupynumeric when its environment exists)")
    p.add_argument("--repeat", type=int, help="timed runs after the warm-up (default 5; quick 3)")
    p.add_argument("--budget", type=float,
                   help="seconds of timed runs per workload and lib; fewer repeats when a run is "
                        "slow, never fewer than 1 (default 6; quick 1)")
    p.add_argument("--timeout", type=float, help="seconds per workload and lib (default 240; quick 90)")
    p.add_argument("--slow-factor", type=float, default=20.0,
                   help="a library's run is cut off after this many times NumPy's (default 20) ...")
    p.add_argument("--min-timeout", type=float, default=60.0,
                   help="... but never before this many seconds (default 60)")
    p.add_argument("--json", help="where to write the results (default bench/results.json)")
    p.add_argument("--cupynumeric", default=default_cupynumeric_python(),
                   help="python of an environment with nvidia-cupynumeric (env "
                        f"CUPYNUMERIC_PYTHON; default {DEFAULT_CPN_VENV}/bin/python if it exists)")
    p.add_argument("--strict", action="store_true",
                   help="exit 1 when a run fails or disagrees with NumPy")
    # child mode (internal)
    p.add_argument("--child", help=argparse.SUPPRESS)
    p.add_argument("--lib", help=argparse.SUPPRESS)
    p.add_argument("--mode", help=argparse.SUPPRESS)
    p.add_argument("--result", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        if args.repeat is None or args.budget is None:
            p.error("--child needs --repeat and --budget")
        child_main(args)
        return 0
    return parent_main(args)


if __name__ == "__main__":
    sys.exit(main())
