"""More task kinds with a CUDA body (src/runtime/cuda.c), through the
plugin's host build (tests/cudahost: libndtile_cudahost.so, cuda.c against
an emulated CUDA runtime, the kernels compiled as C), as
test_cuda_kinds.py checks its kinds:

* "partition" (np.partition, np.argpartition, and np.median, percentile
  and quantile through them; cuda_partition.h): every dtype, NaNs, -0.0,
  one and many kth, negative kth, more kth than NDT_SORT_MAXKTH (the whole
  line sorted), along every axis, strided and reversed views;
* "searchsorted" (np.searchsorted, digitize, and the bin index of a
  histogram with uniform bins; cuda_search.h): every dtype, both sides,
  NaNs, sorted arrays across many tiles, sorter=, empty and 0-d values;
* "histogram" (np.histogram's counts with uniform bins: the bin indices,
  then bincount's count kernel): int and float values, float32, weights
  of int and float dtypes, NaNs and values out of the range, density.

For each: NumPy's answer (a partition's own positions are NumPy's sorted
values; before each kth nothing larger, after it nothing smaller, the
same elements as the input; argpartition's indices a permutation that
does the same; a median's or percentile's values), the CPU's bits (the
same script on the CPU, digests compared: the device runs the CPU's
introselect, so it leaves the same elements in the same places), and no
host round trip: the device log shows the kind placed on a device, and
no tile copied to the host for it. Arrays of many tiles at default
settings and at 4 KiB tiles, 0-d, empty. Each case runs in a child
process: devices are chosen when the runtime first starts. (The kernel's
bits against the CPU's select kernels: tests/c/test_devkernels.c,
`partition`.)"""

import pytest
from _helpers import cudahost_plugin, run_cudahost as run


pytestmark = pytest.mark.skipif(cudahost_plugin() is None,
                                reason="no libndtile_cudahost.so (make build)")


# case(tag, f, check, kind): runs f with the device log on, records the
# bits' digest, appends to bad what check(result) says is wrong, and the
# log lines that show a placement of `kind` on the CPU or a copy to the
# host for it.
PRELUDE = """
import ctypes, hashlib, json, warnings, numpy, ndtile as np
lib = ctypes.CDLL(np._core.__file__)
lib.ndt_debug_device_log_text.restype = ctypes.c_char_p
devices = bool(np.devices())
bad, trips, stays, digest, placed = [], [], [], hashlib.sha256(), []
def case(tag, f, check, kind, axis=None, size=None, cpu=False):
    # cpu: the kind must run on the CPU (cuda_partition.h: a few long
    # lines, which one thread each would walk serially on the device)
    lib.ndt_debug_device_log(1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = f()
    got = numpy.asarray(got)
    log = lib.ndt_debug_device_log_text().decode().split("-- ran:")[0]
    lib.ndt_debug_device_log(0)
    digest.update(repr((tag, got.dtype.str, got.shape)).encode() + got.tobytes())
    why = check(got)
    if why:
        bad.append([repr(tag), why])
    cur = None
    for line in log.splitlines():
        if line.startswith("place "):
            k, p = line[6:].rsplit(" ", 1)
            cur = k if k == kind else None
            if k == kind and cpu:
                cur = None
                if p != "cpu":
                    bad.append([repr(tag), "a few long lines placed on " + p])
            elif k == kind:
                placed.append(p)
                if p == "cpu":
                    trips.append([repr(tag), line])
        elif line.startswith("stay ") and line[5:].rsplit(" ", 2)[0] == kind:
            # moving must pay (proc.c): a block of columns across many tiles
            stays.append([repr(tag), line, bool(size is not None and size < 1000 or
                                                axis is not None and axis < -1)])
            cur = None
        elif line.startswith("copy d2h") and cur:
            trips.append([repr(tag), line])
def done():
    print(json.dumps({"bad": bad, "trips": trips, "stays": stays, "digest": digest.hexdigest(),
                      "placed": sorted(set(placed)), "nplaced": len(placed), "devices": devices}))
def same(x, y):
    # equal values, NaN equal to NaN (a partition moves -0.0 and 0.0 as ties)
    if x.dtype != y.dtype or x.shape != y.shape:
        return False
    if x.dtype.kind in "fc":
        return bool(numpy.all((x == y) | (numpy.isnan(x) & numpy.isnan(y))))
    return x.tobytes() == y.tobytes()
def le(x, y):
    # NumPy's sort order, NaNs last (complex: lexicographic, no NaNs here)
    if x.dtype.kind == "f":
        return (x <= y) | numpy.isnan(y)
    if x.dtype.kind == "c":
        return (x.real < y.real) | ((x.real == y.real) & (x.imag <= y.imag))
    return x <= y
def long_lines(v, axis, nk):
    # cuda_partition.h keeps on the CPU a partition (0 < kth <= 32) of
    # fewer than 256 lines longer than 2**16
    n = v.size if axis is None else v.shape[axis]
    return n > 65536 and v.size // n < 256 and 0 < nk <= 32
def part_ok(v, got, kth, axis):
    # got: v partitioned around kth along axis (NumPy's promise)
    if got.shape != v.shape or got.dtype != v.dtype:
        return "dtype/shape %s %s" % (got.dtype, got.shape)
    if v.size == 0:
        return None
    s = numpy.sort(v, axis=axis)
    if not same(numpy.sort(got, axis=axis), s):
        return "not the input's elements"
    g, n = numpy.moveaxis(got, axis, -1), v.shape[axis]
    for k in numpy.atleast_1d(kth):
        k = int(k) % n
        if not same(g[..., k], numpy.moveaxis(s, axis, -1)[..., k]):
            return "kth %d is not the sorted value" % k
        if k > 0 and not numpy.all(le(g[..., :k], g[..., k:k + 1])):
            return "a larger value before kth %d" % k
        if k + 1 < n and not numpy.all(le(g[..., k:k + 1], g[..., k + 1:])):
            return "a smaller value after kth %d" % k
    return None
def argpart_ok(v, got, kth, axis):
    if got.dtype != numpy.intp or got.shape != v.shape:
        return "dtype/shape %s %s" % (got.dtype, got.shape)
    if v.size == 0:
        return None
    n = v.shape[axis]
    perm = numpy.sort(got, axis=axis)
    want = numpy.broadcast_to(numpy.arange(n).reshape([-1 if d == axis % v.ndim else 1
                                                       for d in range(v.ndim)]), v.shape)
    if not numpy.array_equal(perm, want):
        return "not a permutation"
    return part_ok(v, numpy.take_along_axis(v, got, axis), kth, axis)
"""

