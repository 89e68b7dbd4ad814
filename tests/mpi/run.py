"""The multi-rank tests (make test-mpi): the same programs on 1, 2, 3 and 4
ranks must give the bits of a plain single-process run, and a failure on
one rank must stop all of them.

    python tests/mpi/run.py [--ranks 1,2,3,4] [--pytest-ranks 2]

Needs mpirun (Open MPI or MPICH). Ranks share this machine's cores, so each
rank gets one worker.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import numpy

from launch import mpirun_command  # noqa: E402 (tests/mpi/launch.py)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PY = sys.executable
failures = []


def mpirun(n):
    cmd = mpirun_command(n)
    if cmd is None:
        sys.exit("test-mpi: no mpirun/mpiexec on PATH (tools/setup.sh installs Open MPI)")
    return cmd


def run(cmd, timeout, env=None):
    e = dict(os.environ, NDTILE_WORKERS='1')
    e.update(env or {})
    t0 = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=e)
    return p, time.time() - t0


def check(name, ok, detail=''):
    print(f"{'ok  ' if ok else 'FAIL'} {name}" + (f": {detail}" if detail and not ok else ''))
    if not ok:
        failures.append(name)


def same_bits(f1, f2):
    a, b = numpy.load(f1), numpy.load(f2)
    if sorted(a.files) != sorted(b.files):
        return f"different result names: {set(a.files) ^ set(b.files)}"
    for k in a.files:
        x, y = a[k], b[k]
        if x.dtype != y.dtype or x.shape != y.shape or x.tobytes() != y.tobytes():
            return f"{k} differs"
    return ''


def bits_test(label, cmd_args, ranks, tmp):
    """The program writes OUT; every rank count must write the same bits."""
    ext = '.npz' if label == 'python' else '.txt'
    ref = os.path.join(tmp, f'{label}-plain{ext}')
    quiet = {'NDTILE_FALLBACK': 'ignore'}
    p, dt = run(cmd_args + [ref], 600, quiet)
    check(f"{label}: plain process ({dt:.1f} s)", p.returncode == 0, p.stderr[-3000:])
    if p.returncode:
        return
    for n in ranks:
        path = os.path.join(tmp, f'{label}-{n}{ext}')
        p, dt = run(mpirun(n) + cmd_args + [path], 900, quiet)
        ok = p.returncode == 0
        why = p.stderr[-3000:] + p.stdout[-2000:]
        if ok:
            why = same_bits(ref, path) if label != 'c' else (
                '' if open(ref, 'rb').read() == open(path, 'rb').read() else 'hashes differ')
            ok = not why
        check(f"{label}: {n} ranks bitwise equal to the plain run ({dt:.1f} s)", ok, why)


def c_suites(build, ranks):
    """The C test programs check their own values; on many ranks they must
    pass as they do on one."""
    for name in ('test_core', 'test_scan', 'test_sort', 'test_random', 'test_matmul',
                 'test_mpi_async'):
        prog = os.path.join(build, 'tests', 'c', name)
        for n in ranks:
            if n == 1:
                continue
            p, dt = run(mpirun(n) + [prog], 900)
            ok = p.returncode == 0 and ' 0 failed' in p.stdout
            check(f"c suite {name} on {n} ranks ({dt:.1f} s)", ok,
                  p.stdout[-1500:] + p.stderr[-1500:])


def device_plan(build, ranks):
    """Simulated devices on many ranks: each rank plans the copies and
    evictions of the tasks it runs on the recording thread, as one process
    does (docs/design.md, "Devices"): its plan's log is the same with one
    worker waiting after each op and two deferred, nothing unplanned runs,
    the results are the CPU's bits; and the core suite passes on devices."""
    prog = os.path.join(build, 'tests', 'c', 'test_device')
    core = os.path.join(build, 'tests', 'c', 'test_core')
    for n in ranks:
        if n == 1:
            continue
        p, dt = run(mpirun(n) + [prog, 'determinism', 'sim:2,mem=40k', '20000'], 600,
                    {'NDT_REQUIRE_PLANNED': '1'})
        ok = p.returncode == 0 and p.stdout.count(' 0 failed') == n
        check(f"device plan on {n} ranks: deterministic, all planned, the CPU's bits ({dt:.1f} s)",
              ok, p.stdout[-1500:] + p.stderr[-1500:])
        p, dt = run(mpirun(n) + [core], 900, {'NDTILE_DEVICES': 'sim:2,mem=4M'})
        ok = p.returncode == 0 and ' 0 failed' in p.stdout
        check(f"c suite test_core on {n} ranks x sim:2,mem=4M ({dt:.1f} s)", ok,
              p.stdout[-1500:] + p.stderr[-1500:])


# Not run on ranks: the launcher's own tests, and the modules that run their
# programs in child processes at default settings on one process (the fuzz
# corpus starts mpirun itself for its rank settings) or that hold a process
# to one rank's view (interrupts, the memory budget, leak counters); the
# at-scale modules' large arrays are covered on ranks by the fuzzer's rank
# settings. test_fperr_numpy runs at default settings, on one process (its
# flags on ranks: fp_errors below).
# test_trust_inputs switches the tile size of a running process between its
# cases (_core.set_tile_bytes), which puts ranks out of step (found here, left
# for the ranks work: the rank suites use one tile size per process).
ONE_PROCESS = ['test_launcher.py', 'test_fuzz_corpus.py', 'test_trust_algos.py',
               'test_default_tiles.py', 'test_interrupt.py', 'test_memory_limit.py',
               'test_leaks.py', 'test_trust.py', 'test_fperr_numpy.py', 'test_trust_inputs.py',
               # these start child processes or launchers of their own, lend
               # host memory, or check one process's counters (io's rank
               # tests go through the launcher themselves)
               'test_io.py', 'test_observe.py', 'test_devices.py', 'test_block_split.py',
               'test_random_devices.py', 'test_cuda_matmul.py', 'test_cuda_fft.py',
               'test_cuda_linalg.py',
               'test_packaging.py', 'test_docstrings.py', 'test_memory_model.py',
               'test_foreign_arrays.py', 'test_fork.py',
               'test_gpu_budget_ranks.py', 'test_many_tiles.py', 'test_devices_plan.py',
               'test_cuda_kinds.py', 'test_cuda_kinds2.py']


