"""The memory budget: an array that cannot fit fails at once with NumPy's
MemoryError instead of filling tiles until the OOM killer ends the process.

Every test that asks for more than the machine has runs in a child process
with NDTILE_MAX_MEMORY (or `ulimit -v`) set small, so that a regression
fails the test instead of eating the memory of the machine."""
import os
import subprocess
import sys
import textwrap

import numpy
import pytest

import ndtile as np
from ndtile import _core


def run_child(code, env_extra=None, ulimit_kb=None, timeout=120):
    env = {k: v for k, v in os.environ.items() if not k.startswith("NDTILE_")}
    env.update(env_extra or {})
    cmd = [sys.executable, "-c", textwrap.dedent(code)]
    pre = None
    if ulimit_kb:
        import resource

        def pre():
            resource.setrlimit(resource.RLIMIT_AS, (ulimit_kb * 1024, ulimit_kb * 1024))
    r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout,
                       preexec_fn=pre)
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout


def numpy_message(shape, dtype):
    try:
        numpy.empty(shape, dtype)   # never touched: fails or maps nothing
    except MemoryError as e:
        return str(e)
    return None


def test_huge_array_fails_at_once_with_numpys_message():
    out = run_child("""
        import time, ndtile as np
        t = time.time()
        try:
            np.ones((10**6, 10**6))
        except MemoryError as e:
            print(e)
        assert time.time() - t < 5
    """, {"NDTILE_MAX_MEMORY": "256M"})
    assert out.strip() == ("Unable to allocate 7.28 TiB for an array with shape "
                           "(1000000, 1000000) and data type float64")
    # NumPy's own words for the same request
    msg = numpy_message((10**6, 10**6), numpy.float64)
    if msg is not None:
        assert out.strip() == msg


@pytest.mark.parametrize("maker", ["zeros", "empty", "ones", "full"])
def test_default_limit_is_the_machine(maker):
    # no NDTILE_MAX_MEMORY: the limit is the machine's memory; the child runs
    # under `ulimit -v` 3 GiB so that a regression cannot take the machine
    out = run_child(f"""
        import ndtile as np
        used, data, limit = np._core.memory_usage()
        assert 0 < limit <= 3 << 30, limit          # ulimit -v caps it
        f = getattr(np, {maker!r})
        args = ((10**6, 10**6),) + ((1.5,) if {maker!r} == "full" else ())
        try:
            f(*args)
        except MemoryError as e:
            print(type(e).__name__, e)
    """, ulimit_kb=3 << 20)
    assert out.startswith("MemoryError Unable to allocate 7.28 TiB"), out


def test_bincount_of_huge_values_fails_at_once():
    out = run_child("""
        import time, ndtile as np
        x = np.array([2**32 - 5, 1, 7])
        t = time.time()
        try:
            np.bincount(x)
        except MemoryError as e:
            print(e)
        assert time.time() - t < 5
        print(int(x.sum()))       # the input is intact
    """, ulimit_kb=3 << 20)
    lines = out.split("\n")
    assert lines[0] == ("Unable to allocate 32.0 GiB for an array with shape "
                        "(4294967292,) and data type int64"), out
    assert lines[1] == str(2**32 - 5 + 8)


def test_budget_is_returned_and_earlier_arrays_stay_intact():
    out = run_child("""
        import numpy, ndtile as np
        a = np.arange(1_000_000.0)            # 7.6 MiB of the 20 MiB
        b = np.ones(1_000_000)
        try:
            c = np.ones(1_000_000)            # 22.9 MiB: does not fit
            print("no error")
        except MemoryError as e:
            print("MemoryError")
        assert float(a.sum()) == 499999500000.0 and float(b.sum()) == 1e6
        del b
        c = np.ones(1_000_000)                # fits again: b's bytes came back
        assert float(c.sum()) == 1e6
        used, _, limit = np._core.memory_usage()
        assert used == 16_000_000 and limit == 20 << 20, (used, limit)
        del a, c
        print(np._core.memory_usage()[0])
    """, {"NDTILE_MAX_MEMORY": "20M"})
    assert out.split() == ["MemoryError", "0"], out