PARTITION = PRELUDE + """
rng = numpy.random.default_rng(5)
def data(dt, shape):
    if dt == "bool":
        return rng.integers(0, 2, shape).astype(bool)
    if dt[0] in "iu":
        info = numpy.iinfo(dt)
        v = rng.integers(max(info.min, -50), min(info.max, 50) + 1, shape).astype(dt)
        if v.size > 3:
            v.flat[0], v.flat[1] = info.min, info.max
        return v
    if dt[0] == "c":
        return (rng.integers(-20, 20, shape) + 1j * rng.integers(-3, 3, shape)).astype(dt)
    v = (rng.standard_normal(shape) * 10).round(1).astype(dt)   # ties
    if v.size > 4:
        f = v.reshape(-1)
        f[rng.integers(0, v.size, max(1, v.size // 50))] = numpy.nan
        f[1], f[2] = -0.0, 0.0
        f[3] = -numpy.nan
    return v
def resident(x, dt):
    # a copy made by a device task (elementwise), so the partition reads device tiles
    return (x | False) if dt == "bool" else x * 1
for shape in [(0,), (1,), (7,), (300_001,), (3, 0), (513, 257), (6, 40, 11)]:
    for dt in ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
               "float32", "float64", "complex64", "complex128"]:
        big = numpy.prod(shape) > 100_000
        if big and dt not in ("int16", "float64", "float32"):
            continue
        v = data(dt, shape)
        x = resident(np.asarray(v), dt)
        for axis in range(len(shape)):
            n = shape[axis]
            kths = [n // 2, 0, -1, [0, n // 3, n - 1], list(range(0, n, max(1, n // 40)))[:40]]
            if n == 0:
                kths = []
            for kth in kths:
                t = (shape, dt, axis, str(kth)[:40])
                c = long_lines(v, axis, len(numpy.atleast_1d(kth)))
                case(t + ("partition",), lambda: np.partition(x, kth, axis=axis),
                     lambda g: part_ok(v, g, kth, axis), "partition", axis - len(shape), v.size, c)
                case(t + ("argpartition",), lambda: np.argpartition(x, kth, axis=axis),
                     lambda g: argpart_ok(v, g, kth, axis), "partition", axis - len(shape), v.size,
                     c)
        if dt[0] in "fiu" and v.size:
            for axis in [None, -1]:
                want = numpy.median(v, axis=axis)
                case((shape, dt, axis, "median"), lambda: np.median(x, axis=axis),
                     lambda g: None if same(g, want.astype(g.dtype)) and g.dtype == want.dtype
                     else "median %s %s" % (g, want), "partition", axis and -1, v.size,
                     long_lines(v, axis, 2))
            want = numpy.percentile(v, [10, 50, 99], axis=0)
            case((shape, dt, "percentile"), lambda: np.percentile(x, [10, 50, 99], axis=0),
                 lambda g: None if g.dtype == want.dtype and g.shape == want.shape and
                 numpy.allclose(g, want, rtol=1e-12, atol=0, equal_nan=True) else "percentile",
                 "partition", -len(shape), v.size, long_lines(v, 0, 3))
# views: strided and reversed, along a non-last axis
v = data("float64", (401, 303))
x = np.asarray(v) * 1
case("strided", lambda: np.partition(x[::2, ::-3], 17, axis=0),
     lambda g: part_ok(v[::2, ::-3], g, 17, 0), "partition", -2, v.size)
case("reversed", lambda: np.argpartition(x[::-1], [3, 300], axis=1),
     lambda g: argpart_ok(v[::-1], g, [3, 300], 1), "partition", -1, v.size)
case("0-d", lambda: np.partition(np.asarray(v[0, 0]) * 1, 0, axis=None),
     lambda g: part_ok(numpy.asarray(v[0, 0]).reshape(1), g, 0, 0), "partition", -1, 1)
done()
"""


