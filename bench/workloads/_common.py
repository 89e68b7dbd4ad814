"""Helpers shared by the workload files (not a workload itself).

Inputs are made with host NumPy from a fixed seed, then handed to the module
under test with ``np.asarray``, so every library computes on identical data.
``digest`` turns a (possibly large) result into a small, comparable summary.
"""
import numpy


def rng(seed=0):
    return numpy.random.default_rng(seed)


def digest(a, samples=64):
    """A small summary of an array: its float64 sum and evenly spaced samples.

    Integer arrays keep their dtype (compared exactly by the runner)."""
    a = numpy.asarray(a)
    flat = a.ravel()
    step = max(1, flat.size // samples)
    sample = flat[::step][:samples]
    if a.dtype.kind in "iub":
        return {"sum": int(flat.sum(dtype=numpy.int64)), "sample": sample.astype(numpy.int64)}
    return {"sum": float(flat.sum(dtype=numpy.float64)), "sample": sample.astype(numpy.float64)}


def load_lib(name):
    """The array module for --lib: numpy, ndtile or cupynumeric."""
    if name == "numpy":
        return numpy
    if name == "ndtile":
        import ndtile
        return ndtile
    if name == "cupynumeric":
        import cupynumeric
        return cupynumeric
    raise SystemExit(f"unknown --lib {name!r}")


def main(mod):
    """`python bench/workloads/<name>.py [--lib numpy|ndtile|numexpr|cupynumeric]
    [--quick] [--size N]`: one run, its time and its small result."""
    import argparse
    import time
    p = argparse.ArgumentParser(description=(mod.get("DESCRIPTION") or "").strip())
    p.add_argument("--lib", default="numpy")
    p.add_argument("--quick", action="store_true")
    p.add_argument("--size", default=None, help="N, or N,M for workloads sized by a pair")
    args = p.parse_args()
    if args.size:
        parts = tuple(int(v) for v in args.size.split(","))
        size = parts[0] if len(parts) == 1 else parts
    else:
        size = mod["SIZES"]["quick" if args.quick else "full"]
    t0 = time.perf_counter()
    if args.lib == "numexpr":
        if "run_numexpr" not in mod:
            raise SystemExit("this workload has no numexpr variant")
        res = mod["run_numexpr"](size)
    else:
        res = mod["run"](load_lib(args.lib), size)
    dt = time.perf_counter() - t0
    print(f"{args.lib}: size {size}: {dt:.3f} s (setup included)")
    print(res)
