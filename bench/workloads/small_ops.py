"""Per-operation cost on small arrays (10, 100, 1,000 elements; float64 and int64).

The operations programs use all the time on small arrays: binary and unary
ufuncs (with and without out=), comparisons, reductions, scalar and slice and
fancy indexing, creation, shape ops, where/astype/copy, small dot products and
Python-scalar results.  Each is a tiny call, so this measures per-call overhead
(argument parsing, dispatch, result wrapping), not bandwidth.

In the suite (bench/run.py) one run calls every op `size` times; the rate
column is microseconds per sweep over all ops.  By hand,

    python3 bench/workloads/small_ops.py --ratios [--repeat 7] [--only NAME,..] [--json PATH]

times every op with NumPy and ndtile **in one process**, interleaved, and
prints the median nanoseconds per call (wall clock and the calling thread's CPU
time) and the ratio ndtile/NumPy per op.
"""
import argparse
import json
import statistics
import sys
import time

import numpy

from _common import load_lib, rng

DESCRIPTION = "per-op cost on 10/100/1,000-element arrays (ufuncs, indexing, reductions, ...)"
SIZES = {"full": 200, "quick": 20}    # calls of every op per run
TOL = {"rtol": 1e-12, "atol": 1e-9}
KIND = "overhead"
ITEM_NAME = "sweep"
LENGTHS = (10, 100, 1000)
DTYPES = ("float64", "int64")


def items(calls):
    """The rate column shows microseconds per sweep over every op."""
    return calls