def test_limit_counts_lazy_and_derived_arrays():
    # results of operations (lazy stores) count too, and a failed op leaves
    # its inputs usable
    out = run_child("""
        import ndtile as np
        a = np.ones((1000, 1000))              # 7.6 MiB of 20
        b = a + 1                              # 15.3
        try:
            c = a * b                          # 22.9: does not fit
            print("no error")
        except MemoryError as e:
            print("MemoryError", "shape (1000, 1000)" in str(e))
        print(float(b.sum()))
        del b
        print(float((a * 2).sum()))            # fits again
    """, {"NDTILE_MAX_MEMORY": "20M"})
    assert out.split() == ["MemoryError", "True", "2000000.0", "2000000.0"], out


@pytest.mark.parametrize("text,value", [("512M", 512 << 20), ("4G", 4 << 30),
                                        ("1.5G", 3 << 29), ("123456", 123456),
                                        ("64KiB", 64 << 10), ("2T", 2 << 40)])
def test_limit_sizes_parse(text, value):
    out = run_child("import ndtile as np; print(np._core.memory_usage()[2])",
                    {"NDTILE_MAX_MEMORY": text})
    assert int(out) == value


def test_bad_limit_is_an_error():
    # a limit that is not a size is an error naming the variable and the
    # forms (it was ignored with a warning: a typo silently lifted the limit)
    env = {k: v for k, v in os.environ.items() if not k.startswith("NDTILE_")}
    env["NDTILE_MAX_MEMORY"] = "lots"
    r = subprocess.run([sys.executable, "-c", "import ndtile as np"],
                       env=env, capture_output=True, text=True, timeout=60)
    assert r.returncode != 0
    assert "ValueError: NDTILE_MAX_MEMORY=lots is not a size" in r.stderr, r.stderr


def test_set_memory_limit_in_process():
    old = _core.memory_usage()[2]
    a = np.ones(10_000)
    try:
        _core.set_memory_limit(_core.memory_usage()[0] + 200_000)
        with pytest.raises(MemoryError, match=r"Unable to allocate 781. KiB for an array "
                                              r"with shape \(100000,\) and data type float64"):
            np.zeros(100_000)
        b = np.zeros(10_000)
        assert float((a + b).sum()) == 10_000.0
    finally:
        _core.set_memory_limit(old)
    assert _core.memory_usage()[2] == old


def test_allocation_failure_injection_still_works():
    # the test hook fails the n-th allocation: the call fails, nothing breaks
    a = np.arange(5000.0)
    _core.debug_fail_alloc_after(1)
    try:
        with pytest.raises(MemoryError):
            np.ones(5000) + a
    finally:
        _core.debug_fail_alloc_after(0)
    assert float(a.sum()) == 12497500.0


@pytest.mark.parametrize("shape, dtype", [
    ((2**47,), numpy.float64), ((2**20, 2**20, 2**10), numpy.bool_),
    ((3, 2**46), numpy.complex128), ((2**48,), numpy.int32),
    # past the index limit: NumPy's ValueErrors
    ((2**60,), numpy.float64), ((2**62, 2), numpy.int8), ((2**63,), numpy.uint8)])
@pytest.mark.parametrize("maker", ["empty", "zeros", "ones"])
def test_impossible_size_is_numpys_error(shape, dtype, maker):
    # NumPy's exception class (its _ArrayMemoryError, a MemoryError, with
    # .shape and .dtype), or its ValueError, and its message
    with pytest.raises((MemoryError, ValueError)) as e:
        getattr(numpy, maker)(shape, dtype)
    with pytest.raises((MemoryError, ValueError)) as r:
        getattr(np, maker)(shape, dtype)
    assert type(r.value) is type(e.value)
    assert str(r.value) == str(e.value)
    if isinstance(e.value, MemoryError):
        assert r.value.shape == e.value.shape and r.value.dtype == e.value.dtype