# The modules whose results depend on how the data is split over ranks
# (every rank runs every test; these hold the ops whose tiles, blocks and
# collectives the rank count changes). The first rank count of
# --pytest-ranks runs the rest of the suite (the front end's semantics:
# errors, promotion, protocols, arguments), a further count these; with
# one rank count it runs them all. So on 2 cores CI runs each module once
# on ranks: the split modules on 3 ranks, the rest on 2 (the split modules
# also ran on 2, about 100 s of CI's time). Each split path is still
# compared with NumPy on several ranks: 3 ranks hold every kind of split
# point that 2 have (a first and a last rank with a part, a boundary inside
# a tile's rows and between tiles, ranks holding no tile of a small array),
# and besides a middle rank with two boundaries and uneven shares; the even
# 2-rank split is still compared with one process for every op family by
# ops.py's bits test (1-4 ranks, above), the C suites (2, 3 and 4 ranks)
# and test_fuzz_corpus's ranks2 and cudahost_ranks2 settings (random
# programs against NumPy on 2 ranks, in test-python).
SPLIT_MODULES = ['test_ufunc.py', 'test_reduce.py', 'test_fusion.py', 'test_inplace.py',
                 'test_indexing.py', 'test_gather.py', 'test_sort.py', 'test_search.py',
                 'test_counting.py', 'test_scan.py', 'test_matmul.py', 'test_linalg.py',
                 'test_fft.py', 'test_random.py', 'test_manip.py', 'test_manip2.py',
                 'test_stats.py', 'test_trust_views.py', 'test_creation.py']


# Tests of a module that runs on ranks that do not: test_backend_ops's op x
# dtype x layout table of unary and binary ufuncs (923 tests: the module took
# 32.0 s on 2 ranks with them, 18.3 s without, side by side on a loaded
# machine; 52 of the first 312 s of the 2-rank pass). The same ops in
# every dtype run on 3 ranks in test_ufunc (a split module; the kernels are
# one process's), the layouts' views across ranks in test_fusion,
# test_inplace, test_indexing, test_trust_views and the rest of
# test_backend_ops (out= into views, where/clip, astype, copies, reductions,
# scans, sorts over every layout), and random programs of these ops over
# views on 2 and 3 ranks in test_fuzz_corpus's ranks2 and ranks3 settings.
RANKS_DESELECT = ['test_backend_ops.py::test_unary[', 'test_backend_ops.py::test_binary[']


# Tests of the split modules whose arrays are each one tile of the suite's
# 4096 bytes ((3, 4), (4,), (7,) and (6,) of every dtype), held by one rank
# on any rank count: NumPy's promotion of mixed dtypes and of Python
# scalars, dtype= and casting=, the front end's semantics like the rest of
# the suite. They run with the rest on the first rank count: on 3 ranks
# these 63 tests, thousands of calls on tiny arrays each, took a fifth of
# test_ufunc's time (127 of 570 s on a loaded machine, where its 416
# test_binary_same_dtype tests took 40); side by side, 19-22 s on 2 ranks
# against 28-37 s on 3 (13-14 against 25-26 CPU s).
# Likewise test_ufunc's unary and binary ops over SHAPES' one-tile shapes
# (0-d, empty, one element, up to 120 elements), split from their
# multi-tile shapes, which run on 3 ranks (the 975 one-tile tests, side by
# side on a loaded machine: 35 s on 3 ranks, 10.5 s on 2).
ONE_TILE_TESTS = ['test_ufunc.py::test_binary_mixed_dtypes_broadcast',
                  'test_ufunc.py::test_binary_python_scalars',
                  'test_ufunc.py::test_dtype_keyword_checks_input_casts_and_loops[6]',
                  'test_ufunc.py::test_unary_one_tile',
                  'test_ufunc.py::test_binary_same_dtype_one_tile']


def pytest_suite(ranks):
    """The Python suite on several ranks: every rank runs every test (all but
    SPLIT_MODULES on the first rank count, SPLIT_MODULES on the others; the
    whole suite where there is one rank count). (Two
    runs of 2 ranks at a time over halves of the modules took 140 s where
    one run took 98 s, on 2 cores: more processes than cores slow every
    collective.)"""
    here = os.path.join(ROOT, 'tests', 'python')
    skip = ONE_PROCESS + [f for f in os.listdir(here) if f.startswith('test_at_scale_')]
    ranks = [n for n in ranks if n != 1]
    # (node ids are relative to the root, whose pyproject.toml holds pytest's settings)
    deselect = [a for t in RANKS_DESELECT for a in ('--deselect', 'tests/python/' + t)]
    for i, n in enumerate(ranks):
        if i == 0 and len(ranks) == 1:
            which = [here] + [a for f in sorted(skip) for a in ('--ignore', os.path.join(here, f))]
        elif i == 0:
            # the rest by module name, and the split modules' one-tile tests
            # (pytest drops a test named beside its module's folder)
            which = [os.path.join(here, f) for f in sorted(os.listdir(here))
                     if f.startswith('test_') and f.endswith('.py') and f not in skip
                     and f not in SPLIT_MODULES] + [os.path.join(here, t) for t in ONE_TILE_TESTS]
        else:
            which = [os.path.join(here, f) for f in SPLIT_MODULES] + [
                a for t in ONE_TILE_TESTS
                for a in ('--deselect', f"tests/python/{t}{'' if t.endswith(']') else '['}")]
        which += deselect
        p, dt = run(mpirun(n) + [PY, '-m', 'pytest', '-q', '-x', '-p', 'no:cacheprovider',
                                 '--color=no'] + which, 1800)
        tail = p.stdout.strip().splitlines()[-1:] if p.stdout.strip() else ['']
        check(f"python suite on {n} ranks ({dt:.0f} s): {tail[0]}", p.returncode == 0,
              p.stdout[-3000:] + p.stderr[-2000:])