SEARCH = PRELUDE + """
rng = numpy.random.default_rng(7)
def eq(want):
    want = numpy.asarray(want)
    return lambda g: None if g.dtype == want.dtype and g.shape == want.shape and \
        g.tobytes() == want.tobytes() else "values %s %s" % (g.ravel()[:5], want.ravel()[:5])
for dt in ["bool", "int8", "uint8", "int16", "int32", "uint32", "int64", "uint64", "float32",
           "float64", "complex64", "complex128"]:
    for na, nv in [(0, 5), (1, 7), (50, 0), (1000, (3, 4)), (100_000, 300_001)]:
        if dt == "bool":
            a = numpy.sort(rng.integers(0, 2, na).astype(bool))
            v = rng.integers(0, 2, nv).astype(bool)
        elif dt[0] in "iu":
            a = numpy.sort(rng.integers(0, 100, na).astype(dt))
            v = rng.integers(0, 100, nv).astype(dt)
        elif dt[0] == "c":
            a = numpy.sort((rng.integers(-5, 5, na) + 1j * rng.integers(-2, 2, na)).astype(dt))
            v = (rng.integers(-6, 6, nv) + 1j * rng.integers(-3, 3, nv)).astype(dt)
        else:
            a = (rng.standard_normal(na) * 10).round(1).astype(dt)
            if na > 4:
                a[:na // 20] = numpy.nan
            a = numpy.sort(a)
            v = (rng.standard_normal(nv) * 12).round(1).astype(dt)
            if v.size > 4:
                v.reshape(-1)[::9] = numpy.nan
                v.reshape(-1)[1] = -0.0
        # resident on the devices: made by a device task
        x = np.asarray(a) | False if dt == "bool" else np.asarray(a) * 1
        y = np.asarray(v) | False if dt == "bool" else np.asarray(v) * 1
        for side in ["left", "right"]:
            case((dt, na, str(nv), side), lambda: np.searchsorted(x, y, side=side),
                 eq(numpy.searchsorted(a, v, side=side)), "searchsorted", None, a.size + v.size)
# a sorter, and a view of the values
a = rng.standard_normal(50_000)
v = rng.standard_normal(200_000)
order = numpy.argsort(a, kind="stable")
x, y, s = np.asarray(a) * 1, np.asarray(v) * 1, np.asarray(order) + 0
case("sorter", lambda: np.searchsorted(x, y, sorter=s), eq(numpy.searchsorted(a, v, sorter=order)),
     "searchsorted", None, v.size)
case("reversed values", lambda: np.searchsorted(numpy.sort(a), y[::-3], side="right"),
     eq(numpy.searchsorted(numpy.sort(a), v[::-3], side="right")), "searchsorted", None, v.size)
case("0-d", lambda: np.searchsorted(np.sort(x), 0.25), eq(numpy.searchsorted(numpy.sort(a), 0.25)),
     "searchsorted", None, 1)
edges = numpy.linspace(-2, 2, 41)
case("digitize", lambda: np.digitize(y, edges), eq(numpy.digitize(v, edges)), "searchsorted", None,
     v.size)
# histograms of uniform bins: the bin index ("searchsorted"), the counts ("histogram")
for dt in ["int16", "int64", "uint8", "float32", "float64"]:
    for n in [1, 10, 700_001]:
        if dt[0] in "iu":
            v = rng.integers(0, 200, n).astype(dt)
        else:
            v = (rng.standard_normal(n) * 3).astype(dt)
            if n > 4:
                v[::11] = numpy.nan if dt[0] == "f" else 0
                v[1::13] = numpy.inf
        y = np.asarray(v) * 1
        rg = (0, 150) if dt[0] in "iu" else (-4, 4.5)
        want = numpy.histogram(v[~numpy.isnan(v)] if dt[0] == "f" else v, bins=37, range=rg)[0]
        vv = v[~numpy.isnan(v)] if dt[0] == "f" else v
        yy = y[~np.isnan(y)] if dt[0] == "f" else y
        case((dt, n, "hist"), lambda: np.histogram(yy, bins=37, range=rg)[0], eq(want), "histogram",
             None, v.size)
        w = rng.integers(-3, 9, vv.size).astype("int32")
        wf = rng.standard_normal(vv.size)
        wy, wfy = np.asarray(w) + 0, np.asarray(wf) * 1
        case((dt, n, "hist w int"), lambda: np.histogram(yy, bins=37, range=rg, weights=wy)[0],
             eq(numpy.histogram(vv, bins=37, range=rg, weights=w)[0]), "histogram", None, v.size)
        hw = numpy.histogram(vv, bins=37, range=rg, weights=wf)[0]
        case((dt, n, "hist w float"), lambda: np.histogram(yy, bins=37, range=rg, weights=wfy)[0],
             lambda g: None if g.dtype == hw.dtype and numpy.allclose(g, hw, rtol=1e-9, atol=1e-9)
             else "weighted", "histogram", None, v.size)
        hd = numpy.histogram(vv, bins=10, range=rg, density=True)[0]
        case((dt, n, "density"), lambda: np.histogram(yy, bins=10, range=rg, density=True)[0],
             lambda g: None if numpy.allclose(g, hd, rtol=1e-12, atol=0, equal_nan=True) else "density",
             "histogram", None, v.size)
done()
"""


