"""Task kinds that gained a CUDA body (src/runtime/cuda.c), through the
plugin's host build (tests/cudahost: libndtile_cudahost.so, cuda.c against
an emulated CUDA runtime, the kernels compiled as C):

* elementwise tasks whose operands are not all of the loop's dtypes (an
  int64 array times a float64 one, sqrt of integers, a comparison of floats
  with integers, an out= of another dtype, a broadcast operand cast): the
  inputs cast into device scratch, the loop's kernel, the result cast out;
* "arange" (arange and linspace fills) on every dtype.

For each: NumPy's values, dtype and shape, the CPU's bits (the same script
on the CPU, digests compared), and no host round trip: the device log shows
the task placed on a device, and no tile of a device-resident operand
copied to the host for it (before, each was placed on the CPU, with a
"copy d2h" of its device-resident inputs). Arrays of many tiles at default
settings and at 4 KiB tiles, 0-d, empty, strided and reversed views.
Each case runs in a child process: devices are chosen when the runtime
first starts. (The kernels' bits against the CPU's are also checked in
tests/c/test_devkernels.c: `range`, and `cast` and `ew` for the pieces of
the cast path.)"""
import os
import subprocess
import sys

import pytest
from _helpers import cudahost_plugin, run_cudahost as run


pytestmark = pytest.mark.skipif(cudahost_plugin() is None,
                                reason="no libndtile_cudahost.so (make build)")


# Runs each case with the device log on; reports values against NumPy,
# a digest of the bits, and the log lines that show a host round trip or a
# placement on the CPU of the kinds under test.
PRELUDE = """
import ctypes, hashlib, json, warnings, numpy, ndtile as np
lib = ctypes.CDLL(np._core.__file__)
lib.ndt_debug_device_log_text.restype = ctypes.c_char_p
devices = bool(np.devices())
bad, trips, digest, placed = [], [], hashlib.sha256(), []
def case(tag, f, want, kind):
    lib.ndt_debug_device_log(1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = f()
    got = numpy.asarray(got)
    log = lib.ndt_debug_device_log_text().decode().split("-- ran:")[0]
    lib.ndt_debug_device_log(0)
    digest.update(repr((tag, got.dtype.str, got.shape)).encode() + got.tobytes())
    if got.dtype != want.dtype or got.shape != want.shape:
        bad.append([tag, str(got.dtype), str(want.dtype), got.shape, want.shape])
    elif want.dtype.kind in "fc":
        if not numpy.allclose(got, want, rtol=1e-12, atol=0, equal_nan=True):
            bad.append([tag, "values"])
    elif got.tobytes() != want.tobytes():
        bad.append([tag, "values"])
    cur = None
    for line in log.splitlines():
        if line.startswith("place "):
            k, p = line[6:].rsplit(" ", 1)
            cur = k if k == kind else None
            if k == kind:
                placed.append(p)
                if p == "cpu":
                    trips.append([tag, line])
        elif line.startswith("copy d2h") and cur:
            trips.append([tag, line])
def done():
    print(json.dumps({"bad": bad, "trips": trips, "digest": digest.hexdigest(),
                      "placed": sorted(set(placed)), "devices": devices}))
"""

MIXED = PRELUDE + """
rng = numpy.random.default_rng(3)
for shape in [(), (0,), (5,), (700_001,), (257, 1031)]:
    vi = rng.integers(-1000, 1000, shape)
    vf = rng.standard_normal(shape) * 100
    vu = rng.integers(0, 60000, shape).astype(numpy.uint16)
    v32 = (rng.standard_normal(shape) * 3).astype(numpy.float32)
    # resident on the devices: each made by a device task
    xi, xf, xu, x32 = np.asarray(vi) + 0, np.asarray(vf) * 1.0, np.asarray(vu) | 0, np.asarray(v32) * 1
    t = str(shape)
    case((t, "i*f"), lambda: xi * xf, vi * vf, "elementwise")
    case((t, "sqrt i"), lambda: np.sqrt(xi), numpy.sqrt(vi), "elementwise")
    case((t, "f==i"), lambda: xf == xi, vf == vi, "elementwise")
    case((t, "f/i"), lambda: xf / xi, vf / vi, "elementwise")
    case((t, "u16+f32"), lambda: xu + x32, vu + v32, "elementwise")
    case((t, "i>f32"), lambda: xi > x32, vi > v32, "elementwise")
    case((t, "u16*i"), lambda: xu * xi, vu * vi, "elementwise")
    case((t, "f32 < f"), lambda: x32 < xf, v32 < vf, "elementwise")
    if len(shape) == 2:
        case((t, "bcast row"), lambda: xi * xf[:1], vi * vf[:1], "elementwise")
        case((t, "bcast col"), lambda: xf + xu[:, :1], vf + vu[:, :1], "elementwise")
        case((t, "strided"), lambda: xi[::2, ::-3] * x32[::2, 1::3], vi[::2, ::-3] * v32[::2, 1::3],
             "elementwise")
    if shape:
        case((t, "reversed"), lambda: xu[::-1] - xf, vu[::-1] - vf, "elementwise")
    def into():
        o = np.zeros(shape, dtype=numpy.float32)
        np.multiply(xf, xf, out=o)
        return o
    case((t, "out f32"), into, (vf * vf).astype(numpy.float32), "elementwise")
    def into_i():
        o = np.zeros(shape, dtype=numpy.int16)
        np.add(xi, xi, out=o, casting="unsafe")
        return o
    case((t, "out i16 unsafe"), into_i, numpy.add(vi, vi, casting="unsafe", dtype=numpy.int64).astype(numpy.int16),
         "elementwise")
    def inplace():
        y = x32 * 1
        y += xf
        return y
    w = v32.copy(); w += vf
    case((t, "f32 += f"), inplace, w, "elementwise")
done()
"""