def xray_report(tmp, ranks):
    """The main job through the launcher: the same report on several ranks
    (all but the timing lines)."""
    def report(n):
        out = os.path.join(tmp, f'xray-{n}')
        p, dt = run([PY, '-m', 'ndtile', '--ranks', str(n), '--cpus', '2',
                     os.path.join(ROOT, 'examples', 'xray', 'run.py'), '--frames', '24',
                     '--shape', '192x192', '--output', out], 600)
        path = os.path.join(out, 'report.txt')
        if p.returncode or not os.path.exists(path):
            return None, dt, p.stdout[-1500:] + p.stderr[-1500:]
        lines = [ln for ln in open(path).read().splitlines()
                 if not any(w in ln for w in ('frames/s', 'dark calibration'))]
        return lines, dt, ''
    ref, dt, err = report(1)
    check(f"x-ray: 1 rank through the launcher ({dt:.1f} s)", ref is not None, err)
    for n in ranks:
        if n == 1 or ref is None:
            continue
        got, dt, err = report(n)
        check(f"x-ray: the same report on {n} ranks ({dt:.1f} s)", got == ref,
              err or '\n'.join(set(got) ^ set(ref)))


def fail_stop(tmp):
    """A failure on one rank (an exception, a kill): every rank stops within
    seconds, with a non-zero exit and the message."""
    cases = [('an exception on one rank', 1, "raise RuntimeError('boom on rank one')",
              'boom on rank one'),
             ('a rank killed by a signal', 2, "os.kill(os.getpid(), signal.SIGKILL)", '')]
    for what, rank, fail, message in cases:
        script = os.path.join(tmp, f'fail{rank}.py')
        with open(script, 'w') as f:
            f.write("import os, signal\nimport ndtile as np\n"
                    "a = np.ones((400, 400))\n"
                    f"if np.rank() == {rank}:\n"
                    f"    {fail}\n"
                    "for _ in range(1000):\n"
                    "    a = a + float(a.sum())\n"
                    "print('not reached')\n")
        p, dt = run(mpirun(3) + [PY, script], 120)
        out = p.stdout + p.stderr
        check(f"fail-stop: {what} stops all ({dt:.1f} s)",
              p.returncode != 0 and message in out and 'not reached' not in out and dt < 60,
              f"rc={p.returncode} {out[-2000:]}")


def lifetimes(tmp):
    """An array freed at different points on different ranks (a reference one
    rank keeps, a cycle the collector frees on one rank first) while a fused
    group that wrote it is pending: the ranks must still record the same
    tasks. They did not (fusion skipped the writes of arrays the program had
    dropped, judged on each rank alone): out of step, or a hang."""
    script = os.path.join(tmp, 'lifetimes.py')
    with open(script, 'w') as f:
        f.write("""import gc
import numpy
import ndtile as np
np._core.set_tile_bytes(4096)
gc.disable()
n = 100_000
A = numpy.arange(n, dtype=float)
a = np.asarray(A)
held = []
class Box:
    pass
for k in range(4):
    big = np.zeros(n + 700)
    t = a * (k + 2.0)                        # fused, pending
    np.add(t, 1.0, out=big[300:300 + n])     # joins the group; tiles offset
    if k % 2 == 0:
        if np.rank() == 0:
            held.append(t)                   # kept on rank 0 only
    else:
        b = Box(); b.me = b; b.t = t; del b  # a cycle holds t
        if np.rank() == 0:
            gc.collect()                     # freed on rank 0 first
    del t
    want = numpy.zeros(n + 700); want[300:300 + n] = A * (k + 2.0) + 1.0
    assert numpy.array_equal(numpy.asarray(big), want), k
gc.enable()
print('lifetimes ok')
""")
    for n in (2, 3):
        p, dt = run(mpirun(n) + [PY, script], 120)
        out = p.stdout + p.stderr
        check(f"lifetimes: arrays freed at different points on {n} ranks ({dt:.1f} s)",
              p.returncode == 0 and 'lifetimes ok' in out, f"rc={p.returncode} {out[-2000:]}")


def fp_errors(tmp):
    """Floating-point errors on ranks: a task runs on one rank, yet every
    rank warns alike (NumPy's messages, the same as one process) and, under
    errstate 'raise', every rank raises at the same call. Before the flags
    were agreed only the computing rank warned, and under 'raise' the ranks
    went out of step."""
    script = os.path.join(tmp, 'fp_errors.py')
    with open(script, 'w') as f:
        f.write("""import sys, warnings, numpy
import ndtile as np
np._core.set_tile_bytes(4096)
n = 100_000
a = np.ones(n)
z = np.zeros(n)
out = []
calls = []
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('always')
    b = a[:100] / 0                     # inline, on the first tile's rank
    c = a[-3000:] / z[-3000:]           # deferred, on the last tiles' rank
    d = np.log(a - 2)                   # fused, every rank's tiles
    q, r = np.divmod(a[-10:], 0.0)      # one op, its own name
    e = (a[:10] * 1e308) * 10           # overflow, rank 0
    u = np.zeros(n + 10, 'uint8')
    u[3:n + 3] = np.full(n, 1e20)       # a cast into a view across tiles
    s = float(b.sum() + c.sum() + d.sum())
    p = np.cumprod(np.full(n, 1e200))   # a scan, on every rank's tiles
    float(p[-1])
out.append(sorted(str(x.message) for x in w))
lines = sorted((str(x.message), x.lineno) for x in w)
for where in ('inline', 'deferred'):
    try:
        with numpy.errstate(all='raise'):
            f = a[:50] / 0 if where == 'inline' else a[-5000:] / z[-5000:]
            float(f[0])
        out.append(where + ': no raise')
    except FloatingPointError as ex:
        out.append(f'{where}: raised {ex}')
with numpy.errstate(all='call'):
    numpy.seterrcall(lambda what, flag: calls.append((what, flag)))
    g = np.sqrt(a[-100:] - 3)
    np.sync()
out.append(calls)
sys.stderr.write(f"RESULT {out!r}\\n")
sys.stderr.write(f"LINES {lines!r}\\n")
print('fp errors ok')
""")
    p, _ = run([PY, script], 120, {'NDTILE_MPI': '0'})
    want = [ln for ln in (p.stdout + p.stderr).splitlines() if ln.startswith('RESULT ')]
    check("fp errors: one process", p.returncode == 0 and len(want) == 1 and
          'raised' in want[0], (p.stdout + p.stderr)[-2000:])
    if p.returncode or len(want) != 1:
        return
    for n in (2, 3):
        try:
            p, dt = run(mpirun(n) + [PY, script], 120)
        except subprocess.TimeoutExpired:
            check(f"fp errors: {n} ranks", False, "hung (120 s)")
            continue
        out = p.stdout + p.stderr
        got = [ln for ln in out.splitlines() if ln.startswith('RESULT ')]
        lines = [ln for ln in out.splitlines() if ln.startswith('LINES ')]
        # the messages are one process's; the lines the same on every rank
        # (on ranks the line of the call that reports: docs/guide/ranks.md)
        check(f"fp errors: every one of {n} ranks warns and raises as one process ({dt:.1f} s)",
              p.returncode == 0 and len(got) == n and all(g == want[0] for g in got) and
              len(lines) == n and len(set(lines)) == 1,
              f"rc={p.returncode} want {want[0]}\n got {got} {lines} {out[-2000:]}")


