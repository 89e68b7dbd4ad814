"""FFTs on the CUDA plugin through cuFFT (src/runtime/cuda_fft.h), through
the plugin's host build (tests/cudahost: libndtile_cudahost.so, and the
emulated cuFFT next to it, libndtile_cuffthost.so), against NumPy at
default settings (arrays of several tiles: several blocks of lines) and
small tiles: every numpy.fft transform built on the "fft" task (fft,
ifft, rfft, irfft, hfft, ihfft and their 2-d and n-d forms), along each
axis, every norm, n padded and cut, even, odd and prime lengths
(Bluestein's in the emulation), float32/complex64 (transformed in single
precision) and float64/complex128/integer/bool input, strided and reversed
views, an empty axis. Each line is within the bound the plugin states,
||y - y_numpy||_2 <= 8 eps (log2(n) + 1) ||y_numpy||_2 (eps of the
result's precision); dtypes and shapes are NumPy's; the host build's fft
count proves the device ran them. The same bits run to run, with one or
two workers and on cuda:0,cuda:0. Without cuFFT (NDTILE_CUDA_CUFFT
naming no file, or 0) FFTs run on the CPU with the CPU's bits,
NDTILE_VERBOSE=1 says why, and other ops still run on the device. Each
case runs in a child process: devices are chosen when the runtime first
starts."""
import json
import os
import subprocess
import sys
import textwrap

import pytest
from _helpers import cudahost_plugin


pytestmark = pytest.mark.skipif(cudahost_plugin() is None,
                                reason="no libndtile_cudahost.so (make build)")


def run(code, devices="cuda:0,1", **env_add):
    env = {k: v for k, v in os.environ.items() if not k.startswith("NDTILE_")}
    env.update({"NDTILE_DEVICES": devices, "NDTILE_CUDA_PLUGIN": cudahost_plugin(),
                "NDTILE_CUDA_MEM": "128M", "NDTILE_CUDAHOST_STATS": "1"})
    env.update(env_add)
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env,
                          capture_output=True, text=True, timeout=600)


def stat(stderr, what):
    line = stderr.split("cudahost: ")[1].splitlines()[0]
    for part in line.split(", "):
        if part.endswith(what):
            return int(part.split()[0].strip("("))
    raise AssertionError(line)