RANGES = PRELUDE + """
for n in [0, 1, 2, 7, 300_001]:
    for dt in ["bool", "int8", "uint8", "int16", "int32", "int64", "uint64", "float32",
               "float64", "complex64", "complex128"]:
        if dt == "bool" and n > 2:
            continue
        case((n, dt), lambda: np.arange(n, dtype=dt), numpy.arange(n, dtype=dt), "arange")
    case((n, "float start"), lambda: np.arange(-0.0, n * 0.1, 0.1), numpy.arange(-0.0, n * 0.1, 0.1),
         "arange")
    case((n, "f32 step"), lambda: np.arange(0.3, n * 0.7 + 0.3, 0.7, dtype="float32"),
         numpy.arange(0.3, n * 0.7 + 0.3, 0.7, dtype="float32"), "arange")
    case((n, "int step"), lambda: np.arange(5, 5 - 3 * n, -3), numpy.arange(5, 5 - 3 * n, -3), "arange")
    case((n, "linspace"), lambda: np.linspace(-2.5, 7.25, n), numpy.linspace(-2.5, 7.25, n), "arange")
    case((n, "linspace f32"), lambda: np.linspace(0, 1, n, dtype="float32", endpoint=False),
         numpy.linspace(0, 1, n, dtype="float32", endpoint=False), "arange")
case("linspace tiny", lambda: np.linspace(0, 5e-324, 9), numpy.linspace(0, 5e-324, 9), "arange")
# used on the device after: nothing comes back to the host but the result
x = np.arange(1_000_000.0)
case("arange then use", lambda: (np.arange(1_000_000) * x)[::1000], (numpy.arange(1_000_000) *
     numpy.arange(1_000_000.0))[::1000], "arange")
done()
"""

# short reduced axes of many-tile arrays: each result tile's combine visits
# only the blocks of its box (cuda_combine.h's walks, reduce.h's
# ndt_red_box; before, every block of the input: quadratic in the tiles)
SHORT = PRELUDE + """
rng = numpy.random.default_rng(5)
for shape in [(4, 100_003), (3, 5, 20_011), (2, 1)]:
    vf = rng.standard_normal(shape) * 100
    vf.flat[::97] = numpy.nan if shape[0] == 3 else 0.0
    vi = rng.integers(-1000, 1000, shape)
    xf, xi = np.asarray(vf) * 1.0, np.asarray(vi) + 0   # made on the device
    t = str(shape)
    case((t, "sum0"), lambda: xf.sum(axis=0), vf.sum(axis=0), "reduce combine")
    case((t, "isum0"), lambda: xi.sum(axis=0), vi.sum(axis=0), "reduce combine")
    case((t, "max0"), lambda: xf.max(axis=0), vf.max(axis=0), "reduce combine")
    case((t, "imin0"), lambda: xi.min(axis=0), vi.min(axis=0), "reduce combine")
    case((t, "argmax0"), lambda: xf.argmax(axis=0), vf.argmax(axis=0), "reduce combine")
    case((t, "argmin0 i"), lambda: xi.argmin(axis=0), vi.argmin(axis=0), "reduce combine")
    case((t, "keepdims"), lambda: xi.sum(axis=0, keepdims=True), vi.sum(axis=0, keepdims=True),
         "reduce combine")
    if len(shape) == 3:
        case((t, "sum01"), lambda: xi.sum(axis=(0, 1)), vi.sum(axis=(0, 1)), "reduce combine")
        case((t, "max02"), lambda: xi.max(axis=(0, 2)), vi.max(axis=(0, 2)), "reduce combine")
    if shape[-1] > 1:   # (values only: at small tiles a run of a stepped view's block
        # can cross two tiles, which the device's direct fold leaves to the CPU)
        case((t, "strided"), lambda: xi[..., 1::3].sum(axis=0), vi[..., 1::3].sum(axis=0), None)
        case((t, "reversed max"), lambda: xf[..., ::-2].max(axis=0), vf[..., ::-2].max(axis=0),
             None)
done()
"""


