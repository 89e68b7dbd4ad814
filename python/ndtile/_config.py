"""What ndtile is built with and what it holds: show_config, memory_stats.

show_config() prints ndtile's build (not NumPy's): the BLAS library and how
the build found it, SLEEF and the SIMD level in use, MPI (library, ranks),
the CUDA plugin, and the runtime's tile size, workers and inline threshold.
show_config(mode='dicts') returns the same as nested dicts, as NumPy's does.
The C side answers where it knows (ndt_build_info_get, include/ndtile.h).

memory_stats() returns, per memory (the host, then a device's when one is
on: NDTILE_SIMDEVICE=1, a GPU plugin), the bytes held in data buffers now,
their high-water mark and the bytes cached for reuse; the counters are
atomics the allocator keeps (src/runtime/memory.c), so asking is cheap.
"""
import os
import platform
import sys

from . import _core

__all__ = ["show_config", "memory_stats", "config"]


def _version():
    pkg = sys.modules.get(__package__)
    return getattr(pkg, "__version__", "unknown")


def _cuda(procs):
    """The CUDA plugin's entry: what it reports, or that none is built."""
    pkg = sys.modules.get(__package__)
    devices = getattr(pkg, "devices", None)     # added by the GPU backend
    gpu = [p for p in procs if p not in ("cpu", "simdev")]
    if callable(devices):
        try:
            found = devices()
        except Exception as e:                  # pragma: no cover - the plugin's
            found = f"error: {e}"
        return {"plugin": "loaded" if gpu else "not built or not loaded",
                "processors": gpu, "devices": found}
    if gpu:
        return {"plugin": "loaded", "processors": gpu}
    return {"plugin": "not built"}


def config():
    """The nested dicts show_config prints."""
    b = _core.build_info()
    procs = list(_core.processors())
    mpi = {"built": b["mpi"], "library": b["mpi_library"] or None,
           "rank": b["rank"], "ranks": b["ranks"]}
    return {
        "ndtile": {"version": _version(), "compiler": b["compiler"]},
        "Build Dependencies": {
            "blas": {"name": "openblas", "found": b["blas"],
                     "openblas configuration": b["blas_config"],
                     "kernel family": b["blas_core"], "library": b["blas_path"]},
            "sleef": {"version": b["sleef"]},
            "mpi": mpi,
            "cuda": _cuda(procs),
        },
        "SIMD": {"level": b["simd_level"], "name": b["simd"]},
        "Runtime": {"tile bytes": b["tile_bytes"], "workers": b["workers"],
                    "inline elements": b["inline_elems"], "processors": procs,
                    "memories": [m["name"] for m in _core.memory_stats()]},
        "Python Information": {"path": sys.executable,
                               "version": platform.python_version()},
        "Machine Information": {"system": platform.system().lower(),
                                "cpu": platform.machine(),
                                "cores": len(os.sched_getaffinity(0))
                                if hasattr(os, "sched_getaffinity") else os.cpu_count()},
    }


def _lines(d, indent=0):
    pad = "  " * indent
    for k, v in d.items():
        if isinstance(v, dict):
            yield f"{pad}{k}:"
            yield from _lines(v, indent + 1)
        elif isinstance(v, (list, tuple)):
            yield f"{pad}{k}: {', '.join(str(x) for x in v) if v else '(none)'}"
        else:
            yield f"{pad}{k}: {'(none)' if v is None or v == '' else v}"


def show_config(mode="stdout"):
    """Prints ndtile's build and runtime configuration (mode='stdout'), or
    returns it as nested dicts (mode='dicts'), like numpy.show_config."""
    if mode not in ("stdout", "dicts"):
        raise AttributeError(f"Invalid `mode`, use one of: stdout, dicts (got {mode!r})")
    d = config()
    if mode == "dicts":
        return d
    print("\n".join(_lines(d)))
    return None


def memory_stats():
    """{memory name: {in_use, peak, cached, ...}} in bytes, host first.

    in_use: data buffers held now (for the host: every array's tiles in this
    process, scratch and a simulated device's copies too, which are host
    memory); peak: the most held at once so far; cached: freed buffers kept
    for reuse (the host's; they count against nothing until reused);
    peak_with_cache: the most held counting the cache; reserved: bytes of
    the live arrays as the memory budget counts them; capacity: the budget's
    limit (host) or the device's size (-1: unknown)."""
    out = {}
    for m in _core.memory_stats():
        name = m.pop("name")
        out[name] = m
    return out
