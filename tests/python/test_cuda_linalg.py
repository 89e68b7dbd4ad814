"""solve, inv and cholesky on the CUDA plugin through cuSOLVER
(src/runtime/cuda_linalg.h), through the plugin's host build
(tests/cudahost: libndtile_cudahost.so, and the emulated cuSOLVER next to
it, libndtile_cusolverhost.so), against NumPy at default settings (stacks
of several tiles: several tasks) and small tiles: stacks of small
matrices and one larger matrix, float64, float32 (single results),
complex128, complex64 and integer input, broadcast and strided operands,
vector right-hand sides, upper and lower factors. Each matrix is within
the bound the plugin states, ||X - X_numpy||_F <= 8 n eps cond(A)
||X_numpy||_F; dtypes and shapes are NumPy's; singular matrices (a zero
pivot; a NaN gives NaNs, as NumPy) raise LinAlgError("Singular matrix") and matrices that
are not positive definite LinAlgError("Matrix is not positive
definite"), as the CPU; the host build's solver count proves the device
ran them: stacks of matrices of order <= 32 through the batched calls
("batched solver launches": cuBLAS's getrf/getrs/getriBatched,
cuSOLVER's potrfBatched), larger ones one cuSOLVER call per matrix
("solver launches"). The same bits run to run and with one or two workers.
Without cuSOLVER (NDTILE_CUDA_CUSOLVER naming no file, or 0) they run on
the CPU with the CPU's bits; without cuBLAS, solve and inv go per matrix
through cuSOLVER. Each case runs in a child process: devices are chosen
when the runtime first starts."""
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
        num, _, name = part.partition(" ")
        if name == what:   # ("solver launches" is not "batched solver launches")
            return int(num.strip("("))
    raise AssertionError(line)


SOLVES = """
import json, numpy, ndtile as np
rng = numpy.random.default_rng(5)
bad = []
count = [0]
def check(tag, got, want, A):
    count[0] += 1
    got = numpy.asarray(got)
    if got.dtype != want.dtype or got.shape != want.shape:
        bad.append([tag, str(got.dtype), str(want.dtype), got.shape, want.shape])
        return
    A = numpy.asarray(A)
    n = A.shape[-1]
    eps = numpy.finfo(want.dtype).eps
    g, w = got.astype(numpy.complex128), want.astype(numpy.complex128)
    if w.ndim == A.ndim - 1:    # vectors
        g, w = g[..., None], w[..., None]
    err = numpy.linalg.norm(g - w, axis=(-2, -1))
    ref = numpy.linalg.norm(w, axis=(-2, -1))
    bnd = 8 * n * eps * numpy.linalg.cond(A.astype(numpy.complex128)) * ref
    bnd = numpy.broadcast_to(bnd, err.shape)
    if not numpy.all(err <= bnd):
        bad.append([tag, float(numpy.max(err / numpy.maximum(bnd, 1e-300)))])
def m(shape, dt=numpy.float64):
    n = shape[-1]
    x = rng.standard_normal(shape) + n * numpy.eye(n)
    if numpy.dtype(dt).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dt)
A = m((6000, 8, 8)); a = np.asarray(A)          # 3 MB: several tasks
B = rng.standard_normal((6000, 8, 3)); b = np.asarray(B)
check("solve", np.linalg.solve(a, b), numpy.linalg.solve(A, B), A)
check("inv", np.linalg.inv(a), numpy.linalg.inv(A), A)
S = A @ A.transpose(0, 2, 1); s = np.asarray(S)
check("cholesky", np.linalg.cholesky(s), numpy.linalg.cholesky(S), S)
check("cholesky upper", np.linalg.cholesky(s, upper=True), numpy.linalg.cholesky(S, upper=True), S)
check("solve, b broadcast", np.linalg.solve(a, b[0]), numpy.linalg.solve(A, B[0]), A)
check("solve, a broadcast", np.linalg.solve(a[0], b), numpy.linalg.solve(A[0], B), A[0])
check("solve, vector b", np.linalg.solve(a[5], np.asarray(B[5, :, 0])), numpy.linalg.solve(A[5], B[5, :, 0]), A[5])
check("inv, reversed strided view", np.linalg.inv(a[::-3, ::-1]), numpy.linalg.inv(A[::-3, ::-1]), A[::-3, ::-1])
check("inv, transposed", np.linalg.inv(a.transpose(0, 2, 1)), numpy.linalg.inv(A.transpose(0, 2, 1)), A.transpose(0, 2, 1))
F = m((3000, 6, 6), numpy.float32); f = np.asarray(F)
check("float32 inv", np.linalg.inv(f), numpy.linalg.inv(F), F)
check("float32 solve", np.linalg.solve(f, np.asarray(B[:3000, :6].astype(numpy.float32))), numpy.linalg.solve(F, B[:3000, :6].astype(numpy.float32)), F)
Z = m((2000, 7, 7), numpy.complex128); z = np.asarray(Z)
check("complex128 inv", np.linalg.inv(z), numpy.linalg.inv(Z), Z)
H = Z @ Z.conj().transpose(0, 2, 1); h = np.asarray(H)
check("complex128 cholesky", np.linalg.cholesky(h), numpy.linalg.cholesky(H), H)
check("complex128 cholesky upper", np.linalg.cholesky(h, upper=True), numpy.linalg.cholesky(H, upper=True), H)
C = m((2000, 5, 5), numpy.complex64); c = np.asarray(C)
check("complex64 solve", np.linalg.solve(c, c), numpy.linalg.solve(C, C), C)
I = rng.integers(-9, 9, (500, 4, 4)) + 40 * numpy.eye(4, dtype=numpy.int64)
check("int64 inv", np.linalg.inv(np.asarray(I)), numpy.linalg.inv(I), I)
L = m((300, 300)); l = np.asarray(L)
check("one larger matrix", np.linalg.inv(l), numpy.linalg.inv(L), L)
check("one larger solve", np.linalg.solve(l, np.asarray(B[:300, 0])), numpy.linalg.solve(L, B[:300, 0]), L)
errs = []
for tag, f, x in (("singular", np.linalg.inv, numpy.where(numpy.arange(6000)[:, None, None] == 4321, 0.0, A)),
                  ("nan", lambda x: np.linalg.solve(x, b), numpy.where((numpy.arange(6000)[:, None, None] == 77) & (numpy.arange(8) == 2), numpy.nan, A)),
                  ("not positive definite", np.linalg.cholesky, numpy.where(numpy.arange(6000)[:, None, None] == 5000, -S, S))):
    try:
        numpy.asarray(f(np.asarray(x)))
        errs.append([tag, "no error"])
    except numpy.linalg.LinAlgError as e:
        errs.append([tag, str(e)])
print(json.dumps(errs))
print(json.dumps(bad))
print(count[0])
"""