def memory(tmp):
    """Temporaries made by fused elementwise groups and read across ranks
    (a sum over the frame axis, pad, nonzero of a comparison) are freed on
    every rank: memory in use stays flat over repeated calls. Each fused
    task held a reference to its group, given back by its body, which runs
    on one rank only: on the others the group and every array it held
    leaked (2 ranks: the X-ray job grew by 21 MB a frame and spent 90 % of
    its time faulting in fresh pages)."""
    script = os.path.join(tmp, 'memory.py')
    with open(script, 'w') as f:
        f.write("""import gc
import ndtile as np
np._core.set_tile_bytes(64 << 10)
a = np.ones((8, 200, 300), np.float32)
b = np.full((8, 200, 300), 2.0, np.float32)
cases = {
    'sum over frames of a product': lambda: (a * b).sum(axis=0),
    'pad': lambda: np.pad(a * b, [(0, 0), (3, 3), (3, 3)]),
    'nonzero of a comparison': lambda: np.nonzero(a * b > 1.5),
}
def in_use():
    gc.collect()
    np._core.sync()
    return np.memory_stats()['host']['in_use']
bad = []
for name, f in cases.items():
    for _ in range(3):
        r = f(); del r
    m0 = in_use()
    for _ in range(10):
        r = f(); del r
    m1 = in_use()
    if m1 > m0:
        bad.append(f'{name}: {m0} -> {m1} bytes in use on rank {np.rank()}')
print('\\n'.join(bad) if bad else 'memory ok')
""")
    for n in (2, 3):
        p, dt = run(mpirun(n) + [PY, script], 120, {'NDTILE_ALL_RANKS_PRINT': '1'})
        out = p.stdout + p.stderr
        check(f"memory: temporaries of fused groups freed on {n} ranks ({dt:.1f} s)",
              p.returncode == 0 and out.count('memory ok') == n, f"rc={p.returncode} {out[-2000:]}")


def placement(tmp):
    """Where ranks run and what they hold. Through the launcher, ranks whose
    workers fit the cores each keep to cores of their own (NDTILE_BIND=cores,
    comm.c): unbound, the scheduler put both ranks of the X-ray job on one
    core after the other process of a side-by-side run had run hot on the
    other (160 against 218 frames/s). NDTILE_BIND=none, and more ranks than
    cores, leave them unbound. And arrays of one leading extent split
    between the ranks at the same frame whatever their dtype, so an
    elementwise op between a float32 and a bool array of frames moves no
    bytes (bool frames took three to a tile, split 3 + 3 + 2 between 2 ranks
    while float32 ones split 4 + 4: 3 MB a frame moved in the X-ray job)."""
    script = os.path.join(tmp, 'placement.py')
    with open(script, 'w') as f:
        f.write("""import os
import ndtile as np
n = np.nranks()
shape = (4 * n, 704, 768)     # frames: 4 a rank
f = np.ones(shape, np.float32)
b = np.ones(shape, bool)
u = np.ones(shape, np.uint16)
np._core.sync()
np.comm_stats(reset=True)
c = (f > 0) & b
d = u.astype(np.float32) * f
np._core.sync()
sent = np.comm_stats()['send_bytes']
# an advanced read with three small index arrays: their bounds are read
# at once (one read: a step check, then the agreement that carries their
# 48 bytes) and the gather agrees once; each bound read apart took 18
# collectives more, and the bounds' broadcast one more
i, j, k = np.nonzero(f[:, 100:103, 200:202] > 0)
g0 = np.comm_stats()['collectives']
v = f[i, j, k]
coll = np.comm_stats()['collectives'] - g0
# a scalar read: the step check and the agreement, which carries its bytes
# (no broadcast: 3 collectives before); the value is the owner's on every rank
s = f[-1, -1, -3:] * 2.5 + np.arange(3, dtype=np.float32)    # on the last frame's rank
np._core.sync()
g0 = np.comm_stats()['collectives']
got = [float(x) for x in s]
scoll = np.comm_stats()['collectives'] - g0
want = [2.5, 3.5, 4.5]
ok = bool(c.all()) and float(d.sum()) == d.size and v.shape == i.shape and got == want
import sys
with open(f'{sys.argv[1]}.rank{np.rank()}', 'w') as out:   # (printed lines may interleave)
    print(f"RANK {np.rank()} CPUS {sorted(os.sched_getaffinity(0))} SENT {sent} "
          f"COLL {coll} SCOLL {scoll} OK {ok}", file=out)
""")
    launcher = [PY, '-m', 'ndtile', '--cpus', '2']
    cases = [(2, {}, 'bound'), (2, {'NDTILE_BIND': 'none'}, 'unbound'), (3, {}, 'unbound')]
    for k, (n, env, want) in enumerate(cases):
        base = os.path.join(tmp, f'placement{k}')
        p, dt = run(launcher + ['--ranks', str(n), script, base], 120, env)
        out = p.stdout + p.stderr + ''.join(open(f'{base}.rank{r}').read() for r in range(n)
                                            if os.path.exists(f'{base}.rank{r}'))
        rows = re.findall(r'RANK (\d+) CPUS \[([\d, ]*)\] SENT (\d+) COLL (\d+) '
                          r'SCOLL (\d+) OK (True|False)', out)
        sets = [set(c.replace(' ', '').split(',')) for _, c, _, _, _, _ in rows]
        if want == 'bound':
            ok = len(sets) == n and all(len(s) == 1 for s in sets) and len(set.union(*sets)) == n
        else:
            ok = len(sets) == n and all(len(s) == len(sets[0]) > 1 for s in sets)
        what = ' '.join(f'{k}={v}' for k, v in env.items())
        check(f"placement: {n} ranks {what or 'through the launcher'} are {want} ({dt:.1f} s)",
              p.returncode == 0 and ok, f"rc={p.returncode} {out[-2000:]}")
        sent = [int(r[2]) for r in rows]
        check(f"placement: float32, bool and uint16 frames split alike on {n} ranks: "
              f"no bytes sent", p.returncode == 0 and len(sent) == n and not any(sent) and
              all(r[5] == 'True' for r in rows), f"sent {sent} {out[-1500:]}")
        coll = [int(r[3]) for r in rows]
        check(f"placement: a 3-d gather by small index arrays takes 3 collectives on {n} ranks",
              len(coll) == n and all(c == 3 for c in coll), f"collectives {coll}")
        scoll = [int(r[4]) for r in rows]
        check(f"placement: a read of three float32 values takes 2 collectives on {n} ranks",
              len(scoll) == n and all(c == 2 for c in scoll), f"collectives {scoll}")