TRANSFORMS = """
import json, numpy, ndtile as np
rng = numpy.random.default_rng(11)
bad = []
count = [0]
def check(tag, got, want, n, axes):
    count[0] += 1
    got = numpy.asarray(got)
    if got.dtype != want.dtype or got.shape != want.shape:
        bad.append([tag, str(got.dtype), str(want.dtype), got.shape, want.shape])
        return
    eps = numpy.finfo(want.dtype).eps
    # per line along the last transformed axis (n-d forms: a loose total)
    ax = axes[-1]
    g, w = numpy.moveaxis(got, ax, -1), numpy.moveaxis(want, ax, -1)
    err = numpy.linalg.norm((g - w).astype(numpy.complex128), axis=-1)
    ref = numpy.linalg.norm(w.astype(numpy.complex128), axis=-1)
    lg = sum(numpy.log2(max(k, 2)) + 1 for k in n)
    bnd = 8 * eps * lg * ref
    if not numpy.all(err <= bnd):
        bad.append([tag, float(numpy.max(err / numpy.maximum(bnd, 1e-300)))])
def c(shape, dt=numpy.complex128):
    z = rng.standard_normal(shape) + 1j * rng.standard_normal(shape)
    return z.astype(dt)
def r(shape, dt=numpy.float64):
    return rng.standard_normal(shape).astype(dt)
Z = c((300, 1000)); z = np.asarray(Z)          # 4.8 MB: several blocks of lines
for norm in (None, "ortho", "forward"):
    check("fft " + str(norm), np.fft.fft(z, norm=norm), numpy.fft.fft(Z, norm=norm), [1000], [1])
    check("ifft " + str(norm), np.fft.ifft(z, norm=norm), numpy.fft.ifft(Z, norm=norm), [1000], [1])
check("fft axis 0", np.fft.fft(z, axis=0), numpy.fft.fft(Z, axis=0), [300], [0])
check("fft n padded", np.fft.fft(z, n=1200), numpy.fft.fft(Z, n=1200), [1200], [1])
check("fft n cut, prime", np.fft.fft(z, n=997), numpy.fft.fft(Z, n=997), [997], [1])
check("ifft axis 0 n cut", np.fft.ifft(z, n=211, axis=0), numpy.fft.ifft(Z, n=211, axis=0), [211], [0])
check("fft reversed strided view", np.fft.fft(z[::-2, ::3]), numpy.fft.fft(Z[::-2, ::3]), [334], [1])
check("fft transposed", np.fft.fft(z.T), numpy.fft.fft(Z.T), [300], [1])
Z3 = c((40, 60, 50)); z3 = np.asarray(Z3)
check("fft 3-d middle axis", np.fft.fft(z3, axis=1), numpy.fft.fft(Z3, axis=1), [60], [1])
check("fft 3-d middle axis, view", np.fft.fft(z3[:, ::-1, 1:], axis=1, n=64), numpy.fft.fft(Z3[:, ::-1, 1:], axis=1, n=64), [64], [1])
C64 = c((400, 1024), numpy.complex64); c64 = np.asarray(C64)
check("complex64 fft", np.fft.fft(c64), numpy.fft.fft(C64), [1024], [1])
check("complex64 ifft axis 0 odd", np.fft.ifft(c64, axis=0, n=399), numpy.fft.ifft(C64, axis=0, n=399), [399], [0])
R = r((500, 1001)); x = np.asarray(R)
for norm in (None, "ortho", "forward"):
    check("rfft odd " + str(norm), np.fft.rfft(x, norm=norm), numpy.fft.rfft(R, norm=norm), [1001], [1])
    check("irfft even " + str(norm), np.fft.irfft(z, norm=norm), numpy.fft.irfft(Z, norm=norm), [1998], [1])
check("rfft axis 0", np.fft.rfft(x, axis=0), numpy.fft.rfft(R, axis=0), [500], [0])
check("rfft n even padded", np.fft.rfft(x, n=1024), numpy.fft.rfft(R, n=1024), [1024], [1])
check("irfft odd n", np.fft.irfft(z, n=999), numpy.fft.irfft(Z, n=999), [999], [1])
check("irfft n cut", np.fft.irfft(z, n=300), numpy.fft.irfft(Z, n=300), [300], [1])
check("irfft n padded, axis 0", np.fft.irfft(z, n=1000, axis=0), numpy.fft.irfft(Z, n=1000, axis=0), [1000], [0])
R32 = r((600, 2000), numpy.float32); x32 = np.asarray(R32)
check("float32 rfft", np.fft.rfft(x32), numpy.fft.rfft(R32), [2000], [1])
check("float32 fft (complex64)", np.fft.fft(x32, axis=0), numpy.fft.fft(R32, axis=0), [600], [0])
check("complex64 irfft", np.fft.irfft(c64), numpy.fft.irfft(C64), [2046], [1])
check("hfft", np.fft.hfft(z), numpy.fft.hfft(Z), [1998], [1])
check("ihfft", np.fft.ihfft(x), numpy.fft.ihfft(R), [1001], [1])
I = rng.integers(-1000, 1000, (300, 512)); i = np.asarray(I)
check("int64 fft", np.fft.fft(i), numpy.fft.fft(I), [512], [1])
check("int32 rfft", np.fft.rfft(np.asarray(I.astype(numpy.int32)), axis=0), numpy.fft.rfft(I.astype(numpy.int32), axis=0), [300], [0])
B = R > 0
check("bool fft", np.fft.fft(np.asarray(B)), numpy.fft.fft(B), [1001], [1])
check("fft2", np.fft.fft2(z), numpy.fft.fft2(Z), [300, 1000], [0, 1])
check("ifftn", np.fft.ifftn(z3), numpy.fft.ifftn(Z3), [40, 60, 50], [0, 1, 2])
check("rfft2", np.fft.rfft2(x), numpy.fft.rfft2(R), [500, 1001], [0, 1])
check("irfftn", np.fft.irfftn(z3, s=(40, 60, 98)), numpy.fft.irfftn(Z3, s=(40, 60, 98)), [40, 60, 98], [0, 1, 2])
E = numpy.zeros((7, 0)); e = np.asarray(E)
check("empty axis, n given", np.fft.fft(e, n=8), numpy.fft.fft(E, n=8), [8], [1])
check("one line", np.fft.fft(z[3]), numpy.fft.fft(Z[3]), [1000], [0])
out = np.zeros((300, 1000), dtype=numpy.complex128)
np.fft.fft(z, out=out)
check("out=", out, numpy.fft.fft(Z), [1000], [1])
print(json.dumps(bad))
print(count[0])
"""