@pytest.mark.parametrize("tiles", [None, "4096"])
@pytest.mark.parametrize("name,code", [("mixed", MIXED), ("ranges", RANGES)])
def test_device_bodies(name, code, tiles):
    env = {"NDTILE_TILE_BYTES": tiles} if tiles else {}
    dev = run(code, **env)
    assert dev["devices"]
    assert dev["bad"] == [], dev["bad"]
    assert dev["trips"] == [], dev["trips"][:10]
    assert dev["placed"] and "cpu" not in dev["placed"], dev["placed"]
    cpu = run(code, devices=None, **env)
    assert cpu["bad"] == [] and not cpu["devices"]
    assert dev["digest"] == cpu["digest"]


def test_cast_scratch_full_falls_back():
    """A device whose memory cannot take a cast's scratch: the task runs on
    the CPU (the plugin's NOMEM before anything is written), with NumPy's
    values."""
    out = run(PRELUDE + """
vi = numpy.arange(200_000) % 1000 - 500
vf = numpy.linspace(-3, 3, 200_000)
xi, xf = np.asarray(vi) + 0, np.asarray(vf) * 1.0
np._core.sync()
lib.ndt_debug_fail_dev_alloc_after(ctypes.c_int64(1))
case("i*f", lambda: xi * xf, vi * vf, "elementwise")
lib.ndt_debug_fail_dev_alloc_after(ctypes.c_int64(0))
case("i*f again", lambda: xi * xf, vi * vf, "elementwise")
done()
""")
    assert out["bad"] == [], out["bad"]


@pytest.mark.parametrize("tiles", [None, "4096"])
def test_short_axis_combines(tiles):
    """Reductions over a short leading axis of arrays of many tiles (the
    combine tasks on the device visit the blocks of their result tile's box
    alone): NumPy's values, the CPU's bits, placed on the devices."""
    env = {"NDTILE_TILE_BYTES": tiles} if tiles else {}
    dev = run(SHORT, **env)
    assert dev["devices"]
    assert dev["bad"] == [], dev["bad"]
    assert dev["placed"] and "cpu" not in dev["placed"], (dev["placed"], dev["trips"][:5])
    cpu = run(SHORT, devices=None, **env)
    assert cpu["bad"] == [] and not cpu["devices"]
    assert dev["digest"] == cpu["digest"]


def test_range_group_one_launch():
    """A device's group of "arange" tasks (the plan's grouped launch) fills
    its tiles in one launch per 128 runs of one dtype: arange(1e6) in 1,954
    tiles of 4 KiB took 1,954 launches, a few dozen now; NumPy's values,
    arange and linspace of several dtypes one after the other."""
    code = """
import numpy, ndtile as np
cases = [(lambda m: m.arange(1_000_000)), (lambda m: m.arange(3, 200_003, dtype="int8")),
         (lambda m: m.linspace(-1, 1, 300_001, dtype="float32")),
         (lambda m: m.arange(0.5, 150_000.5, 0.25))]
for f in cases:
    got, want = numpy.asarray(f(np)), f(numpy)
    assert got.dtype == want.dtype and got.tobytes() == want.tobytes()
print("ok")
"""
    env = {k: v for k, v in os.environ.items() if not k.startswith("NDTILE_")}
    env.update(NDTILE_DEVICES="cuda:0", NDTILE_CUDA_PLUGIN=cudahost_plugin(),
               NDTILE_CUDA_MEM="256M", NDTILE_TILE_BYTES="4096", NDTILE_CUDAHOST_STATS="1")
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stdout + r.stderr
    line = [x for x in r.stderr.splitlines() if " kernel launches, " in x][-1]
    launches = int(line.split()[1])
    tiles = 1954 + 49 + 293 + 147   # (4 KiB tiles of each result)
    assert 0 < launches < tiles // 16, line