def gpu_share(build, tmp):
    """ndtile --gpus-per-node G: each rank runs on its share of the node's
    GPUs (two emulated GPUs of the CUDA plugin's host build): with G = 2,
    rank 0 on GPU 0 and rank 1 on GPU 1; with G = 1 both on GPU 0; one
    process takes both."""
    plugin = os.path.join(build, 'tests', 'cudahost', 'libndtile_cudahost.so')
    if not os.path.exists(plugin):
        check("gpu share: the CUDA plugin's host build is built", False, plugin)
        return
    script = os.path.join(tmp, 'gpus.py')
    with open(script, 'w') as f:
        # (a file per rank: the ranks' printed lines may interleave)
        f.write("import sys, ndtile as np\n"
                "with open(f'{sys.argv[1]}.rank{np.rank()}', 'w') as f:\n"
                "    print(','.join(str(d['index']) for d in np.devices() "
                "if d['kind'] == 'cuda'), file=f)\n")
    env = {'NDTILE_CUDA_PLUGIN': plugin}
    for k, (n, g, want) in enumerate(((2, 2, {'0': '0', '1': '1'}), (2, 1, {'0': '0', '1': '0'}),
                                      (1, 2, {'0': '0,1'}))):
        base = os.path.join(tmp, f'gpus{k}')
        p, dt = run([PY, '-m', 'ndtile', '--cpus', '2', '--ranks', str(n), '--gpus-per-node',
                     str(g), script, base], 120, env)
        out = p.stdout + p.stderr
        got = {str(r): open(f'{base}.rank{r}').read().strip() for r in range(n)
               if os.path.exists(f'{base}.rank{r}')}
        check(f"gpu share: {n} rank{'s' if n > 1 else ''} with --gpus-per-node {g} run on "
              f"GPUs {want} ({dt:.1f} s)", p.returncode == 0 and got == want,
              f"rc={p.returncode} got {got} {out[-1500:]}")


GPU_FUSED = """import json, sys, warnings, numpy, ndtile as np
rng = numpy.random.default_rng(3)
n = 700_000                     # two 2 MiB tiles of float32: split between the ranks
X = [rng.standard_normal(n).astype(numpy.float32) for _ in range(6)]
I = rng.integers(-100, 100, n).astype(numpy.int32)
def prog(m, x, i):
    acc = x[5].copy()
    float(acc[0])                      # acc made before the group
    acc += x[0] * x[1] - x[2]
    d = m.sqrt(m.abs(x[3])) / (x[4] + 3) + acc
    q = (i * 7 + 1) // (i % 5)         # integer division by zero: warns
    return [acc, d, q]
with numpy.errstate(all="ignore"):
    want = prog(numpy, X, I)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    got = [numpy.asarray(g) for g in prog(np, [np.asarray(x) for x in X], np.asarray(I))]
bad = [k for k, (g, h) in enumerate(zip(got, want))
       if not (g.dtype == h.dtype and numpy.array_equal(g, h))]
with open(f"{sys.argv[1]}.rank{np.rank()}", "w") as f:
    print(json.dumps([bad, sorted({str(x.message) for x in w})]), file=f)
"""