@pytest.mark.parametrize("tiles", [None, "4096"])
@pytest.mark.parametrize("name,code", [("partition", PARTITION), ("search", SEARCH)])
def test_device_bodies(name, code, tiles):
    env = {"NDTILE_TILE_BYTES": tiles} if tiles else {}
    dev = run(code, **env)
    assert dev["devices"]
    assert dev["bad"] == [], dev["bad"][:10]
    assert dev["trips"] == [], dev["trips"][:10]
    assert dev["placed"] and "cpu" not in dev["placed"], dev["placed"]
    # the only tasks kept on the CPU: those the plan keeps there because
    # moving their tiles would cost more than the work (proc.c's "moving
    # must pay"): at default tiles, arrays small enough to be made on the
    # host (inline) or a block of lines across an axis other than the
    # last; at 4 KiB tiles also tasks whose few values are not worth the
    # copy of what they read whole (a histogram block's edges)
    assert tiles or all(ok for _, _, ok in dev["stays"]), [s for s in dev["stays"] if not s[2]][:10]
    big = [s for s in dev["stays"] if not s[2]]
    assert len(big) < dev["nplaced"] / 4, (len(big), dev["nplaced"])
    cpu = run(code, devices=None, **env)
    assert cpu["bad"] == [] and not cpu["devices"]
    assert dev["digest"] == cpu["digest"]


def test_partition_scratch_full_falls_back():
    """A device that cannot take a partition's scratch: the task runs on
    the CPU (the plugin's NOMEM before anything is written), with the same
    values."""
    out = run(PRELUDE + """
v = numpy.random.default_rng(1).standard_normal((300, 200))
x = np.asarray(v) * 1
np._core.sync()
lib.ndt_debug_fail_dev_alloc_after(ctypes.c_int64(1))
case("p", lambda: np.partition(x, 50, axis=1), lambda g: part_ok(v, g, 50, 1), "partition")
lib.ndt_debug_fail_dev_alloc_after(ctypes.c_int64(0))
case("p again", lambda: np.partition(x, 50, axis=1), lambda g: part_ok(v, g, 50, 1), "partition")
done()
""")
    assert out["bad"] == [], out["bad"]