def test_solve_inv_cholesky_run_on_the_device_within_the_bound():
    r = run(SOLVES)
    assert r.returncode == 0, r.stdout + r.stderr
    out = r.stdout.splitlines()
    assert json.loads(out[-2]) == [], out[-2]
    assert json.loads(out[-3]) == [["singular", "Singular matrix"], ["nan", "no error"],
                                   ["not positive definite", "Matrix is not positive definite"]]
    # the stacks of small matrices in a few batched calls per block, the
    # 300 x 300 matrix (inv and solve: getrf + getrs each) per matrix
    assert 0 < stat(r.stderr, "batched solver launches") < 6000, r.stderr
    assert stat(r.stderr, "solver launches") == 4, r.stderr
    assert stat(r.stderr, "faults") == 0, r.stderr


def test_solve_inv_cholesky_within_the_bound_on_small_tiles():
    r = run(SOLVES, NDTILE_TILE_BYTES="64k")
    assert r.returncode == 0, r.stdout + r.stderr
    out = r.stdout.splitlines()
    assert json.loads(out[-2]) == [], out[-2]
    assert stat(r.stderr, "batched solver launches") > 0, r.stderr
    assert stat(r.stderr, "solver launches") == 4, r.stderr


SAME = """
import hashlib, numpy, ndtile as np
rng = numpy.random.default_rng(3)
A = rng.standard_normal((3000, 8, 8)) + 8 * numpy.eye(8)
Z = A[:500, :5, :5] + 1j * rng.standard_normal((500, 5, 5))
a, z = np.asarray(A), np.asarray(Z)
s = np.asarray(A @ A.transpose(0, 2, 1))   # (NumPy's product: a device's would be cuBLAS's bits)
h = hashlib.sha1()
for y in (np.linalg.inv(a), np.linalg.solve(a, a[:, :, :2]), np.linalg.cholesky(s),
          np.linalg.inv(z), np.linalg.inv(np.asarray(A[:1000].astype(numpy.float32)))):
    h.update(numpy.asarray(y).tobytes())
print(h.hexdigest())
"""