def gpu_fused(build, tmp, ranks):
    """Fused groups recorded on many ranks run on each rank's device (the
    CUDA plugin's host build, one emulated GPU a rank): every op's result is
    an operand there and only some are written (fusion.c), and the device's
    program writes those. NumPy's values and warnings on every rank, and
    the trace says the groups ran on the device."""
    import json
    plugin = os.path.join(build, 'tests', 'cudahost', 'libndtile_cudahost.so')
    if not os.path.exists(plugin):
        check("gpu fused: the CUDA plugin's host build is built", False, plugin)
        return
    script = os.path.join(tmp, 'gpu_fused.py')
    with open(script, 'w') as f:
        f.write(GPU_FUSED)
    env = {'NDTILE_DEVICES': 'cuda:0', 'NDTILE_CUDA_PLUGIN': plugin,
           'NDTILE_CUDAHOST_PLUGIN': plugin, 'NDTILE_CUDA_MEM': '64M',
           'NDTILE_CACHE_DIR': os.path.join(tmp, 'fused-cache')}
    # (on 2 ranks also through the compiled kernels: a program compiled at
    # its first batch, NDTILE_CUDA_JIT=1, the batch waiting for it)
    for n, jit in [(n, '0') for n in ranks] + [(n, '1') for n in ranks if n == 2]:
        base = os.path.join(tmp, f'gpu_fused{n}{jit}')
        trace = base + '.json'
        p, dt = run(mpirun(n) + [PY, script, base], 300,
                    dict(env, NDTILE_PROFILE=trace, NDTILE_CUDA_JIT=jit, NDTILE_CUDA_JIT_WAIT=jit))
        got, procs = [], set()
        for r in range(n):
            if os.path.exists(f'{base}.rank{r}'):
                got.append(json.loads(open(f'{base}.rank{r}').read()))
            tr = f'{base}.rank{r}.json'
            if os.path.exists(tr):
                procs |= {e['args'].get('proc') for e in json.load(open(tr))['traceEvents']
                          if e.get('ph') == 'X' and e.get('args', {}).get('kind') == 'fused elementwise'
                          and '+' in e['name']}
        want = [[], ['divide by zero encountered in floor_divide']]
        check(f"gpu fused: fused groups on {n} ranks run on their devices "
              f"({'compiled' if jit == '1' else 'interpreter'}) with NumPy's values "
              f"and warnings ({dt:.1f} s)",
              p.returncode == 0 and got == [want] * n and procs == {'cuda'},
              f"rc={p.returncode} got {got} procs {procs} {(p.stdout + p.stderr)[-1500:]}")


GPU_CARRY = """import hashlib, json, sys, warnings, numpy, ndtile as np
rng = numpy.random.default_rng(6)
h, bad = hashlib.sha256(), []
for dt in ["float32", "float64", "complex64", "int64", "int32"]:
    # a batch of frames spread over the ranks, sums and extremes over the
    # frames (the X-ray job's pattern): the direct fold's carry steps
    v = rng.standard_normal((24, 128, 192)) * 100
    if dt.startswith("complex"):
        v = v + 1j * rng.standard_normal(v.shape)
    v = v.astype(dt)
    if dt.startswith("float"):
        v[3, 5, 7] = numpy.nan
        v[0, 1, :] = -0.0
        v[5, 2, 3] = numpy.inf
        v[9, 2, 4] = -numpy.inf
    x = np.asarray(v)
    x = x + v.dtype.type(0)      # resident on the devices
    for vn, xv, vv in [("", x, v), ("[::-1]", x[::-1], v[::-1]), ("[:, ::2]", x[:, ::2], v[:, ::2]),
                       ("[..., ::-1]", x[..., ::-1], v[..., ::-1])]:
        fs = ["sum", "max", "min", "mean"] + (["prod", "nansum"] if dt[0] in "fc" else [])
        # (axis 1: each result row is reached by the blocks of one frame, so
        # a step leaves some elements unreached: they start from the identity)
        for f, ax in [(f, ax) for f in fs for ax in (0, 1)]:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                want = getattr(numpy, f)(vv, axis=ax)
                got = numpy.asarray(getattr(np, f)(xv, axis=ax))
            # (NaNs made canonical: a NaN's sign and payload after NaNs meet
            # in a product depend on the operand order, as test_devkernels says)
            c = numpy.where(numpy.isnan(got), numpy.nan, got) if got.dtype.kind in "fc" else got
            h.update(repr((dt, vn, f, ax)).encode() + c.tobytes())
            ok = got.dtype == want.dtype and got.shape == want.shape and (
                numpy.allclose(got, want, rtol=1e-5, atol=1e-3, equal_nan=True)
                if got.dtype.kind in "fc" else numpy.array_equal(got, want))
            if not ok:
                bad.append([dt, vn, f, ax])
with open(f"{sys.argv[1]}.rank{np.rank()}", "w") as f:
    print(json.dumps([bad, h.hexdigest()]), file=f)
"""


def gpu_carry(build, tmp, ranks):
    """The direct fold on many ranks ("reduce carry" steps: sums and extremes
    over the frames of a batch spread over the ranks) runs on each rank's
    device (the CUDA plugin's host build): the bits of the one-process CPU
    run on every rank, NumPy's values, and the trace says the steps ran on
    the devices (they ran on the CPU before)."""
    import json
    plugin = os.path.join(build, 'tests', 'cudahost', 'libndtile_cudahost.so')
    if not os.path.exists(plugin):
        check("gpu carry: the CUDA plugin's host build is built", False, plugin)
        return
    script = os.path.join(tmp, 'gpu_carry.py')
    with open(script, 'w') as f:
        f.write(GPU_CARRY)
    env = {'NDTILE_CUDA_PLUGIN': plugin, 'NDTILE_CUDAHOST_PLUGIN': plugin, 'NDTILE_CUDA_MEM': '64M'}
    for tiles in ['', '64k']:
        tenv = {'NDTILE_TILE_BYTES': tiles} if tiles else {}
        base = os.path.join(tmp, f'gpu_carry_cpu{tiles}')
        p, _ = run([PY, script, base], 300, tenv)
        try:
            cpu = json.loads(open(f'{base}.rank0').read())
        except OSError:
            cpu = None
        check(f"gpu carry: the one-process CPU run ({tiles or 'default'} tiles)",
              p.returncode == 0 and cpu is not None and cpu[0] == [],
              f"rc={p.returncode} {cpu} {(p.stdout + p.stderr)[-1500:]}")
        for n in ranks:
            base = os.path.join(tmp, f'gpu_carry{n}{tiles}')
            p, dt = run(mpirun(n) + [PY, script, base], 300,
                        dict(env, NDTILE_DEVICES='cuda:0', NDTILE_PROFILE=base + '.json', **tenv))
            got, procs = [], {}
            for r in range(n):
                if os.path.exists(f'{base}.rank{r}'):
                    got.append(json.loads(open(f'{base}.rank{r}').read()))
                tr = f'{base}.rank{r}.json'
                if os.path.exists(tr):
                    for e in json.load(open(tr))['traceEvents']:
                        a = e.get('args', {})
                        if e.get('ph') == 'X' and a.get('kind') == 'reduce carry':
                            procs[a.get('proc')] = procs.get(a.get('proc'), 0) + 1
            check(f"gpu carry: the direct fold's steps on {n} ranks run on their devices "
                  f"with the CPU's bits ({tiles or 'default'} tiles, {dt:.1f} s)",
                  p.returncode == 0 and cpu is not None and got == [cpu] * n
                  and procs.get('cuda', 0) > 0 and procs.get('cpu', 0) == 0,
                  f"rc={p.returncode} got {got} cpu {cpu} procs {procs} "
                  f"{(p.stdout + p.stderr)[-1500:]}")