def _inputs(np, n, dtype):
    """The inputs for length n and dtype: host NumPy, then np.asarray."""
    g = rng(7)
    a = g.integers(1, 100, n).astype(dtype)
    b = g.integers(1, 100, n).astype(dtype)
    mask = g.random(n) < 0.5
    idx = g.integers(0, n, max(1, n // 4))
    m = g.integers(1, 100, (30, 30)).astype(dtype)
    return {
        "a": np.asarray(a), "b": np.asarray(b), "c": np.asarray(numpy.empty_like(a)),
        "mask": np.asarray(mask), "idx": np.asarray(idx), "m": np.asarray(m),
        "w": np.asarray(m.copy()), "lst": a.tolist(), "dtype": dtype,
    }


# name -> (code, fixed_size): code is an expression over the inputs' names (or a
# statement when it has "=" outside a comparison/keyword); fixed_size ops do not
# depend on n and run at n = 100 only.
OPS = [
    ("a+b", "a + b", False),
    ("a*2.0", "a * 2.0", False),
    ("a+1", "a + 1", False),
    ("add(a,b,out=c)", "np.add(a, b, out=c)", False),
    ("a+=b", "STMT:a += b", False),
    ("sqrt(a)", "np.sqrt(a)", False),
    ("abs(a)", "np.abs(a)", False),
    ("-a", "-a", False),
    ("a<b", "a < b", False),
    ("a==2", "a == 2", False),
    ("a.sum()", "a.sum()", False),
    ("np.sum(a)", "np.sum(a)", False),
    ("a.max()", "a.max()", False),
    ("a.mean()", "a.mean()", False),
    ("m.sum(axis=0)", "m.sum(axis=0)", True),
    ("a[3]", "a[3]", False),
    ("a[-1]", "a[-1]", False),
    ("a[2:50]", "a[2:50]", False),
    ("a[::2]", "a[::2]", False),
    ("a[mask]", "a[mask]", False),
    ("a[idx]", "a[idx]", False),
    ("m[3,4]", "m[3, 4]", True),
    ("m[3,4]=v", "STMT:w[3, 4] = 5", True),
    ("m[3]", "m[3]", True),
    ("a[2:5]=1", "STMT:a[2:5] = 1", False),
    ("a[3]=v", "STMT:a[3] = 7", False),
    ("zeros(100)", "np.zeros(100)", True),
    ("zeros((10,10))", "np.zeros((10, 10))", True),
    ("ones(100,dtype)", "np.ones(100, dtype=dtype)", True),
    ("empty_like(a)", "np.empty_like(a)", False),
    ("zeros_like(a)", "np.zeros_like(a)", False),
    ("arange(100)", "np.arange(100)", True),
    ("array(list)", "np.array(lst)", False),
    ("asarray(a)", "np.asarray(a)", False),
    ("a.reshape(2,-1)", "a.reshape(2, -1)", False),
    ("m.T", "m.T", True),
    ("m.ravel()", "m.ravel()", True),
    ("concatenate", "np.concatenate((a, b))", False),
    ("where(mask,a,b)", "np.where(mask, a, b)", False),
    ("a.astype(f32)", "a.astype(np.float32)", False),
    ("a.copy()", "a.copy()", False),
    ("dot(a,b)", "np.dot(a, b)", False),
    ("m@m", "m @ m", True),
    ("float(a.sum())", "float(a.sum())", False),
    ("a.shape/len", "(a.shape, len(a), a.ndim, a.dtype)", False),
    ("isinstance", "isinstance(a, np.ndarray)", False),
]


def _compile(code):
    if code.startswith("STMT:"):
        return compile(code[5:], "<small_ops>", "exec"), True
    return compile(code, "<small_ops>", "eval"), False


def cases(only=None):
    """(op name, code object, is_statement, n, dtype) for every timed case."""
    out = []
    for name, code, fixed in OPS:
        if only and name not in only:
            continue
        co, stmt = _compile(code)
        for dtype in DTYPES:
            for n in ((100,) if fixed else LENGTHS):
                out.append((name, co, stmt, n, dtype))
    return out


def _loop(co, stmt, env, calls):
    """calls evaluations of co in env: (wall seconds, this thread's CPU seconds)."""
    if stmt:
        c0, t0 = time.thread_time(), time.perf_counter()
        for _ in range(calls):
            exec(co, env)
        return time.perf_counter() - t0, time.thread_time() - c0
    c0, t0 = time.thread_time(), time.perf_counter()
    for _ in range(calls):
        eval(co, env)
    return time.perf_counter() - t0, time.thread_time() - c0


def setup(np, calls):
    envs = {(n, d): _inputs(np, n, d) for n in LENGTHS for d in DTYPES}
    return envs, calls


def kernel(np, envs, calls):
    """Every op `calls` times; the last results of the value-producing ones."""
    last = {}
    envs = {k: dict(v, np=np) for k, v in envs.items()}    # (the ops' namespaces)
    for name, co, stmt, n, dtype in cases():
        env = envs[(n, dtype)]
        if stmt:
            for _ in range(calls):
                exec(co, env)
            continue
        for _ in range(calls):
            r = eval(co, env)
        last[f"{name}/{dtype}/{n}"] = r
    return last


def summarize(out):
    """Sums of the array results and the scalars, keyed by op (agreement check;
    empty_like's values are whatever the memory held)."""
    res = {}
    for key, r in out.items():
        if r is None or isinstance(r, (tuple, bool)) or key.startswith("empty_like"):
            continue
        v = numpy.asarray(r)
        if v.dtype.kind in "fc":
            res[key] = float(v.astype(numpy.float64).sum())
        elif v.dtype.kind in "iub":
            res[key] = int(v.astype(numpy.int64).sum())
    return res


def run(np, calls=SIZES["quick"]):
    return summarize(kernel(np, *setup(np, calls)))


def ratios(repeat=7, target=2e-3, only=None):
    """Time every case with NumPy and ndtile in this process; rows of results."""
    libs = {"numpy": numpy, "ndtile": load_lib("ndtile")}
    envs = {lib: {(n, d): dict(_inputs(mod, n, d), np=mod) for n in LENGTHS for d in DTYPES}
            for lib, mod in libs.items()}
    rows = []
    for name, co, stmt, n, dtype in cases(only):
        env = {lib: envs[lib][(n, dtype)] for lib in libs}
        # calls per timed loop: about `target` seconds with NumPy
        _loop(co, stmt, env["numpy"], 10)
        _loop(co, stmt, env["ndtile"], 10)
        t = _loop(co, stmt, env["numpy"], 100)[0] / 100
        calls = max(20, min(20000, int(target / max(t, 1e-8))))
        wall = {lib: [] for lib in libs}
        cpu = {lib: [] for lib in libs}
        for _ in range(repeat):
            for lib in libs:
                w, c = _loop(co, stmt, env[lib], calls)
                wall[lib].append(w / calls * 1e9)
                cpu[lib].append(c / calls * 1e9)
        row = {"op": name, "dtype": dtype, "n": n}
        for clock, per in (("wall", wall), ("cpu", cpu)):
            np_ns, nd_ns = statistics.median(per["numpy"]), statistics.median(per["ndtile"])
            row.update({f"numpy_{clock}_ns": np_ns, f"ndtile_{clock}_ns": nd_ns,
                        f"ratio_{clock}": nd_ns / np_ns})
        rows.append(row)
    return rows


def _ratios_main(argv):
    p = argparse.ArgumentParser(description="ndtile/NumPy per-op cost, one process")
    p.add_argument("--ratios", action="store_true")
    p.add_argument("--repeat", type=int, default=7)
    p.add_argument("--only", default=None, help="op names, comma-separated")
    p.add_argument("--json", default=None)
    args = p.parse_args(argv)
    only = set(args.only.split(",")) if args.only else None
    rows = ratios(args.repeat, only=only)
    print("ns per call, median of --repeat interleaved loops; wall: perf_counter, cpu: this")
    print("thread's CPU time (a shared machine's preemption inflates wall time; small arrays")
    print("run inline on the calling thread, so cpu is the op's cost)")
    print(f"{'op':18s} {'dtype':8s} {'n':>5s} {'np wall':>8s} {'nd wall':>8s} {'nd/np':>6s} "
          f"{'np cpu':>8s} {'nd cpu':>8s} {'nd/np':>6s}")
    for r in rows:
        print(f"{r['op']:18s} {r['dtype']:8s} {r['n']:5d} {r['numpy_wall_ns']:8.0f} "
              f"{r['ndtile_wall_ns']:8.0f} {r['ratio_wall']:6.2f} {r['numpy_cpu_ns']:8.0f} "
              f"{r['ndtile_cpu_ns']:8.0f} {r['ratio_cpu']:6.2f}")
    for clock in ("wall", "cpu"):
        print(f"median ratio ({clock}) {statistics.median(r['ratio_' + clock] for r in rows):.2f} "
              f"over {len(rows)} cases")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    if "--ratios" in sys.argv:
        _ratios_main(sys.argv[1:])
    else:
        from _common import main
        main(globals())