def test_the_same_bits_run_to_run_and_with_one_or_two_workers():
    got = [run(SAME, NDTILE_WORKERS=str(w)) for w in (1, 2, 2)]
    got.append(run(SAME, devices="cuda:0,cuda:0"))
    for r in got:
        assert r.returncode == 0, r.stdout + r.stderr
        assert stat(r.stderr, "batched solver launches") > 0, r.stderr
    assert len({r.stdout.split()[-1] for r in got}) == 1, [r.stdout for r in got]


def test_without_cusolver_they_run_on_the_cpu_and_the_rest_on_the_device():
    code = SAME + """
s = numpy.asarray(a * 2 + 1)            # an elementwise op: the device's kernels
print(bool(numpy.array_equal(s, A * 2 + 1)))
"""
    cpu = run(SAME, devices="none")
    assert cpu.returncode == 0, cpu.stdout + cpu.stderr
    for setting, why in (("/nonexistent/libcusolver.so.12", "cuSOLVER could not be loaded"),
                         ("0", "NDTILE_CUDA_CUSOLVER=0")):
        r = run(code, NDTILE_CUDA_CUSOLVER=setting, NDTILE_VERBOSE="1")
        assert r.returncode == 0, r.stdout + r.stderr
        out = r.stdout.split()
        assert out[-1] == "True", r.stdout
        assert out[-2] == cpu.stdout.split()[-1], (r.stdout, cpu.stdout)   # the CPU's bits
        assert why in r.stderr and setting in r.stderr, r.stderr
        assert stat(r.stderr, "solver launches") == 0, r.stderr
        assert stat(r.stderr, "batched solver launches") == 0, r.stderr
        assert stat(r.stderr, "kernel launches") > 0, r.stderr   # the rest ran on the device
    r = run(code, NDTILE_VERBOSE="1")
    assert r.returncode == 0 and "cuSOLVER loaded for solve, inv and cholesky" in r.stderr, r.stderr
    assert stat(r.stderr, "batched solver launches") > 0, r.stderr
    assert r.stdout.split()[-2] != cpu.stdout.split()[-1]   # cuSOLVER's bits, not the CPU's


# Stacks of many small matrices (order 1..8, and 32, the largest the
# batched calls take), each stack more than one tile (several blocks, one
# batched call or two per block: 2 MiB tiles at default settings; at 64 KiB
# tiles the stacks are sized to the tile, the same blocks per stack with
# 1/32 of the matrices, where 2 MiB stacks made this the slowest CPU test
# of the suite's device modules), in all four dtypes, plain,
# reversed-strided and transposed; order 33 goes one cuSOLVER call per
# matrix (70 matrices: inv and solve 2 calls each, the two choleskys 1:
# 420).
BATCHED = SOLVES.split("A = m((6000")[0] + """
def spd(shape, dt):
    x = m(shape, dt).astype(numpy.complex128 if numpy.dtype(dt).kind == "c" else numpy.float64)
    return (x @ x.conj().transpose(0, 2, 1) + shape[-1] * numpy.eye(shape[-1])).astype(dt)
TILE = np._core.tile_bytes()
def stack(n, dt):    # matrices enough for more than one tile (2 MiB at default settings)
    return (TILE + TILE // 16) // (n * n * numpy.dtype(dt).itemsize) + 1
def cases(dt, n, q, views=False):
    A = m((q, n, n), dt); a = np.asarray(A)
    B = rng.standard_normal((q, n, 2)).astype(dt); b = np.asarray(B)
    S = spd((q, n, n), dt); s = np.asarray(S)
    tag = "%s n=%d" % (numpy.dtype(dt).name, n)
    check(tag + " inv", np.linalg.inv(a), numpy.linalg.inv(A), A)
    check(tag + " solve", np.linalg.solve(a, b), numpy.linalg.solve(A, B), A)
    check(tag + " cholesky", np.linalg.cholesky(s), numpy.linalg.cholesky(S), S)
    check(tag + " cholesky upper", np.linalg.cholesky(s, upper=True), numpy.linalg.cholesky(S, upper=True), S)
    if views:
        check(tag + " inv reversed strided", np.linalg.inv(a[::-2]), numpy.linalg.inv(A[::-2]), A[::-2])
        check(tag + " inv transposed", np.linalg.inv(a.transpose(0, 2, 1)), numpy.linalg.inv(A.transpose(0, 2, 1)), A.transpose(0, 2, 1))
        check(tag + " solve transposed, b strided", np.linalg.solve(a.transpose(0, 2, 1), b[::-1, :, ::-2]),
              numpy.linalg.solve(A.transpose(0, 2, 1), B[::-1, :, ::-2]), A.transpose(0, 2, 1))
        check(tag + " cholesky reversed", np.linalg.cholesky(s[::-3]), numpy.linalg.cholesky(S[::-3]), S[::-3])
for n in range(1, 9):
    cases(numpy.float64, n, stack(n, numpy.float64), views=n in (4, 7))
for dt in (numpy.float32, numpy.complex64, numpy.complex128):
    for n in (1, 3, 8):
        cases(dt, n, stack(n, dt), views=n == 3)
cases(numpy.float64, 32, 300)
cases(numpy.float64, 33, 70)
errs = []
A = m((stack(4, numpy.float64), 4, 4)); S = spd(A.shape, numpy.float64)
Z = m((stack(3, numpy.complex64), 3, 3), numpy.complex64)
A33 = m((70, 33, 33))
k = len(A) * 5 // 7     # (12435 of 17409 at 2 MiB tiles)
rows = numpy.where(numpy.arange(len(A))[:, None, None] == k, A[:, :1, :], A[:, 1:2, :])
sing = A.copy(); sing[:, 1:2, :] = rows   # matrix k: rows 0 and 1 equal (an exact zero pivot)
zc = Z.copy(); zc[len(Z) - 3] = 0
s33 = A33.copy(); s33[41] = 0
nan = A.copy(); nan[len(A) // 22, 2, 2] = numpy.nan
npd = S.copy(); npd[len(A) * 6 // 7] = -S[len(A) * 6 // 7]
for tag, f, x in (("singular inv", lambda L, x: L.linalg.inv(x), sing),
                  ("singular solve", lambda L, x: L.linalg.solve(x, x[..., :1]), sing),
                  ("singular complex64", lambda L, x: L.linalg.inv(x), zc),
                  ("singular n=33", lambda L, x: L.linalg.inv(x), s33),
                  ("nan", lambda L, x: L.linalg.inv(x), nan),
                  ("not positive definite", lambda L, x: L.linalg.cholesky(x), npd)):
    got = [tag]
    for L in (np, numpy):
        try:
            numpy.asarray(f(L, L.asarray(x)))
            got.append("no error")
        except numpy.linalg.LinAlgError as e:
            got.append(str(e))
    errs.append(got)
print(json.dumps(errs))
print(json.dumps(bad))
print(count[0])
"""