def test_transforms_run_on_the_device_within_the_bound():
    r = run(TRANSFORMS)
    assert r.returncode == 0, r.stdout + r.stderr
    out = r.stdout.splitlines()
    assert json.loads(out[-2]) == [], out[-2]
    # every transform above ran as cuFFT transforms on the (emulated)
    # device: at least one per check, more for the blocks
    assert stat(r.stderr, "fft launches") >= int(out[-1]), r.stderr
    assert stat(r.stderr, "faults") == 0, r.stderr


def test_transforms_within_the_bound_on_small_tiles():
    # small tiles: many blocks of few lines, lines longer than a tile
    r = run(TRANSFORMS, NDTILE_TILE_BYTES="64k")
    assert r.returncode == 0, r.stdout + r.stderr
    out = r.stdout.splitlines()
    assert json.loads(out[-2]) == [], out[-2]
    assert stat(r.stderr, "fft launches") >= int(out[-1]), r.stderr
    assert stat(r.stderr, "faults") == 0, r.stderr


SAME = """
import hashlib, numpy, ndtile as np
rng = numpy.random.default_rng(3)
Z = rng.standard_normal((300, 1000)) + 1j * rng.standard_normal((300, 1000))
R = rng.standard_normal((500, 1001)).astype(numpy.float32)
z, x = np.asarray(Z), np.asarray(R)
h = hashlib.sha1()
for y in (np.fft.fft(z), np.fft.ifft(z, axis=0, n=301), np.fft.rfft(x), np.fft.irfft(z, n=997),
          np.fft.fft2(x), np.fft.hfft(z[:, ::-3])):
    h.update(numpy.asarray(y).tobytes())
print(h.hexdigest())
"""


def test_transforms_are_the_same_bits_run_to_run_with_any_workers_and_devices():
    got = [run(SAME, NDTILE_WORKERS=str(w)) for w in (1, 2, 2)]
    got.append(run(SAME, devices="cuda:0,cuda:0"))
    got.append(run(SAME, devices="cuda:0"))
    for r in got:
        assert r.returncode == 0, r.stdout + r.stderr
        assert stat(r.stderr, "fft launches") > 0, r.stderr
    assert len({r.stdout.split()[-1] for r in got}) == 1, [r.stdout for r in got]


def test_without_cufft_ffts_run_on_the_cpu_and_the_rest_on_the_device():
    code = SAME + """
s = numpy.asarray(z * 2 + 1)            # an elementwise op: the device's kernels
print(bool(numpy.array_equal(s, Z * 2 + 1)))
"""
    cpu = run(SAME, devices="none")
    assert cpu.returncode == 0, cpu.stdout + cpu.stderr
    for setting, why in (("/nonexistent/libcufft.so.12", "cuFFT could not be loaded"),
                         ("0", "NDTILE_CUDA_CUFFT=0")):
        r = run(code, NDTILE_CUDA_CUFFT=setting, NDTILE_VERBOSE="1")
        assert r.returncode == 0, r.stdout + r.stderr
        out = r.stdout.split()
        assert out[-1] == "True", r.stdout
        assert out[-2] == cpu.stdout.split()[-1], (r.stdout, cpu.stdout)   # the CPU's bits
        assert why in r.stderr and setting in r.stderr, r.stderr
        assert stat(r.stderr, "fft launches") == 0, r.stderr
        assert stat(r.stderr, "kernel launches") > 0, r.stderr   # the rest ran on the device
    r = run(code, NDTILE_VERBOSE="1")
    assert r.returncode == 0 and "cuFFT loaded for FFTs" in r.stderr, r.stderr
    assert stat(r.stderr, "fft launches") > 0, r.stderr
    assert r.stdout.split()[-2] != cpu.stdout.split()[-1]   # cuFFT's bits, not the CPU's


def test_a_fault_in_an_fft_disables_the_device_and_the_program_goes_on():
    code = """
        import numpy, ndtile as np
        rng = numpy.random.default_rng(1)
        Z = rng.standard_normal((300, 1000)) + 1j * rng.standard_normal((300, 1000))
        z = np.asarray(Z)
        try:
            numpy.asarray(np.fft.fft(z))
            print("no error")
        except RuntimeError as e:
            print("error")
        print(numpy.allclose(numpy.asarray(np.fft.fft(z)), numpy.fft.fft(Z)))
    """
    # the second kernel launch: a pack, a cuFFT transform or an unpack of
    # the first FFT's tasks
    r = run(code, NDTILE_CUDAHOST_FAIL="kernel:2")
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.split() == ["error", "True"], r.stdout + r.stderr
    assert "failed in an FFT" in r.stderr, r.stderr
    assert stat(r.stderr, "faults") == 1, r.stderr