def out_of_step(tmp):
    """Ranks that stop making the same calls: sys.exit on one rank, an array
    read on one rank only, a read of another array. Every rank ends within
    seconds with a message that names the cause (and sys.exit's status),
    never MPI's own error (MPI_ERR_TRUNCATE) or a hang."""
    cases = [
        ('sys.exit(3) on one rank', "if np.rank() == 1:\n    sys.exit(3)\n"
         "for _ in range(5):\n    a = a + float(a.sum())\n",
         ['rank 1 ended its program', 'sys.exit(3)'], 3),
        ('sys.exit(0) on one rank at once', "if np.rank() == 0:\n    sys.exit(0)\n"
         "print(float(a.sum()))\n",
         ['rank 0 ended its program', 'exit status 0'], None),
        ('a read on rank 0 only, at the end', "if np.rank() == 0:\n    print(a.sum())\n",
         ['on some ranks only'], None),
        ('a read on rank 0 only, then more work', "if np.rank() == 0:\n    print(a.sum())\n"
         "b = a * 2\nprint(float(b.sum()))\nc = b + 1\nprint(float(c.max()))\n",
         ['out of step', 'on some ranks only'], None),
        # the read's tasks need tiles of rank 1, which never recorded them
        # (it hung: the read waited for those tasks before its step check)
        ('a read on rank 0 only of another rank\'s tiles',
         "b = np.ones(10**6)\nif np.rank() == 0:\n    print(b[-5:].sum())\n",
         ['out of step', 'on some ranks only'], None),
        ('reads of different arrays', "if np.rank() == 0:\n    print(float(a.sum()))\n"
         "else:\n    print(float(np.arange(7.0).sum()))\nprint(float(a.max()))\n",
         ['on some ranks only'], None),
    ]
    for i, (what, body, words, code) in enumerate(cases):
        script = os.path.join(tmp, f'step{i}.py')
        with open(script, 'w') as f:
            f.write("import sys\nimport ndtile as np\na = np.ones((400, 400))\n" + body +
                    "np.sync()\n")
        try:
            p, dt = run(mpirun(2) + [PY, script], 60)
        except subprocess.TimeoutExpired:
            check(f"out of step: {what} ends every rank", False, "hung (60 s)")
            continue
        out = p.stdout + p.stderr
        ok = (p.returncode != 0 and all(w in out for w in words) and dt < 30
              and 'MPI_ERR_TRUNCATE' not in out and (code is None or p.returncode == code))
        check(f"out of step: {what} ends every rank ({dt:.1f} s, rc {p.returncode})", ok,
              f"rc={p.returncode} {out[-2500:]}")
    # under NDTILE_CHECK the ranks also compare the messages of each task
    # (dist.c): a task over other regions on one rank (here a debug task;
    # in a program, a privilege or the books of who holds what differing
    # between ranks) is out of step at the next read, where unchecked rank
    # 0 waits for ever for the bytes rank 1 never sends
    script = os.path.join(tmp, 'step_msgs.py')
    with open(script, 'w') as f:
        f.write("import os\nos.environ['NDTILE_CHECK'] = 'abort'\nimport ndtile as np\n"
                "from ndtile import _core\nb = np.ones(10**6)\n"
                "_core._debug_hold(b[:600000] if np.rank() == 0 else b[:500000])\n"
                "_core._debug_release()\nprint(float(b[:10].sum()))\nnp.sync()\n")
    try:
        p, dt = run(mpirun(2) + [PY, script], 60)
        out = p.stdout + p.stderr
        check(f"out of step: a task's messages differing between ranks (NDTILE_CHECK) ends "
              f"every rank ({dt:.1f} s, rc {p.returncode})",
              p.returncode != 0 and 'out of step' in out and dt < 30, f"rc={p.returncode} {out[-2500:]}")
    except subprocess.TimeoutExpired:
        check("out of step: a task's messages differing between ranks (NDTILE_CHECK) ends "
              "every rank", False, "hung (60 s)")
    # the same program on every rank, ending with sys.exit(4): the status,
    # no message
    script = os.path.join(tmp, 'exit_all.py')
    with open(script, 'w') as f:
        f.write("import sys\nimport ndtile as np\na = np.ones((400, 400))\n"
                "print(float(a.sum()))\nsys.exit(4)\n")
    p, dt = run(mpirun(2) + [PY, script], 60)
    check(f"out of step: sys.exit(4) on every rank ends normally ({dt:.1f} s)",
          p.returncode == 4 and 'out of step' not in p.stderr and 'ended its' not in p.stderr
          and p.stdout.count('160000.0') == 1, f"rc={p.returncode} {p.stdout + p.stderr}")


def output_once(tmp):
    """print shows once; numpy.asarray works on every rank; files are
    written once."""
    script = os.path.join(tmp, 'io.py')
    target = os.path.join(tmp, 'saved.npy')
    with open(script, 'w') as f:
        f.write("import sys, numpy\nimport ndtile as np\n"
                "a = np.arange(5000.0).reshape(50, 100)\n"
                "print(a[1:3, :4])\n"
                "h = numpy.asarray(a)\n"
                "assert h.shape == (50, 100) and h[49, 99] == 4999.0, 'asarray'\n"
                f"np.save({target!r}, a * 2)\n"
                f"b = np.load({target!r})\n"
                "assert float((b - 2 * a).max()) == 0.0\n"
                "sys.stderr.write(f'rank {np.rank()} done\\n')\n")
    p, dt = run(mpirun(3) + [PY, script], 120)
    printed = p.stdout.count('[[100.')
    check("output: print shows once, asarray on every rank, save writes once",
          p.returncode == 0 and printed == 1 and p.stderr.count(' done') == 3
          and os.path.exists(target), f"rc={p.returncode} printed={printed} {p.stderr[-2000:]}")


