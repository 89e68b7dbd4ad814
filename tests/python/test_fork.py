"""A forked child of an ndtile program computes as its parent does.

fork() copies only the calling thread: before the runtime's fork handlers a
child had no worker threads and its first task over the inline threshold
waited for ever (multiprocessing's default start method on Linux before
Python 3.14; deviations.md). Each case runs in a child process with a
timeout, so a hang fails the test instead of the suite, at default settings
(2 MiB tiles: arrays above the inline threshold and larger than a tile) and
with the caller's settings (the conftest's 4 KiB tiles, 2 workers), and on
two simulated devices."""
import os
import subprocess
import sys
import textwrap

import pytest

SCRIPT = """
import os, sys, multiprocessing as mp
import numpy, ndtile as np

def same(tag, got, want):
    got = numpy.asarray(got)
    if got.dtype != want.dtype or got.shape != want.shape or got.tobytes() != want.tobytes():
        print("DIFF", tag, got[:5], want[:5], flush=True)
        return False
    return True

a0 = numpy.linspace(-3, 5, 3_000_000)
a = np.asarray(a0)
b = a * 2 + 1            # pending work at the fork: finished first
b[1000:2_000_000:3] = -a[:666_334]
b0 = a0 * 2 + 1
b0[1000:2_000_000:3] = -a0[:666_334]

def work(k):
    x = np.arange(k * 700_000, dtype=np.float64)
    y = (x * 3 - b[: x.size]).cumsum()
    return float(y.sum()), float(np.sort(y[::-2])[k])

def work0(k):
    x = numpy.arange(k * 700_000, dtype=numpy.float64)
    y = (x * 3 - b0[: x.size]).cumsum()
    return float(y.sum()), float(numpy.sort(y[::-2])[k])

pid = os.fork()
if pid == 0:
    ok = same("child b", b, b0) and work(2) == work0(2)
    c = b[::5] + 1           # the child's own pending work, then read
    ok = ok and same("child c", c, b0[::5] + 1)
    os._exit(0 if ok else 3)
b += 1                       # the parent goes on meanwhile
b0 += 1
_, status = os.waitpid(pid, 0)
assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, status
assert same("parent b", b, b0)
with mp.get_context("fork").Pool(2) as pool:
    got = pool.map(work, [1, 2, 3])
assert got == [work0(k) for k in (1, 2, 3)], got
assert [work(k) for k in (1, 2)] == [work0(k) for k in (1, 2)]   # the parent's workers
print("ok", flush=True)
"""


# another thread computes through the forks: the child must not inherit a
# core lock held, nor a half-recorded task (the binding holds its lock
# across os.fork)
THREADS = """
import os, threading
import numpy, ndtile as np
stop, errors = threading.Event(), []
def busy():
    k = 0
    while not stop.is_set():
        k += 1
        # (most of its time in a core call that waits with the GIL released)
        x = np.arange(2_000_000 + k, dtype=np.int64)
        y = np.sort((x * 7919) % 1_000_003)[::2]
        if int(y[-1]) != 1_000_002 or int(y.sum()) != int(
                numpy.sort((numpy.arange(2_000_000 + k) * 7919) % 1_000_003)[::2].sum()):
            errors.append(k)
t = threading.Thread(target=busy)
t.start()
for i in range(6):
    pid = os.fork()
    if pid == 0:
        v = np.arange(900_000.0) * i
        os._exit(0 if float(v.sum()) == float((numpy.arange(900_000.0) * i).sum()) else 3)
    _, status = os.waitpid(pid, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, status
stop.set()
t.join()
assert not errors, errors
print("ok", flush=True)
"""


def run(env_over, drop_settings, script=SCRIPT):
    env = {k: v for k, v in os.environ.items()
           if not (drop_settings and k.startswith("NDTILE_"))}
    env.update(env_over)
    return subprocess.run([sys.executable, "-c", textwrap.dedent(script)], env=env,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork here")
@pytest.mark.parametrize("env, drop", [({}, True), ({}, False),
                                       ({"NDTILE_DEVICES": "sim:2,mem=4M"}, True)],
                         ids=["default", "caller", "sim"])
def test_forked_children_compute_as_numpy(env, drop):
    r = run(env, drop)
    assert r.returncode == 0 and r.stdout.strip().endswith("ok"), r.stdout + r.stderr


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork here")
def test_fork_while_another_thread_computes():
    r = run({}, False, THREADS)
    assert r.returncode == 0 and r.stdout.strip().endswith("ok"), r.stdout + r.stderr
