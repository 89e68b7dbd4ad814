"""Matrix products on the CUDA plugin through cuBLAS (src/runtime/
cuda_matmul.h), through the plugin's host build (tests/cudahost:
libndtile_cudahost.so, and the emulated cuBLAS next to it,
libndtile_cublashost.so), against NumPy at default settings: matrices of
several tiles (several blocks, K pieces, a staging buffer, packed
operands), transposed and strided views, batched @, dot, matrix-vector
products, mixed dtypes, integer and bool products (the plugin's own
kernel). Float results are within the bound the plugin states,
|C - C_numpy| <= 2 (K + 2) eps (|A| |B|), dtypes and shapes are NumPy's,
integers exact (wrapping as NumPy's); the host build's gemm count proves the device
ran them. Without cuBLAS (NDTILE_CUDA_CUBLAS naming no file) the products
run on the CPU, NDTILE_VERBOSE=1 says why, and other ops still run on the
device. Each case runs in a child process: devices are chosen when the
runtime first starts."""
import json
import os
import subprocess
import sys
import textwrap

import pytest
from _helpers import cudahost_plugin


pytestmark = pytest.mark.skipif(cudahost_plugin() is None,
                                reason="no libndtile_cudahost.so (make build)")


def run(code, **env_add):
    env = {k: v for k, v in os.environ.items() if not k.startswith("NDTILE_")}
    env.update({"NDTILE_DEVICES": "cuda:0,1", "NDTILE_CUDA_PLUGIN": cudahost_plugin(),
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


PRODUCTS = """
import json, numpy, ndtile as np
rng = numpy.random.default_rng(7)
bad = []
def bound(a, b):
    a, b = numpy.asarray(a), numpy.asarray(b)
    k = a.shape[-1]
    eps = numpy.finfo(numpy.result_type(a, b, numpy.float32)).eps
    return 2 * (k + 2) * eps * numpy.matmul(numpy.abs(a).astype(float), numpy.abs(b).astype(float))
def check(tag, got, want, a, b, dot=False):
    got = numpy.asarray(got)
    if got.dtype != want.dtype or got.shape != want.shape:
        bad.append([tag, str(got.dtype), str(want.dtype), got.shape, want.shape])
        return
    if want.dtype.kind in "iub":
        if not numpy.array_equal(got, want):
            bad.append([tag, "not exact"])
        return
    bnd = numpy.dot(*[numpy.abs(numpy.asarray(x)).astype(float) for x in (a, b)]) if dot else bound(a, b)
    if dot:
        bnd = bnd * 2 * (numpy.asarray(a).shape[-1] + 2) * numpy.finfo(numpy.result_type(a, b)).eps
    err = numpy.abs(got - want)
    if not numpy.all(err <= bnd):
        bad.append([tag, float(numpy.max(err / numpy.maximum(bnd, 1e-300)))])
X = rng.standard_normal((1000, 2000)); Y = rng.standard_normal((2000, 1000))
x, y = np.asarray(X), np.asarray(Y)
# 16 MB operands: two row blocks at 2 MiB tiles; a strided B is packed
check("float64", x[:700, :900] @ y[:900, :800], X[:700, :900] @ Y[:900, :800], X[:700, :900], Y[:900, :800])
check("transposed views", x.T[::2] @ y.T[:, ::2], X.T[::2] @ Y.T[:, ::2], X.T[::2], Y.T[:, ::2])
check("strided B (packed)", x @ y[:, ::2], X @ Y[:, ::2], X, Y[:, ::2])
# a wide output: column blocks written to a staging buffer, then copied out
W = rng.standard_normal((300, 9000))
check("wide (staging, copy-out)", x[:100, :300] @ np.asarray(W), X[:100, :300] @ W, X[:100, :300], W)
# a long K: the blocks walk K pieces
L1, L2 = rng.standard_normal((10, 50000)), rng.standard_normal((50000, 100))
check("long K (K pieces)", np.asarray(L1) @ np.asarray(L2), L1 @ L2, L1, L2)
F = rng.standard_normal((6, 300, 400)).astype(numpy.float32)
G = rng.standard_normal((6, 400, 250)).astype(numpy.float32)
f, g = np.asarray(F), np.asarray(G)
check("float32 batched", f @ g, F @ G, F, G)
check("float32 batched, B broadcast", f @ g[0], F @ G[0], F, G[0])
check("float32 batched, transposed", f.transpose(0, 2, 1) @ np.asarray(F), F.transpose(0, 2, 1) @ F, F.transpose(0, 2, 1), F)
Z = rng.standard_normal((500, 600)) + 1j * rng.standard_normal((500, 600))
z = np.asarray(Z)
check("complex128 Z^T Z", z.T @ z, Z.T @ Z, Z.T, Z)
Zc = Z.astype(numpy.complex64)
check("complex64", np.asarray(Zc) @ np.asarray(Zc).T, Zc @ Zc.T, Zc, Zc.T)
check("complex .real @ .imag^T", z.real @ z.imag.T, Z.real @ Z.imag.T, Z.real, Z.imag.T)
check("float32 @ float64", f[0] @ y[:400, :300], F[0] @ Y[:400, :300], F[0], Y[:400, :300])
I = rng.integers(-1000, 1000, (400, 500)); J = rng.integers(-1000, 1000, (500, 300)).astype(numpy.int32)
check("int64 @ int32 (exact)", np.asarray(I) @ np.asarray(J), I @ J, I, J)
v = rng.standard_normal(2000)
check("matrix-vector", x @ np.asarray(v), X @ v, X, v)
check("vector-matrix", np.asarray(v[:1000]) @ x, v[:1000] @ X, v[:1000], X)
V2 = numpy.tile(v, 3)
check("matrix-vector, strided vector", x @ np.asarray(V2)[::3], X @ V2[::3], X, V2[::3])
check("float32 matrix-vector", f[1] @ np.asarray(F[2, 0]), F[1] @ F[2, 0], F[1], F[2, 0])
check("dot 2-d", np.dot(x[:500], y[:, :600]), numpy.dot(X[:500], Y[:, :600]), X[:500], Y[:, :600])
check("dot N-d", np.dot(f[:2], g[:3]), numpy.dot(F[:2], G[:3]), F[:2], G[:3], dot=True)
out = np.zeros((700, 800))
np.matmul(x[:700, :900], y[:900, :800], out=out)
check("out=", out, X[:700, :900] @ Y[:900, :800], X[:700, :900], Y[:900, :800])
# an out= view with gaps: the elements between keep their values
for sl in ((slice(None, None, 2), slice(None)), (slice(None, None, -2), slice(None, None, -1))):
    o = numpy.full((1800, 1400), 7.0); ob = np.asarray(o)
    np.matmul(x[:900, :1100], y[:1100, :700], out=ob[sl][:, :700])
    numpy.matmul(X[:900, :1100], Y[:1100, :700], out=o[sl][:, :700])
    got, want = numpy.asarray(ob), o.copy()
    tag = "out= with gaps " + str(sl[0].step)
    check(tag, got[sl][:, :700], want[sl][:, :700], X[:900, :1100], Y[:1100, :700])
    got[sl][:, :700] = 0
    want[sl][:, :700] = 0
    if not numpy.array_equal(got, want):
        bad.append([tag, "the elements between changed"])
# a single row or column (gathered as a column: its leading dimension)
check("one column", x[:900] @ y[:, :1], X[:900] @ Y[:, :1], X[:900], Y[:, :1])
check("one row", x[:1] @ y, X[:1] @ Y, X[:1], Y)
I8 = rng.integers(-5, 5, (600, 2000)).astype(numpy.int8)
check("int8 @ float32 (cast in the gathers)", np.asarray(I8) @ np.asarray(Y[:, :300].astype(numpy.float32)), I8 @ Y[:, :300].astype(numpy.float32), I8, Y[:, :300].astype(numpy.float32))
I8b = rng.integers(-128, 127, (600, 3000)).astype(numpy.int8)
check("int8 (wrapping)", np.asarray(I8b) @ np.asarray(I8b.T), I8b @ I8b.T, I8b, I8b.T)
U2 = rng.integers(0, 65535, (10, 60000)).astype(numpy.uint16)
U3 = rng.integers(0, 65535, (60000, 40)).astype(numpy.uint16)
check("uint16, K pieces (wrapping)", np.asarray(U2) @ np.asarray(U3), U2 @ U3, U2, U3)
Bo = X[:600] > 0
check("bool @ float64", np.asarray(Bo) @ y, Bo @ Y, Bo, Y)
check("bool @ bool (or of ands)", np.asarray(Bo) @ np.asarray(Bo.T), Bo @ Bo.T, Bo, Bo.T)
print(json.dumps(bad))
print(json.dumps(np._core.device_stats()))
"""


def test_products_run_on_the_device_within_the_bound():
    r = run(PRODUCTS)
    assert r.returncode == 0, r.stdout + r.stderr
    out = r.stdout.splitlines()
    assert json.loads(out[-2]) == [], out[-2]
    # every float product above ran as gemms on the (emulated) device:
    # at least one per product, more for the blocks and K pieces
    assert stat(r.stderr, "gemm launches") >= 40, r.stderr
    assert stat(r.stderr, "faults") == 0, r.stderr


def test_products_are_the_same_bits_run_to_run_and_with_one_or_two_workers():
    code = """
        import hashlib, numpy, ndtile as np
        rng = numpy.random.default_rng(3)
        X = rng.standard_normal((1000, 2000)); W = rng.standard_normal((300, 9000))
        F = rng.standard_normal((6, 300, 400)).astype(numpy.float32)
        x, f = np.asarray(X), np.asarray(F)
        h = hashlib.sha1()
        for r in (x @ x.T, x.T[::2] @ x[:, ::2], x[:100, :300] @ np.asarray(W), f @ f.transpose(0, 2, 1),
                  x @ x[0], x[:, 0] @ x):
            h.update(numpy.asarray(r).tobytes())
        print(h.hexdigest())
    """
    got = [run(code, NDTILE_WORKERS=str(w)) for w in (1, 2, 2)]
    for r in got:
        assert r.returncode == 0, r.stdout + r.stderr
        assert stat(r.stderr, "gemm launches") > 0, r.stderr
    assert len({r.stdout.split()[-1] for r in got}) == 1, [r.stdout for r in got]


def test_without_cublas_products_run_on_the_cpu_and_the_rest_on_the_device():
    code = """
        import json, numpy, ndtile as np
        rng = numpy.random.default_rng(4)
        X = rng.standard_normal((800, 1000)); v = rng.standard_normal(1000)
        x = np.asarray(X)
        got = numpy.asarray(x @ x.T); gv = numpy.asarray(x @ np.asarray(v))
        ok = numpy.allclose(got, X @ X.T, rtol=1e-12, atol=1e-9) and numpy.allclose(gv, X @ v)
        s = numpy.asarray(x * 2 + 1)            # an elementwise op: the device's kernels
        print(json.dumps([bool(ok), bool(numpy.array_equal(s, X * 2 + 1))]))
    """
    r = run(code, NDTILE_CUDA_CUBLAS="/nonexistent/libcublas.so.13", NDTILE_VERBOSE="1")
    assert r.returncode == 0, r.stdout + r.stderr
    assert json.loads(r.stdout.splitlines()[-1]) == [True, True], r.stdout
    assert "cuBLAS could not be loaded" in r.stderr and "/nonexistent/libcublas.so.13" in r.stderr
    assert stat(r.stderr, "gemm launches") == 0, r.stderr
    assert stat(r.stderr, "kernel launches") > 0, r.stderr   # the rest ran on the device
    r = run(code, NDTILE_VERBOSE="1")
    assert r.returncode == 0 and "cuBLAS loaded for matrix products (TF32 off)" in r.stderr, r.stderr
    assert stat(r.stderr, "gemm launches") > 0, r.stderr


def test_cublas_out_of_memory_runs_the_product_on_the_cpu():
    """A gemm cuBLAS cannot get device memory for (CUBLAS_STATUS_ALLOC_FAILED,
    injected in the emulated cuBLAS) is the core's out-of-memory fallback:
    that task runs on the CPU, no error, no device disabled, the later
    products on the device again."""
    code = """
        import json, numpy, ndtile as np
        rng = numpy.random.default_rng(6)
        X = rng.standard_normal((300, 400)); Y = rng.standard_normal((400, 200))
        x, y = np.asarray(X), np.asarray(Y)
        ok = []
        for _ in range(3):
            got = numpy.asarray(x @ y)
            ok.append(bool(numpy.allclose(got, X @ Y, rtol=1e-12, atol=1e-10)))
        print(json.dumps(ok))
    """
    r = run(code, NDTILE_CUDAHOST_FAIL="gemm:1", NDTILE_VERBOSE="1")
    assert r.returncode == 0, r.stdout + r.stderr
    assert json.loads(r.stdout.splitlines()[-1]) == [True] * 3, r.stdout
    assert "disabled" not in r.stderr and stat(r.stderr, "faults") == 0, r.stderr
    assert stat(r.stderr, "gemm launches") >= 2, r.stderr     # the later products: the device


def test_tf32_only_when_asked():
    code = """
        import hashlib, numpy, ndtile as np
        rng = numpy.random.default_rng(5)
        F = rng.standard_normal((700, 900)).astype(numpy.float32)
        f = np.asarray(F)
        r = numpy.asarray(f @ f.T)
        err = numpy.max(numpy.abs(r - (F.astype(float) @ F.T.astype(float))))
        print(hashlib.sha1(r.tobytes()).hexdigest(), err)
    """
    off, on = run(code), run(code, NDTILE_CUDA_TF32="1")
    assert off.returncode == 0 and on.returncode == 0, off.stderr + on.stderr
    (h0, e0), (h1, e1) = off.stdout.split(), on.stdout.split()
    # TF32 keeps 10 bits of mantissa: its products are much further off
    assert h0 != h1 and float(e1) > 10 * float(e0), (off.stdout, on.stdout)