GPU_PINNED = """import sys, numpy, ndtile as np
rng = numpy.random.default_rng(4)
x0 = rng.standard_normal(1_200_000)   # 9.6 MB: tiles split between the ranks
x = np.asarray(x0)
y = x * 3.0 + 1.0                     # on each rank's device: valid there only
z = y[::-1] * y                       # the other rank's tiles: D2H, sent, uploaded
got = numpy.asarray(z)
w = x0 * 3.0 + 1.0
with open(f"{sys.argv[1]}.rank{np.rank()}", "w") as f:
    print(int(got.tobytes() == (w[::-1] * w).tobytes()), file=f)
"""


def gpu_pinned(build, tmp):
    """Messages between ranks whose tiles live on devices (the CUDA
    plugin's host build, one emulated GPU a rank): the sender copies a tile
    D2H into its host buffer, registered (page-locked) by that copy, and
    sends from there; the receiver's buffer is registered by its upload.
    Every large copy on both ranks is pinned, none is lost, NumPy's bits."""
    import re
    plugin = os.path.join(build, 'tests', 'cudahost', 'libndtile_cudahost.so')
    if not os.path.exists(plugin):
        check("gpu pinned: the CUDA plugin's host build is built", False, plugin)
        return
    script = os.path.join(tmp, 'gpu_pinned.py')
    with open(script, 'w') as f:
        f.write(GPU_PINNED)
    base = os.path.join(tmp, 'gpu_pinned')
    p, dt = run(mpirun(2) + [PY, script, base], 300,
                {'NDTILE_DEVICES': 'cuda:0', 'NDTILE_CUDA_PLUGIN': plugin,
                 'NDTILE_CUDAHOST_STATS': '1', 'NDTILE_CUDA_MEM': '64M'})
    got = [open(f'{base}.rank{r}').read().strip() for r in range(2)
           if os.path.exists(f'{base}.rank{r}')]
    st = [tuple(map(int, m)) for m in re.findall(
        r"(\d+) host registrations \(\d+ unregistered, \d+ refused, (\d+) lost\), "
        r"\d+ pinned copies \((\d+) bytes\), \d+ pageable copies \((\d+) bytes\)", p.stderr)]
    ok = (p.returncode == 0 and got == ['1', '1'] and len(st) == 2 and
          all(reg > 0 and lost == 0 and pb >= 4_000_000 and ub < 65536 for reg, lost, pb, ub in st))
    check(f"gpu pinned: tiles moved between 2 ranks from and to registered host buffers, "
          f"every large copy pinned ({dt:.1f} s)", ok,
          f"rc={p.returncode} got {got} stats {st} {(p.stdout + p.stderr)[-1500:]}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--ranks', default='1,2,3,4')
    ap.add_argument('--build', default=os.path.join(ROOT, 'build'))
    ap.add_argument('--only', default='',
                    help="run only these checks (comma list: ops (tests/mpi/ops.py's bits), "
                         "c_suites, out_of_step, fail_stop, output, lifetimes, memory, "
                         "device_plan, fp_errors, placement, gpu_share, gpu_fused, gpu_carry, "
                         "gpu_pinned, pytest (the Python suite on --pytest-ranks))")
    ap.add_argument('--pytest-ranks', default='2,3,4',
                    help="rank counts for the Python suite: all but its SPLIT_MODULES on "
                         "the first, SPLIT_MODULES on the others (one count: the whole "
                         "suite; '' skips it)")
    args = ap.parse_args()
    ranks = [int(x) for x in args.ranks.split(',')]
    tmp = tempfile.mkdtemp(prefix='ndtile-mpi-')
    if args.only:
        names = {'out_of_step': out_of_step, 'fail_stop': fail_stop, 'output': output_once,
                 'lifetimes': lifetimes, 'fp_errors': fp_errors, 'memory': memory,
                 'placement': placement, 'gpu_share': lambda t: gpu_share(args.build, t),
                 'gpu_fused': lambda t: gpu_fused(args.build, t, [n for n in ranks if n in (2, 3)]),
                 'gpu_carry': lambda t: gpu_carry(args.build, t, [n for n in ranks if n in (2, 3)]),
                 'gpu_pinned': lambda t: gpu_pinned(args.build, t),
                 'device_plan': lambda _: device_plan(args.build, [n for n in ranks if n in (2, 3)]),
                 'ops': lambda t: bits_test('python', [PY, os.path.join(HERE, 'ops.py')], ranks, t),
                 'c_suites': lambda _: c_suites(args.build, ranks),
                 'pytest': lambda _: pytest_suite([int(x) for x in args.pytest_ranks.split(',')
                                                   if x])}
        try:
            for n in args.only.split(','):
                names[n](tmp)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        print(f"test-mpi: {len(failures)} failed" if failures else "test-mpi: all passed")
        return 1 if failures else 0
    try:
        bits_test('python', [PY, os.path.join(HERE, 'ops.py')], ranks, tmp)
        cprog = os.path.join(args.build, 'tests', 'c', 'test_mpi_ops')
        if os.path.exists(cprog):
            bits_test('c', [cprog], ranks, tmp)
        else:
            check("c: tests/c/test_mpi_ops is built", False, cprog)
        output_once(tmp)
        fail_stop(tmp)
        out_of_step(tmp)
        lifetimes(tmp)
        fp_errors(tmp)
        memory(tmp)
        placement(tmp)
        gpu_share(args.build, tmp)
        gpu_fused(args.build, tmp, [n for n in ranks if n in (2, 3)])
        gpu_carry(args.build, tmp, [n for n in ranks if n in (2, 3)])
        if 2 in ranks:
            gpu_pinned(args.build, tmp)
        xray_report(tmp, [n for n in ranks if n in (1, 3)])
        c_suites(args.build, ranks)
        device_plan(args.build, [n for n in ranks if n in (2, 3)])
        if args.pytest_ranks:
            pytest_suite([int(x) for x in args.pytest_ranks.split(',')])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"test-mpi: {len(failures)} failed" if failures else "test-mpi: all passed")
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