def check_batched(r):
    assert r.returncode == 0, r.stdout + r.stderr
    out = r.stdout.splitlines()
    assert json.loads(out[-2]) == [], out[-2]
    assert int(out[-1]) == (8 + 2 + 9 + 3 + 2) * 4, out[-1]
    singular, pd = "Singular matrix", "Matrix is not positive definite"
    errs = json.loads(out[-3])
    assert errs == [
        ["singular inv", singular, singular], ["singular solve", singular, singular],
        ["singular complex64", singular, singular], ["singular n=33", singular, singular],
        ["nan", "no error", "no error"], ["not positive definite", pd, pd]], out[-3]
    assert stat(r.stderr, "faults") == 0, r.stderr


@pytest.mark.parametrize("tile", [None, "64k"])
def test_stacks_of_small_matrices_go_through_the_batched_calls(tile):
    r = run(BATCHED, **({"NDTILE_TILE_BYTES": tile} if tile else {}))
    check_batched(r)
    # order <= 32: batched calls; order 33: 420 calls per matrix, and the
    # singular stack of order 33 (its inv: up to 70 getrf + 70 getrs)
    assert 420 <= stat(r.stderr, "solver launches") <= 420 + 140, r.stderr
    assert stat(r.stderr, "batched solver launches") > 0, r.stderr


def test_without_cublas_solve_and_inv_go_per_matrix_through_cusolver():
    # at 64 KiB tiles: stacks sized to the tile, the same blocks per stack
    # as at 2 MiB (whose stacks the batched run above takes), the same
    # per-matrix path (at 2 MiB tiles this was the module's slowest test)
    r = run(BATCHED, NDTILE_CUDA_CUBLAS="/nonexistent/libcublas.so.13", NDTILE_VERBOSE="1",
            NDTILE_TILE_BYTES="64k")
    check_batched(r)
    assert "cuBLAS could not be loaded" in r.stderr, r.stderr
    assert stat(r.stderr, "solver launches") > 100000, r.stderr   # per matrix
    assert stat(r.stderr, "batched solver launches") > 0, r.stderr   # cholesky's potrfBatched
