"""ndtile.devices() and NDTILE_DEVICES (src/runtime/device.c): simulated
devices give the CPU's bits, a bad value names the variable and its forms,
and asking for CUDA where no plugin, driver or GPU works runs on the CPU
and says why under NDTILE_VERBOSE=1. The CUDA plugin's host build
(tests/cudahost, libndtile_cudahost.so: cuda.c against an emulated CUDA
runtime) gives the CPU's bits, and a kernel fault in it is an error naming
the op, after which the program goes on on the CPU. Casts and complex
comparisons warn and raise as NumPy does on the CPU, on simulated devices
and in the host build's kernels. Each case runs in a child process:
devices are chosen when the runtime first starts."""
import functools
import json
import os
import re
import subprocess
import sys
import textwrap

import pytest
from _helpers import cudahost_plugin


def run(code, **env_add):
    env = {k: v for k, v in os.environ.items() if not k.startswith("NDTILE_")}
    env.update(env_add)
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env,
                          capture_output=True, text=True, timeout=300)


WORK = """
    import numpy
    import ndtile as np
    a = np.arange(3_000_000.0)          # 23 MB: many 2 MiB tiles, more than the devices hold
    b = np.sin(a) * 2.5 + a
    b[::3] = -b[1::3][: len(b[::3])]
    s = float(b.sum())
    i = np.arange(1_000_000, dtype=np.int32) * np.int32(7) - np.int32(3)
    out = numpy.concatenate([numpy.asarray(b).view(numpy.uint8),
                             numpy.asarray(i).view(numpy.uint8),
                             numpy.array([s]).view(numpy.uint8)])
    import hashlib, sys
    print(hashlib.sha256(out.tobytes()).hexdigest())
"""


def test_default_has_no_device():
    r = run("import ndtile as np; print(np.devices(), repr(np._core.device_note()))")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[] ''"


def test_sim_devices_listed_and_same_bits():
    r = run("""
        import ndtile as np
        d = np.devices()
        assert [x['name'] for x in d] == ['simdev', 'simdev1'], d
        assert all(x['kind'] == 'sim' and x['memory'] == 4 << 20 and x['in_use'] >= 0 for x in d)
        a = np.arange(2_000_000.0); float((a * 2).sum())
        st = np._core.device_stats()
        assert st['copies'] > 0 and st['evictions'] > 0, st
    """, NDTILE_DEVICES="sim:2,mem=4M")
    assert r.returncode == 0, r.stdout + r.stderr
    cpu = run(WORK)
    sim = run(WORK, NDTILE_DEVICES="sim:2,mem=4M")
    tiny = run(WORK, NDTILE_DEVICES="sim:1,mem=1000")     # below one tile: all on the CPU
    assert cpu.returncode == 0 and sim.returncode == 0 and tiny.returncode == 0, \
        cpu.stderr + sim.stderr + tiny.stderr
    assert sim.stdout == cpu.stdout and tiny.stdout == cpu.stdout


def test_grouped_fused_tasks_free_their_group():
    """Fused elementwise tasks placed on a device run as grouped tasks
    (sched.c); each member holds a reference to its fused group, which the
    group's kind gives back (proc.c's group_release): memory in use stays
    flat over repeated fused work (it grew by 5 MB a call when the group
    ran its members' bodies but not their releases)."""
    r = run("""
        import gc, ndtile as np
        a = np.ones(300_000); b = np.full(300_000, 2.0); c = np.full(300_000, 3.0)
        def in_use():
            gc.collect(); np._core.sync()
            return np.memory_stats()['host']['in_use']
        for _ in range(3):
            r = a * b + c; float(r[5]); del r
        m0 = in_use()
        for _ in range(10):
            r = a * b + c; float(r[5]); del r
        m1 = in_use()
        assert float((a * b + c)[7]) == 5.0
        print(m0, m1)
    """, NDTILE_DEVICES="sim:1,mem=64M")
    assert r.returncode == 0, r.stdout + r.stderr
    m0, m1 = map(int, r.stdout.split())
    assert m1 <= m0, (m0, m1)


def test_bad_value_names_the_forms():
    for bad in ["gpu", "sim:0", "cuda:x", "sim:2,mem=lots"]:
        r = run("import ndtile as np; np.arange(3) + 1", NDTILE_DEVICES=bad)
        assert r.returncode != 0
        assert "ValueError: NDTILE_DEVICES=" + bad in r.stderr, r.stderr
        assert "sim:N,mem=SIZE" in r.stderr and "cuda:0,1" in r.stderr


def test_cuda_without_gpu_runs_on_cpu_and_says_why():
    cpu = run(WORK)
    for value in ["cuda", "auto", "cuda:0,cuda:0"]:
        r = run(WORK + "    print(np.devices() == [] or np.devices())\n",
                NDTILE_DEVICES=value, NDTILE_VERBOSE="1")
        assert r.returncode == 0, r.stderr
        if r.stdout.splitlines()[-1] == "True":      # this machine: no GPU (or no plugin)
            assert "running on CPUs" in r.stderr, r.stderr
            assert r.stdout.splitlines()[0] == cpu.stdout.strip()
    r = run(WORK, NDTILE_DEVICES="cuda", NDTILE_CUDA_PLUGIN="/nonexistent/libndtile_cuda.so",
            NDTILE_VERBOSE="1")
    assert r.returncode == 0 and "/nonexistent/libndtile_cuda.so" in r.stderr, r.stderr
    assert r.stdout == cpu.stdout


needs_cudahost = pytest.mark.skipif(cudahost_plugin() is None,
                                    reason="no libndtile_cudahost.so (make build)")


@needs_cudahost
def test_cuda_plugin_host_build_same_bits():
    cpu = run(WORK)
    check = WORK + """
    st = np._core.device_stats()
    print([d['name'] for d in np.devices()], st['copies'] > 0, st['evictions'] > 0)
"""
    # two emulated GPUs of 4 MiB budget; two virtual devices sharing one
    # emulated GPU of 3 MiB, each a budget of 2.7 MiB (one 2 MiB tile:
    # together more than the GPU holds, so its own allocations fail too)
    for devs, mem, names in [("cuda:0,1", {"NDTILE_CUDA_MEM": "4M"}, "['cuda', 'cuda1']"),
                             ("cuda:0,cuda:0", {"NDTILE_CUDAHOST_MEM": "3M",
                                                "NDTILE_CUDA_MEM": "2700k"},
                              "['cuda', 'cuda1']")]:
        # (NDTILE_CUDA_MATH=0: WORK's sin on the CPU, so every bit is the
        # CPU's; the device's own sin is within a bound: test_transcendental_...)
        r = run(check, NDTILE_DEVICES=devs, NDTILE_CUDA_PLUGIN=cudahost_plugin(),
                NDTILE_CUDA_MATH="cpu", **mem)
        assert r.returncode == 0, r.stderr
        lines = r.stdout.splitlines()
        assert lines[0] == cpu.stdout.strip(), devs
        assert lines[1] == names + " True True", (devs, lines[1])


@needs_cudahost
def test_virtual_devices_on_one_gpu_share_its_memory():
    """The default budget is 90% of the card's memory, split between the
    virtual devices on one GPU (cuda:0,cuda:0: one memory); cudaMallocAsync's
    pool keeps what the budgets of its GPU's devices add up to across a
    synchronisation (the host build reports device 0's threshold)."""
    code = "import ndtile as np; print([d['memory'] for d in np.devices()])"
    total = 100 << 20
    for devs, share in [("cuda:0,1", 1), ("cuda:0,cuda:0", 2), ("cuda:0,cuda:0,cuda:1", 2)]:
        r = run(code, NDTILE_DEVICES=devs, NDTILE_CUDA_PLUGIN=cudahost_plugin(),
                NDTILE_CUDAHOST_MEM="100M", NDTILE_CUDAHOST_DEVICES="2",
                NDTILE_CUDAHOST_STATS="1")
        assert r.returncode == 0, r.stdout + r.stderr
        mem = eval(r.stdout.splitlines()[-1])
        want = [total // 10 * 9 // share] * (2 if devs == "cuda:0,1" else share)
        if devs == "cuda:0,cuda:0,cuda:1":
            want = [total // 10 * 9 // 2] * 2 + [total // 10 * 9]
        assert mem == want, (devs, mem)
        kept = int(re.search(r"(\d+) pool release threshold", r.stderr).group(1))
        assert kept == sum(m for m in mem[:share]), (devs, kept, r.stderr)
        # a host thread waiting for the device blocks (no spinning core)
        assert "4 device flags" in r.stderr, r.stderr   # cudaDeviceScheduleBlockingSync


@needs_cudahost
def test_waits_for_the_device_block_unless_told_to_spin():
    """cudaDeviceScheduleBlockingSync on every device the plugin opens (a
    worker waiting for a body's kernels leaves its core to the other
    threads); NDTILE_CUDA_SPIN=1 keeps CUDA's default (Auto, 0)."""
    code = "import ndtile as np; print(float((np.arange(100000.0) * 2).sum()))"
    for spin, flags in [(None, 4), ("1", 0), ("0", 4)]:
        env = dict(NDTILE_DEVICES="cuda:0,1", NDTILE_CUDA_PLUGIN=cudahost_plugin(),
                   NDTILE_CUDAHOST_STATS="1")
        if spin is not None:
            env["NDTILE_CUDA_SPIN"] = spin
        r = run(code, **env)
        assert r.returncode == 0 and r.stdout.split() == ["9999900000.0"], r.stdout + r.stderr
        assert f" {flags} device flags" in r.stderr, (spin, r.stderr)


@needs_cudahost
def test_fused_kernel_refused_at_launch_goes_back_to_the_interpreter(tmp_path):
    """A compiled fused kernel that the device refuses to launch
    (cudaErrorLaunchOutOfResources, injected: an error of that launch, not
    of the device) sends its program back to the interpreter: the device
    stays in use, the other programs keep their compiled kernels, and the
    bits are the interpreter's."""
    env = dict(NDTILE_DEVICES="cuda:0,1", NDTILE_CUDA_PLUGIN=cudahost_plugin(),
               NDTILE_CUDA_MEM="64M", NDTILE_CUDAHOST_STATS="1", NDTILE_VERBOSE="1",
               NDTILE_CACHE_DIR=str(tmp_path / "cache"), NDTILE_CUDA_JIT_WAIT="1")
    r = run(JIT, **env, NDTILE_CUDAHOST_FAIL="launchk:1")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "the device refused to launch the compiled kernel" in r.stderr, r.stderr
    assert "disabled" not in r.stderr and re.search(r"\b0 faults", r.stderr), r.stderr
    interpreted, compiled, compiles, hits = jit_stats(r.stderr)
    assert interpreted > 0 and compiled > 0 and compiles >= 3, r.stderr
    assert r.stdout.splitlines()[-1] == numpy_digest(JIT)      # NumPy's bits, the interpreter's


@needs_cudahost
def test_cuda_fault_names_the_op_and_goes_on_on_cpu():
    r = run("""
        import numpy, ndtile as np
        a = np.asarray(numpy.arange(4_000_000.0))     # made on the host (arange runs on the device)
        try:
            a.sum().item()
            raise SystemExit("no error")
        except RuntimeError as e:
            msg = str(e)
        print(msg)
        assert msg.startswith("sum: the CUDA device 0 failed") and "disabled" in msg, msg
        b = np.arange(4_000_000.0) * 0.5
        assert b.sum().item() == (numpy.arange(4_000_000.0) * 0.5).sum()
        assert float(a[17]) == 17.0         # a was made on the host: intact
        print("went on")
    """, NDTILE_DEVICES="cuda", NDTILE_CUDA_PLUGIN=cudahost_plugin(),
             NDTILE_CUDAHOST_FAIL="kernel:1")
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.splitlines()[-1] == "went on"
    assert "the CUDA device 0 failed" in r.stderr      # once, on stderr


# Casts and complex ordered comparisons report NumPy's floating-point errors
# wherever their tiles run: on the CPU, on simulated devices (which run the
# CPU's loops) and in the CUDA plugin's kernels (its host build), which infer
# them (scalar.h's ndt_sc_cast_fe_*, ndt_sc_cmpnan_*) and report them through
# the device's flags word. 600,000 elements: three 2 MiB tiles of float64
# (six of complex128), far above the inline threshold; frombuffer's arrays
# lend their memory, so their ops are not fused: each is an elementwise task
# of its own, which the device runs. The offending value sits in the last
# tile (the second device's, by the owner rule).
FLAGS = """
    import hashlib, json, warnings, numpy, ndtile as np
    n = 600_000
    def lent(x):
        return np.frombuffer(x.tobytes(), dtype=x.dtype)
    def arr(dtype, **at):
        x = numpy.ones(n, dtype)
        for i, v in at.items():
            x[int(i[1:])] = v
        return x
    last = "i%d" % (n - 5)
    F = {last: 1e300}
    cases = [
        ("f64->i32 1e300", arr(float, **F), "astype", numpy.int32),
        ("f64->i64 nan", arr(float, **{last: numpy.nan}), "astype", numpy.int64),
        ("f64->u8 -inf", arr(float, **{last: -numpy.inf}), "astype", numpy.uint8),
        ("f64->u32 2**32", arr(float, **{last: 2.0 ** 32}), "astype", numpy.uint32),
        ("f32->i16 inf", arr(numpy.float32, **{last: numpy.inf}), "astype", numpy.int16),
        ("f64->u64 -1e19", arr(float, **{last: -1e19}), "astype", numpy.uint64),
        ("f64->i32 -2.75", arr(float, **{last: -2.75}), "astype", numpy.int32),
        ("f64->f32 1e300", arr(float, **F), "astype", numpy.float32),
        ("f64->f32 -3.4028235677973366e38", arr(float, **{last: -3.4028235677973366e38}),
         "astype", numpy.float32),
        ("f64->f32 FLT_MAX-ish", arr(float, **{last: 3.4028235677973362e38}), "astype",
         numpy.float32),
        ("f64->f32 nan inf", arr(float, **{last: numpy.nan, "i7": numpy.inf}), "astype",
         numpy.float32),
        ("c128->c64 imag 1e300", arr(complex, **{last: complex(0, 1e300)}), "astype",
         numpy.complex64),
        ("f64->c64 1e300", arr(float, **F), "astype", numpy.complex64),
        ("f64->bool nan", arr(float, **{last: numpy.nan}), "astype", numpy.bool_),
        ("c128 < nan re", arr(complex, **{last: complex(numpy.nan, 0)}), "less", None),
        ("c128 <= nan im, equal re", arr(complex, **{last: complex(1, numpy.nan)}),
         "less_equal", None),
        ("c64 > nan re", arr(numpy.complex64, **{last: complex(numpy.nan, 1)}), "greater",
         None),
        ("c64 >= nan im, equal re", arr(numpy.complex64, **{last: complex(1, numpy.nan)}),
         "greater_equal", None),
        ("c128 < nan im, other re", arr(complex, **{last: complex(5, numpy.nan)}), "less",
         None),
        ("c128 == nan", arr(complex, **{last: complex(numpy.nan, 0)}), "equal", None),
        ("c128 < clean", arr(complex), "less", None),
    ]
    def run(mod, x, how, to, err):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            try:
                with mod.errstate(**err):
                    if how == "astype":
                        r = x.astype(to)
                    else:
                        y = numpy.ones(n, x.dtype)
                        r = getattr(mod, how)(x, y if mod is numpy else lent(y))
                    r = numpy.asarray(r)
                    out = ("ok", str(r.dtype), hashlib.sha1(r.tobytes()).hexdigest())
            except FloatingPointError as e:
                out = ("raise", str(e))
        return [out, sorted(str(m.message) for m in w if m.category is RuntimeWarning)]
    bad = []
    for name, x, how, to in cases:
        for err in ({}, {"invalid": "raise", "over": "raise"}, {"all": "ignore"}):
            want = run(numpy, x, how, to, err)
            got = run(np, lent(x), how, to, err)
            if got != want:
                bad.append([name, err, want, got])
    print(json.dumps(bad))
    print(json.dumps(np._core.device_stats()))
"""


@pytest.mark.parametrize("devices", ["none", "sim:2,mem=4M", "cudahost"])
def test_casts_and_complex_comparisons_report_numpys_fp_errors(devices):
    env = {"NDTILE_DEVICES": devices}
    if devices == "cudahost":
        if cudahost_plugin() is None:
            pytest.skip("no libndtile_cudahost.so (make build)")
        env = {"NDTILE_DEVICES": "cuda:0,1", "NDTILE_CUDA_PLUGIN": cudahost_plugin(),
               "NDTILE_CUDA_MEM": "16M", "NDTILE_CUDAHOST_STATS": "1"}
    r = run(FLAGS, **env)
    assert r.returncode == 0, r.stdout + r.stderr
    out = r.stdout.splitlines()
    bad, stats = json.loads(out[-2]), json.loads(out[-1])
    assert bad == [], "\n".join(map(str, bad))
    if devices != "none":
        assert stats["copies"] > 0, stats          # the tasks ran on the devices
    if devices == "cudahost":
        launches = int(r.stderr.split("cudahost: ")[1].split(" kernel launches")[0])
        # each case's op (three error states) ran as the plugin's kernels
        assert launches >= 21 * 3, r.stderr


# Fused elementwise groups (src/ops/fusion.c) on the CUDA plugin's
# interpreter (src/kernels/cuda/fused_impl.h, its host build here): chains
# on arrays of several tiles give NumPy's values, dtypes and warnings, with
# broadcast and strided operands, casts inside the chain, integer and float
# errors, and a group with an op the device lacks (logaddexp: the CPU runs it).
# The host build counts the interpreter's launches: the groups ran there.
FUSED = """
    import hashlib, json, warnings, numpy, ndtile as np
    rng = numpy.random.default_rng(5)
    n = 700_000                         # 5.6 MB of float64: three 2 MiB tiles
    A = [rng.standard_normal(n) for _ in range(5)]
    F = rng.standard_normal((700, 1024)).astype(numpy.float32) * 100
    G = rng.standard_normal(1024).astype(numpy.float32)
    I16 = rng.integers(-300, 300, (700, 1024)).astype(numpy.int16)
    I32 = rng.integers(-50, 50, n).astype(numpy.int32)
    Z = numpy.ones(n); Z[n - 7] = 0.0; Z[n // 2] = numpy.nan
    def chains(m, a, b, c, d, e, f, g, i16, i32, z):
        out = {}
        out["a*b+c*d-e"] = a * b + c * d - e
        x = m.zeros((700, 1024), m.float32)
        x[...] = m.maximum(m.floor(f * g + 1.5), 0.0)      # the X-ray chain's shape
        out["xray"] = x
        out["bcast+strided"] = f[:, ::2] * g[::2] - f[:, 1::2]
        out["int16->f32 casts"] = (i16 * g + f) / 3
        out["int32 chain"] = (i32 * 3 + 1) // (i32 % 5) - i32
        out["mixed to int8"] = ((i32 * 2 - 7) // 3).astype(m.int8) + m.int8(1)
        out["divide by zero"] = m.floor(a / z) + b
        out["logaddexp (cpu)"] = (m.logaddexp(a, b) > 50) + b * c   # (inexact: compared)
        return out
    def run(mod, err):
        args = (A + [F, G, I16, I32, Z]) if mod is numpy else [np.asarray(x) for x in A + [F, G, I16, I32, Z]]
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            try:
                with mod.errstate(**err):
                    res = chains(mod, *args)
                    res = {k: numpy.asarray(v) for k, v in res.items()}
                    out = sorted((k, str(v.dtype), v.shape, hashlib.sha1(v.tobytes()).hexdigest())
                                 for k, v in res.items())
            except FloatingPointError as e:
                out = ("raise", str(e))
        return [out, sorted(str(m.message) for m in w if m.category is RuntimeWarning)]
    bad = []
    for err in ({}, {"divide": "raise"}, {"all": "ignore"}):
        want, got = run(numpy, err), run(np, err)
        if got != want:
            bad.append([err, want, got])
    print(json.dumps(bad))
"""


@needs_cudahost
def test_fused_groups_run_on_the_cuda_interpreter_with_numpys_bits_and_warnings():
    r = run(FUSED, NDTILE_DEVICES="cuda:0,1", NDTILE_CUDA_PLUGIN=cudahost_plugin(),
            NDTILE_CUDA_MEM="64M", NDTILE_CUDAHOST_STATS="1")
    assert r.returncode == 0, r.stdout + r.stderr
    assert json.loads(r.stdout.splitlines()[-1]) == [], r.stdout
    line = r.stderr.split("cudahost: ")[1]
    fused = int(line.split(" faults, ")[1].split(" fused launches")[0]) if "fused" in line else 0
    assert fused >= 3 * 6, r.stderr      # the groups ran on the device's interpreter


# A fused group may read 12 external inputs and write up to 24 results
# (fusion.c's limits): the interpreter's program takes every group, so a
# wide one (several accumulations recorded between two reads, as the X-ray
# example's last batch records them) runs on the device, not on the CPU.
WIDE = """
import json, sys, numpy, ndtile as np
rng = numpy.random.default_rng(3)
n = 700_000                            # two 2 MiB tiles of float32
X = [rng.standard_normal(n).astype(numpy.float32) for _ in range(13)]
M = rng.standard_normal(n) > 0
def prog(m, x, mask):
    s_on, s_off, top = x[10].copy(), x[11].copy(), x[12].copy()   # accumulators
    float(s_on[0] + s_off[0] + top[0])                             # made before
    s_on += x[0] * x[1]
    s_off += x[2] * x[3]
    top1 = m.maximum(top, x[4])
    top = m.maximum(top1, x[5] - x[6])
    d = s_on / x[7] - s_off / x[8] + x[9]
    flat = m.where(mask, d, -m.inf)
    return [s_on, s_off, top1, top, d, flat]
want = prog(numpy, X, M)
got = prog(np, [np.asarray(x) for x in X], np.asarray(M))
bad = [i for i, (g, w) in enumerate(zip(got, want))
       if not (numpy.asarray(g).dtype == w.dtype and numpy.array_equal(numpy.asarray(g), w))]
print(json.dumps(bad))
"""


@needs_cudahost
def test_wide_fused_groups_run_on_the_device(tmp_path):
    trace = tmp_path / "t.json"
    r = run(WIDE, NDTILE_DEVICES="cuda:0", NDTILE_CUDA_PLUGIN=cudahost_plugin(),
            NDTILE_CUDA_MEM="256M", NDTILE_PROFILE=str(trace))
    assert r.returncode == 0, r.stdout + r.stderr
    assert json.loads(r.stdout.splitlines()[-1]) == [], r.stdout
    ev = [e for e in json.loads(trace.read_text())["traceEvents"]
          if e["ph"] == "X" and e.get("args", {}).get("kind") == "fused elementwise"]
    wide = [e for e in ev if e["name"].count("+") >= 7]
    assert wide, sorted({e["name"] for e in ev})        # one group took the whole program
    assert {e["args"]["proc"] for e in ev} == {"cuda"}, [(e["name"], e["args"]) for e in ev]


# The fused groups' second tier (src/runtime/cuda_jit.c, fused_gen.c): a
# program that recurs is compiled into a kernel of its own (in the host
# build: the emulated NVRTC compiles the generated source as C, the emulated
# library calls load it), cached on disk, and later launches use it. The
# chains repeat, so their programs recur; NDTILE_CUDA_JIT_WAIT=1 makes the
# batch that queues a compile wait for it, so the compiled path surely runs.
# Values and warnings are NumPy's each round; the printed digest (all rounds'
# bytes) is the same whichever tier ran, whether the kernel was compiled,
# read from the cache, or never made (the interpreter alone).
JIT = """
    import hashlib, warnings, numpy, ndtile as np
    rng = numpy.random.default_rng(1)
    n = 700_000                         # three 2 MiB tiles of float64
    A = [rng.standard_normal(n) for _ in range(5)]
    Z = numpy.ones(n); Z[5] = 0.0; Z[n // 2] = numpy.nan
    I = rng.integers(-50, 50, n).astype(numpy.int32)
    F = rng.standard_normal((700, 1024)).astype(numpy.float32) * 100
    G = rng.standard_normal(1024).astype(numpy.float32)
    def chains(m, a, b, c, d, e, z, i, f, g):
        return [a * b + c * d - e, m.floor(a / z) + b, (i * 3 + 1) // (i % 5) - i,
                ((i * 2 - 7) // 3).astype(m.int8) + m.int8(1), f[:, ::2] * g[::2] - f[:, 1::2],
                m.maximum(m.floor(f * g + 1.5), 0.0) > 3]
    def run(m, args):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            out = [numpy.asarray(x) for x in chains(m, *args)]
        return out, sorted(str(x.message) for x in w if x.category is RuntimeWarning)
    mine = [np.asarray(x) for x in A + [Z, I, F, G]]
    want, want_w = run(numpy, A + [Z, I, F, G])
    h = hashlib.sha256()
    for k in range(6):
        got, got_w = run(np, mine)
        assert got_w == want_w, (k, got_w, want_w)
        for x, y in zip(got, want):
            assert x.dtype == y.dtype and x.shape == y.shape and x.tobytes() == y.tobytes(), k
            h.update(x.tobytes())
    print(h.hexdigest())
"""


@functools.lru_cache(maxsize=None)
def numpy_digest(code):
    """What a program that checks each round's bytes against NumPy's (JIT)
    prints with NumPy itself in ndtile's place: the digest of NumPy's bytes,
    the one every tier that passes prints (the interpreter's run, which the
    tests below compared with, costs a process on the emulated devices)."""
    assert "ndtile as np" in code
    r = run(code.replace("ndtile as np", "numpy as np"))
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout.splitlines()[-1]


def jit_stats(stderr):
    """the host build's fused counts: interpreted, compiled, compiles, cache hits"""
    m = re.search(r"fused: (\d+) interpreted, (\d+) compiled, (\d+) compiles, (\d+) cache hits",
                  stderr)
    assert m, stderr
    return tuple(int(x) for x in m.groups())


@needs_cudahost
def test_fused_kernels_compiled_cached_and_same_bits(tmp_path):
    cache = tmp_path / "cache"
    env = dict(NDTILE_DEVICES="cuda:0,1", NDTILE_CUDA_PLUGIN=cudahost_plugin(),
               NDTILE_CUDA_MEM="64M", NDTILE_CUDAHOST_STATS="1", NDTILE_CACHE_DIR=str(cache),
               NDTILE_VERBOSE="1")
    interp = run(JIT, **env, NDTILE_CUDA_JIT="0")
    assert interp.returncode == 0, interp.stdout + interp.stderr
    assert jit_stats(interp.stderr)[1:] == (0, 0, 0), interp.stderr
    assert not cache.exists()
    first = run(JIT, **env, NDTILE_CUDA_JIT_WAIT="1")
    assert first.returncode == 0, first.stdout + first.stderr
    _, compiled, compiles, hits = jit_stats(first.stderr)
    assert compiled > 0 and compiles >= 3 and hits == 0, first.stderr
    files = sorted(cache.glob("fused-*.bin"))
    assert len(files) == compiles, (files, first.stderr)
    # a second process loads the kernels from the cache: no compile
    second = run(JIT, **env, NDTILE_CUDA_JIT_WAIT="1")
    assert second.returncode == 0, second.stdout + second.stderr
    _, compiled2, compiles2, hits2 = jit_stats(second.stderr)
    assert compiled2 > 0 and compiles2 == 0 and hits2 == compiles, second.stderr
    # corrupt files (garbage, a cut one, an empty one) are ignored and rewritten
    good = files[0].read_bytes()
    files[0].write_bytes(b"not a kernel" * 100)
    files[1].write_bytes(good[: len(good) // 2])
    files[2].write_bytes(b"")
    third = run(JIT, **env, NDTILE_CUDA_JIT_WAIT="1")
    assert third.returncode == 0, third.stdout + third.stderr
    _, compiled3, compiles3, hits3 = jit_stats(third.stderr)
    assert compiled3 > 0 and compiles3 == 3 and hits3 == compiles - 3, third.stderr
    assert "is unusable; compiling again" in third.stderr
    assert files[0].read_bytes()[:8] == b"NDTFK001" and files[2].stat().st_size > 100
    fourth = run(JIT, **env, NDTILE_CUDA_JIT_WAIT="1")
    assert jit_stats(fourth.stderr)[2:] == (0, compiles), fourth.stderr
    assert "fused kernels: NVRTC 13.0, driver 13000, sm_90" in fourth.stderr, fourth.stderr
    # another NVRTC, then another driver: other keys (the cubins of one
    # toolkit are never taken for another's), each kernel compiled again
    # into a file of its own
    n = len(files)
    for k, ver in enumerate([{"NDTILE_CUDAHOST_NVRTC_VERSION": "13.1"},
                             {"NDTILE_CUDAHOST_DRIVER_VERSION": "13020"}]):
        other = run(JIT, **env, **ver, NDTILE_CUDA_JIT_WAIT="1")
        assert other.returncode == 0, other.stdout + other.stderr
        assert jit_stats(other.stderr)[2:] == (compiles, 0), (ver, other.stderr)
        assert len(list(cache.glob("fused-*.bin"))) == n + (k + 1) * compiles, ver
        assert other.stdout.splitlines()[-1] == fourth.stdout.splitlines()[-1]
    # the default policy (compiles in the background, no wait): the same bits
    free = run(JIT, **env)
    assert free.returncode == 0, free.stdout + free.stderr
    digests = {r.stdout.splitlines()[-1] for r in (interp, first, second, third, fourth, free)}
    assert digests == {numpy_digest(JIT)}, digests


@needs_cudahost
def test_fused_groups_on_compiled_kernels_only(tmp_path):
    """NDTILE_CUDA_JIT=1 with the wait: every program is compiled before
    its first batch, so FUSED's chains (NumPy's values, dtypes, warnings and
    raised errors) run on compiled kernels alone."""
    r = run(FUSED, NDTILE_DEVICES="cuda:0,1", NDTILE_CUDA_PLUGIN=cudahost_plugin(),
            NDTILE_CUDA_MEM="64M", NDTILE_CUDAHOST_STATS="1", NDTILE_CUDA_JIT="1",
            NDTILE_CUDA_JIT_WAIT="1", NDTILE_CACHE_DIR=str(tmp_path))
    assert r.returncode == 0, r.stdout + r.stderr
    assert json.loads(r.stdout.splitlines()[-1]) == [], r.stdout
    interpreted, compiled, compiles, hits = jit_stats(r.stderr)
    assert interpreted == 0 and compiled >= 3 * 6 and compiles >= 6, r.stderr


@needs_cudahost
def test_fused_kernels_without_nvrtc_stay_on_the_interpreter(tmp_path):
    env = dict(NDTILE_DEVICES="cuda:0,1", NDTILE_CUDA_PLUGIN=cudahost_plugin(),
               NDTILE_CUDA_MEM="64M", NDTILE_CUDAHOST_STATS="1",
               NDTILE_CACHE_DIR=str(tmp_path / "cache"), NDTILE_CUDA_JIT_WAIT="1")
    r = run(JIT, **env, NDTILE_CUDAHOST_NVRTC="none", NDTILE_VERBOSE="1")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "fused kernels: no NVRTC library" in r.stderr, r.stderr
    interpreted, compiled, compiles, hits = jit_stats(r.stderr)
    assert interpreted > 0 and (compiled, compiles, hits) == (0, 0, 0), r.stderr
    assert r.stdout.splitlines()[-1] == numpy_digest(JIT)      # NumPy's bits, the interpreter's


def test_fused_groups_on_simulated_devices():
    r = run(FUSED, NDTILE_DEVICES="sim:2,mem=4M")
    assert r.returncode == 0, r.stdout + r.stderr
    assert json.loads(r.stdout.splitlines()[-1]) == [], r.stdout


# Views whose runs are strided and lie across tiles (a transpose's columns,
# every fifth element, reversed steps) are gathered into scratch on the
# device, and written back, by one launch of the index kernels' view copy
# over the view's tiles (memory view_copy, cuda.c's cm_view_copy), not a
# copy and a stream wait per run (2-d copies) or per element (negative
# steps). (A view over more tiles than a launch holds, 512, is split into
# parts that fit: test_reversed_lines_across_tiles_sort_on_the_device.)
STRIDED = """
import numpy, ndtile as np
x = numpy.arange(3_000_000, dtype=numpy.float64).reshape(1000, 3000)
b = np.asarray(x) + 1
t = b.T[::2] * 2 + 1
u = b[::3, ::5] - 3
v = b[::-1, ::-5] - 3
c = (np.asarray(x) + 1j).T[::-3].real * 2       # a part of a complex element
w = np.asarray(x.copy())
w.T[::-2] = b.T[::-2] * 3                        # a strided write, scattered back
for got, want in ((t, (x + 1).T[::2] * 2 + 1), (u, (x + 1)[::3, ::5] - 3),
                  (v, (x + 1)[::-1, ::-5] - 3), (c, (x + 1j).T[::-3].real * 2)):
    got = numpy.asarray(got)
    assert got.dtype == want.dtype and numpy.array_equal(got, want)
want = x.copy()
want.T[::-2] = (x + 1).T[::-2] * 3
assert numpy.array_equal(numpy.asarray(w), want)
print("ok")
"""


def test_strided_gathers_on_the_device_are_one_launch():
    if cudahost_plugin() is None:
        pytest.skip("no libndtile_cudahost.so (make build)")
    r = run(STRIDED, NDTILE_DEVICES="cuda", NDTILE_CUDA_PLUGIN=cudahost_plugin(),
            NDTILE_CUDAHOST_STATS="1")
    assert r.returncode == 0 and r.stdout.strip().endswith("ok"), r.stdout + r.stderr
    line = r.stderr.split("cudahost: ")[1]
    n = {k: int(re.search(r"(\d+) " + k, line).group(1))
         for k in ("fused launches", "copies", "2-d copies", "view copies")}
    assert n["fused launches"] > 0, line      # the ops ran on the (emulated) device
    assert n["view copies"] >= 4, line        # the gathers and the scatter
    # (a copy each run made 3000 2-d copies for t alone; element by element
    # for v, 600 thousand copies)
    assert n["2-d copies"] == 0 and n["copies"] < 1000, line


# Transposed operands of a (7, n) array with 4 KiB tiles: an operand's
# accesses are the tiles of its extent, so every task of `a.T.copy()` reads
# about every tile of `a`; a grouped device task checked each read against
# every access the group held (sched.c group_conflicts), time cubic in n
# (the fuzzer's cudahost_small_tiles setting hung on a (57142, 7) where;
# `a.T.copy()` on sim:2 took 0.25, 2.6 and 14 s for n = 2,500, 5,000 and
# 10,000: 40,000 here would take minutes, past run()'s 300 s; now seconds).
# Reads meet only the group's writes now. NumPy's values on sim and cudahost.
TRANSPOSED = """
import numpy, ndtile as np
n = 40_000
x = numpy.arange(7 * n, dtype=numpy.int64).reshape(7, n) % 1009 - 500
y = numpy.arange(7 * n, dtype=numpy.int64).reshape(n, 7) % 997 - 400
a, b = np.asarray(x) * 1, np.asarray(y) + 0
got = [a.T.copy(), np.where(b > 0, a.T, b), (b - a.T).max(axis=0)]
want = [x.T.copy(), numpy.where(y > 0, x.T, y), (y - x.T).max(axis=0)]
b.T[...] = a
y.T[...] = x
got.append(b)
want.append(y)
for g, w in zip(got, want):
    g = numpy.asarray(g)
    assert g.dtype == w.dtype and numpy.array_equal(g, w)
print("ok")
"""


@pytest.mark.parametrize("devices", ["sim:2,mem=4M", "cuda:0,1"])
def test_transposed_operands_across_many_small_tiles_on_devices(devices):
    env = {"NDTILE_DEVICES": devices, "NDTILE_TILE_BYTES": "4096"}
    if devices.startswith("cuda"):
        if cudahost_plugin() is None:
            pytest.skip("no libndtile_cudahost.so (make build)")
        env.update(NDTILE_CUDA_PLUGIN=cudahost_plugin(), NDTILE_CUDA_MEM="16M")
    r = run(TRANSPOSED, **env)
    assert r.returncode == 0 and r.stdout.strip().endswith("ok"), r.stdout + r.stderr


# A block of a transpose or a stepped view reaches a few of the tiles of
# its extent (bind.c ndt__view_tiles): its task names and pins those alone,
# and the CUDA plugin's view copy is handed their pieces alone (cuda.c,
# through ndt_plugin_host.view_tiles; the emulation's launch check fails a
# launch that reaches a tile it was not handed, or is handed a freed one:
# the illegal address that kept the rule off with devices). Each block of
# `a.T.copy()` of a (7, 57142) array in 4 KiB tiles spans about 780 tiles
# and reaches 7 to 14 of them: it fits a 256 KiB device (its extent did
# not: every task ran on the CPU) and is gathered in one launch (its
# extent, split into parts of at most 512 tiles, took two or more).
# NumPy's values.
GAPS = """
import numpy, ndtile as np
n = 57_142
x = numpy.arange(7 * n, dtype=numpy.float64).reshape(7, n)
a = np.asarray(x) * 1
# a read back: valid on the host too, so the devices (far smaller than a)
# evict its tiles clean; a device full of a's only copies would write one
# back for each it takes in, and the plan keeps such tasks on the CPU
# (proc.c's plan_moves)
numpy.asarray(a)
got = [a.T.copy(), a[::2, ::-900].T.copy(), a[1:, 3::97].copy()]
want = [x.T.copy(), x[::2, ::-900].T.copy(), x[1:, 3::97].copy()]
a.T[4::9] = a.T[::9][: a.T[4::9].shape[0]] * 2          # a strided write, scattered back
x.T[4::9] = x.T[::9][: x.T[4::9].shape[0]] * 2
got.append(a)
want.append(x)
for g, w in zip(got, want):
    g = numpy.asarray(g)
    assert g.dtype == w.dtype and numpy.array_equal(g, w)
print(np._core.device_stats()["fallbacks"], "ok")
"""


def test_views_with_gaps_copy_only_their_pinned_tiles_on_the_device():
    if cudahost_plugin() is None:
        pytest.skip("no libndtile_cudahost.so (make build)")
    r = run(GAPS, NDTILE_DEVICES="cuda:0,1", NDTILE_CUDA_PLUGIN=cudahost_plugin(),
            NDTILE_CUDA_MEM="256k", NDTILE_TILE_BYTES="4096", NDTILE_CUDAHOST_STATS="1")
    assert r.returncode == 0 and r.stdout.strip().endswith("ok"), r.stdout + r.stderr
    line = r.stderr.split("cudahost: ")[1]
    views = int(re.search(r"(\d+) view copies", line).group(1))
    # a.T.copy() is 783 tasks, one an output tile (a 4 KiB tile of the
    # (57142, 7) result reads 7 to 14 tiles of a, each row of it across
    # tiles: the elementwise split makes no pieces of it), each gathering
    # its block on a device in one launch; 969 in all (50,104 tasks and
    # 61,304 launches when the split made a task a row, 139,808 when the
    # extents were split into parts of at most 512 tiles)
    assert 783 <= views < 2_000, line


# Tasks of a few bytes over tiles far apart: np.apply_along_axis(np.sort,
# -2, a) of a (2, n) array makes a sort of two elements per column, one in
# each row's tile, and a copy of its result into a column of the result.
# Each pulled whole tiles onto a full device and evicted the tiles the next
# one needed (the fuzzer's sim2 "hang": (2, 500000) float32 on
# sim:2,mem=4M, over 60 s; 8 KiB tiles here: 40 MB copied and 7,400
# evictions for 3,000 columns). Placement now leaves a task where its data
# is valid when moving would cost more than twice its work (proc.c's
# plan_moves): the host's data stays there, a device's stays there; a few
# bytes move per column at most.
THRASH = """
import json, numpy, ndtile as np
v = numpy.random.default_rng(3).standard_normal((2, 3000)).astype(numpy.float32)
out = []
for resident in (False, True):
    a = np.asarray(v)
    if resident:
        a = a * numpy.float32(1)          # made on the devices
    s0 = np._core.device_stats()
    r = numpy.asarray(np.apply_along_axis(np.sort, -2, a))
    s1 = np._core.device_stats()
    want = numpy.apply_along_axis(numpy.sort, -2, v)
    out.append([r.dtype == want.dtype and bool(numpy.array_equal(r, want)),
                {k: s1[k] - s0[k] for k in s1}])
print(json.dumps(out))
"""


def test_tiny_tasks_over_far_tiles_do_not_thrash_a_full_device():
    r = run(THRASH, NDTILE_DEVICES="sim:2,mem=16k", NDTILE_TILE_BYTES="8192")
    assert r.returncode == 0, r.stdout + r.stderr
    for same, st in json.loads(r.stdout.splitlines()[-1]):
        assert same
        # a tile moved a few times at most, a column's few bytes each
        assert st["evictions"] <= 8 and st["copy_bytes"] <= 4 * 8192 + 16 * 3000, st
        assert st["fallbacks"] == 0, st


# Advanced-index reads (gather) and writes (put) on multi-tile arrays run
# on the device (src/kernels/cuda/index_impl.h through the plugin's host
# build): NumPy's values, and its IndexError for the first bad index.
INDEXING = """
import json, numpy, ndtile as np
rng = numpy.random.default_rng(5)
bad = []
def same(tag, got, want):
    got = numpy.asarray(got)
    if got.dtype != want.dtype or got.shape != want.shape or got.tobytes() != want.tobytes():
        bad.append(tag)
def err(tag, f_np, f_nt):
    try:
        f_np()
        want = None
    except IndexError as e:
        want = str(e)
    try:
        f_nt()
        got = None
    except IndexError as e:
        got = str(e)
    if got != want or want is None:
        bad.append([tag, want, got])
n = 1_200_000
srcs = {"f8": rng.standard_normal(n),
        "c16": rng.standard_normal(n) + 1j * rng.standard_normal(n),
        "b1": rng.standard_normal(n) > 0,
        "i2": rng.integers(-30000, 30000, n).astype(numpy.int16)}
for name, x in srcs.items():
    a = np.asarray(x)
    for it in (numpy.int64, numpy.int32):
        i = rng.integers(-n, n, 50_000).astype(it)
        same((name, str(it), "1-d"), a[np.asarray(i)], x[i])
    i2 = rng.integers(0, n, (300, 200))                  # an n-d index array
    same((name, "2-d idx"), a[np.asarray(i2)], x[i2])
    same((name, "reversed"), a[::-1][np.asarray(i2)], x[::-1][i2])
    same((name, "uint8"), a[np.asarray(numpy.arange(250, dtype=numpy.uint8))],
         x[numpy.arange(250, dtype=numpy.uint8)])
# two index arrays into a 2-d source, one of them of a strided view
x = rng.standard_normal((1500, 1000))
a = np.asarray(x)
r, c = rng.integers(0, 1500, 80_000), rng.integers(-1000, 1000, 80_000)
same("2-d", a[np.asarray(r), np.asarray(c)], x[r, c])
same("2-d strided", a[::-3, ::2][np.asarray(r) // 3, np.asarray(c) // 2], x[::-3, ::2][r // 3, c // 2])
# out of bounds: the first bad index in C order, with its axis
x = srcs["f8"]
a = np.asarray(x)
i = rng.integers(0, n, 100_000)
i[70_000], i[90_000] = n + 5, -n - 9
err("1-d", lambda: x[i], lambda: a[np.asarray(i)])
r[60_000], c[50_000] = 1500, 1000
x2 = rng.standard_normal((1500, 1000))
err("2-d", lambda: x2[r, c], lambda: np.asarray(x2)[np.asarray(r), np.asarray(c)])
# put: repeated indices keep the last value; complex and bool targets
for name, x in srcs.items():
    y = x.copy()
    b = np.asarray(y)
    i = rng.integers(-n, n, 60_000)
    i[1::3] = i[::3][: len(i[1::3])]
    v = x[rng.integers(0, n, 60_000)]
    b[np.asarray(i)] = np.asarray(v)
    y[i] = v
    same((name, "put"), b, y)
y = srcs["f8"].copy()
b = np.asarray(y)
i = rng.integers(0, n, 1000)
i[700] = n
err("put", lambda: y.__setitem__(i, 1.5), lambda: b.__setitem__(np.asarray(i), np.asarray(numpy.full(1000, 1.5))))
same("put after error", b, y)
# the core's own check (ndt_gather, ndt_put: the Python layer checks first
# as NumPy does): the first bad index in C order, with its axis; a put
# writes nothing then (a deferred task's error surfaces at the sync)
def core_err(tag, f, want):
    try:
        f()
        got = None
    except IndexError as e:
        got = str(e)
    if got != want:
        bad.append([tag, want, got])
x2 = rng.standard_normal((1500, 1000))
a2 = np.asarray(x2)
r = rng.integers(0, 1500, 80_000).astype(numpy.int32)
c = rng.integers(0, 1000, 80_000).astype(numpy.int16)
r[60_000], c[50_000], c[60_000], r[70_000] = 1500, -1, 1000, -7
# (several blocks: the call finds the bad index itself, NumPy's: the first
# index array holding one, its first in C order, though c's comes earlier)
core_err("core 2-d", lambda: (np._core.gather(a2, [np.asarray(r), np.asarray(c)]), np._core.sync()),
         "index 1500 is out of bounds for axis 0 with size 1500")
same("core 2-d ok", np._core.gather(a2, [np.asarray(r[:50_000]), np.asarray(c[:50_000])]),
     x2[r[:50_000], c[:50_000]])
u = rng.integers(0, 200, (400, 300)).astype(numpy.uint8)
u[399, 7] = 250
core_err("core uint8", lambda: (np._core.gather(np.asarray(srcs["f8"][:200]), [np.asarray(u)]),
                              np._core.sync()),
         "gather: index 250 is out of bounds for axis 0 with size 200")
y = srcs["c16"].copy()
b = np.asarray(y)
i = rng.integers(0, n, 50_000)
i[30_000], i[40_000] = n + 3, -2
core_err("core put", lambda: (np._core.put(b, np.asarray(i), np.asarray(y[:50_000] * 2)),
                             np._core.sync()),
         "put: index %d is out of bounds for axis 0 with size %d" % (n + 3, n))
same("core put wrote nothing", b, srcs["c16"])
print(json.dumps(bad))
"""


@needs_cudahost
def test_advanced_indexing_runs_on_the_device_with_numpys_values_and_errors():
    r = run(INDEXING, NDTILE_DEVICES="cuda:0,1", NDTILE_CUDA_PLUGIN=cudahost_plugin(),
            NDTILE_CUDAHOST_STATS="1")
    assert r.returncode == 0, r.stdout + r.stderr
    assert json.loads(r.stdout.splitlines()[-1]) == [], r.stdout
    line = r.stderr.split("cudahost: ")[1]
    assert " index launches" in line, line     # the counter is there
    index = int(re.search(r"(\d+) index launches", line).group(1))
    assert index >= 30, line                     # the reads and writes ran on the devices


# argwhere / nonzero / flatnonzero on device-resident arrays of several
# tiles (nz_impl.h: a block's count, then its rows, in C order): NumPy's
# indices for every dtype (NaN non-zero, -0.0 zero, complex numbers zero in
# one part), through strided and reversed views, 1-d to 3-d, and none found.
NONZERO = """
import json, numpy, ndtile as np
rng = numpy.random.default_rng(8)
bad = []
def same(tag, got, want):
    got = [numpy.asarray(g) for g in got] if isinstance(got, tuple) else numpy.asarray(got)
    want = list(want) if isinstance(want, tuple) else want
    if isinstance(want, list):
        ok = len(got) == len(want) and all(g.dtype == w.dtype and g.shape == w.shape and
                                          numpy.array_equal(g, w) for g, w in zip(got, want))
    else:
        ok = got.dtype == want.dtype and got.shape == want.shape and numpy.array_equal(got, want)
    if not ok:
        bad.append(tag)
for dt in ("bool", "int8", "uint16", "int32", "int64", "float32", "float64",
           "complex64", "complex128"):
    x = rng.integers(0, 4, (250, 100, 40)).astype(dt)   # 1M elements: 1 to 8 tiles
    x[(rng.random(x.shape) < 0.6)] = 0
    if x.dtype.kind in "fc":
        x.flat[::7919] = numpy.nan
        x.flat[5::7919] = -0.0
    if x.dtype.kind == "c":
        x.flat[11::1000] = 1j
    a = np.asarray(x)
    float(np.asarray(x[:1, :1, :1]).sum())       # a is on the device when it is read
    same(dt + " argwhere", np.argwhere(a), numpy.argwhere(x))
    same(dt + " nonzero", np.nonzero(a), numpy.nonzero(x))
    same(dt + " strided", np.argwhere(a[::-2, 3::3]), numpy.argwhere(x[::-2, 3::3]))
    same(dt + " flat", np.flatnonzero(a[:, 7]), numpy.flatnonzero(x[:, 7]))
z = numpy.zeros(700_000)
same("none", np.argwhere(np.asarray(z)), numpy.argwhere(z))
print(json.dumps(bad))
"""


@needs_cudahost
def test_argwhere_runs_on_the_device_with_numpys_indices(tmp_path):
    trace = tmp_path / "t.json"
    r = run(NONZERO, NDTILE_DEVICES="cuda:0,1", NDTILE_CUDA_PLUGIN=cudahost_plugin(),
            NDTILE_CUDA_MEM="64M", NDTILE_PROFILE=str(trace), NDTILE_CUDAHOST_STATS="1")
    assert r.returncode == 0, r.stdout + r.stderr
    assert json.loads(r.stdout.splitlines()[-1]) == [], r.stdout
    # A block's rows of the (n, ndim) result cross result tiles: bind.c
    # gathers and scatters them as runs of the view's merged axes (one copy
    # a tile piece), not a copy per row of 3 indices (there were 9 million
    # copies here, a device call each; now about 30 thousand).
    copies = int(re.search(r"(\d+) copies", r.stderr.split("cudahost: ")[1]).group(1))
    assert copies < 100_000, copies
    ev = [e for e in json.loads(trace.read_text())["traceEvents"]
          if e["ph"] == "X" and e.get("args", {}).get("kind", "").startswith("argwhere")]
    where = {(e["args"]["kind"], e["args"]["proc"]) for e in ev}
    assert ("argwhere count", "cuda") in where and ("argwhere fill", "cuda1") in where, where


# The transcendental functions on the device (ew_ops.h's NDT_DK_MATH_OPS):
# the device's math library (here the host build's libm; on a GPU CUDA's),
# so within a bound of NumPy rather than the CPU's bits, with NumPy's
# warnings and errors (the CPU's rule from the values, scalar.h's
# ndt_sc_fv_*), alone and inside fused chains, on arrays of several tiles;
# NDTILE_CUDA_MATH=0 keeps them on the CPU, with the CPU's bits.
MATH = """
    import hashlib, json, sys, warnings, numpy, ndtile as np
    rng = numpy.random.default_rng(8)
    n = 600_000                                       # 4.8 MB of float64: three tiles
    mag = numpy.where(rng.random(n) < 0.5, -1, 1) * 10.0 ** rng.uniform(-6, 6, n)
    unit = rng.uniform(-1.5, 1.5, n)
    x64 = numpy.where(numpy.arange(n) % 2 == 0, mag, unit)
    x64[:12] = [0.0, -0.0, numpy.inf, -numpy.inf, numpy.nan, 1e-310, -1.0, 1.0, 800.0, -800.0,
                1e300, -1e-300]
    y64 = numpy.roll(x64, 7)
    F1 = ["exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan",
          "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh", "arccosh",
          "arctanh", "cbrt"]
    F2 = ["arctan2", "hypot"]
    def ulps(a, b):
        a = numpy.asarray(a); b = numpy.asarray(b)
        it = numpy.int64 if a.dtype == numpy.float64 else numpy.int32
        ia, ib = a.view(it).astype(numpy.int64), b.view(it).astype(numpy.int64)
        lo = numpy.iinfo(it).min
        ia = numpy.where(ia < 0, lo - ia, ia); ib = numpy.where(ib < 0, lo - ib, ib)
        both = numpy.isnan(a) & numpy.isnan(b)
        d = numpy.where(both, 0, numpy.abs(ia - ib))
        d = numpy.where(numpy.isnan(a) != numpy.isnan(b), 1 << 40, d)
        return int(d.max())
    def calls(m, x, y):
        out = {}
        for f in F1:
            out[f] = getattr(m, f)(x)
        for f in F2:
            out[f] = getattr(m, f)(x, y)
        out["chain"] = m.exp(-x * x) * 2.0 + m.sin(x) * y      # a fused group
        out["xray-like"] = m.sqrt(m.abs(x)) + m.log1p(m.abs(y))
        return out
    def run(m, dt, err):
        x, y = x64.astype(dt), y64.astype(dt)
        if m is np:
            x, y = np.asarray(x), np.asarray(y)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            try:
                with m.errstate(**err):
                    res = {k: numpy.asarray(v) for k, v in calls(m, x, y).items()}
            except FloatingPointError as e:
                res = str(e)
        return res, sorted(set(str(v.message) for v in w if v.category is RuntimeWarning))
    worst, bad, digest = {}, [], hashlib.sha256()
    for dt in (numpy.float64, numpy.float32):
        for err in ({}, {"all": "raise"}, {"over": "raise"}, {"invalid": "ignore"}):
            (want, ww), (got, gw) = run(numpy, dt, err), run(np, dt, err)
            if isinstance(want, str) or isinstance(got, str):
                if want != got:
                    bad.append([str(dt), err, want, got])
                continue
            if ww != gw:
                bad.append([str(dt), err, ww, gw])
            for k in want:
                if want[k].dtype != got[k].dtype or want[k].shape != got[k].shape:
                    bad.append([k, str(want[k].dtype), str(got[k].dtype)])
                    continue
                if k in ("chain", "xray-like"):
                    # a sum of inexact terms: its error is relative to the
                    # terms (2 + |y| at most), not to a result that cancels
                    eps = numpy.finfo(dt).eps
                    with numpy.errstate(all="ignore"):
                        tol = 8 * eps * (2 + numpy.abs(y64.astype(dt).astype(numpy.float64)) +
                                         numpy.abs(want[k].astype(numpy.float64)))
                        diff = numpy.abs(got[k].astype(numpy.float64) - want[k])
                    ok = (diff <= tol) | (numpy.isnan(got[k]) & numpy.isnan(want[k])) | \
                         (got[k] == want[k])
                    u = 0 if ok.all() else 1 << 40
                else:
                    u = ulps(got[k], want[k])
                worst[k + " " + dt.__name__] = max(worst.get(k + " " + dt.__name__, 0), u)
                digest.update(got[k].tobytes())
    print(json.dumps({"bad": bad, "worst": worst, "hash": digest.hexdigest()}))
"""


@needs_cudahost
def test_transcendental_functions_on_the_device_within_the_bound_with_numpys_warnings():
    env = dict(NDTILE_DEVICES="cuda:0,1", NDTILE_CUDA_PLUGIN=cudahost_plugin(),
               NDTILE_CUDA_MEM="64M", NDTILE_CUDAHOST_STATS="1")
    on = run(MATH, **env)
    assert on.returncode == 0, on.stdout + on.stderr
    res = json.loads(on.stdout.splitlines()[-1])
    assert res["bad"] == [], res["bad"]
    # within 4 ULP of NumPy per element (docs/guide/deviations.md 4)
    assert max(res["worst"].values()) <= 4, res["worst"]
    off = run(MATH, NDTILE_CUDA_MATH="cpu", **env)
    assert off.returncode == 0, off.stdout + off.stderr
    res_off = json.loads(off.stdout.splitlines()[-1])
    assert res_off["bad"] == [] and max(res_off["worst"].values()) <= 4, res_off
    cpu = run(MATH)
    assert cpu.returncode == 0, cpu.stdout + cpu.stderr
    # NDTILE_CUDA_MATH=0: the CPU's bits; on the device: the device's library
    assert json.loads(cpu.stdout.splitlines()[-1])["hash"] == res_off["hash"]
    assert res["hash"] != res_off["hash"]
    def launches(r):
        line = r.stderr.split("cudahost: ")[1]
        return (int(line.split(" kernel launches")[0]),
                int(line.split(" faults, ")[1].split(" fused launches")[0]))
    (k_on, f_on), (k_off, f_off) = launches(on), launches(off)
    # the calls of each dtype and error state fuse into groups that ran on
    # the devices' interpreter; with NDTILE_CUDA_MATH=cpu on the CPU
    assert f_on >= 2 * 4 and k_on > k_off, (k_on, k_off, f_on, f_off)


# Reductions other than float sums (integer and bool sums and products,
# min/max and nanmin/nanmax, any/all, argmin/argmax:
# src/kernels/cuda/fold_impl.h) and
# scans (cumsum, cumprod, nancumsum, nancumprod: scan_impl.h) on arrays of
# many 2 MiB tiles, whole and along each axis, through views with steps:
# NumPy's values, dtypes and warnings (overflow in a float scan, invalid
# from a float -> int cast inside one), run on the host build's devices.
REDUCE_SCAN = """
import json, warnings, numpy, ndtile as np
rng = numpy.random.default_rng(11)
bad = []
def same(tag, got, want):
    got, want = numpy.asarray(got), numpy.asarray(want)
    if got.dtype != want.dtype or got.shape != want.shape:
        bad.append([str(tag), str(got.dtype), str(want.dtype), got.shape, want.shape])
    elif got.tobytes() != want.tobytes():
        ok = want.dtype.kind in "fc" and numpy.array_equal(got, want, equal_nan=True) and \\
            numpy.array_equal(numpy.signbit(got.real), numpy.signbit(want.real))
        if not ok:
            bad.append(str(tag))
def warned(tag, f_np, f_nt):
    res = []
    for f in (f_np, f_nt):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            r = numpy.asarray(f())
        res.append((r, sorted(str(x.message) for x in w)))
    same(tag, res[1][0], res[0][0])
    if res[0][1] != res[1][1] or not res[0][1]:
        bad.append([str(tag), res[0][1], res[1][1]])
x = rng.standard_normal((700, 1000))                # 5.6 MB: 3 tiles
x[rng.integers(0, 700, 40), rng.integers(0, 1000, 40)] = numpy.nan
x[7, :] = -0.0
x[9, 3], x[11, 5] = numpy.inf, -numpy.inf
data = {
    "f8": x,
    "f4": x.astype(numpy.float32)[:, :900],
    "f8 clean": numpy.where(numpy.isnan(x), 0.5, x),
    "i4": rng.integers(-2**31, 2**31, (1000, 800)).astype(numpy.int32),
    "u1": rng.integers(0, 256, (3000, 1100)).astype(numpy.uint8),
    "i8": rng.integers(-2**62, 2**62, (600, 700)),
    "b1": rng.standard_normal((3000, 1000)) > -2.5,
    "c16": rng.standard_normal((400, 600)) + 1j * rng.standard_normal((400, 600)),
}
data["c16"][3, 4] = complex(numpy.nan, 1)
for name, v in data.items():
    a = np.asarray(v)
    views = [("", a, v), ("[::2, ::3]", a[::2, ::3], v[::2, ::3]), (".T[::-1]", a.T[::-1], v.T[::-1])]
    fs = ["max", "min", "any", "all", "argmax", "argmin"] + \
        (["sum", "prod"] if v.dtype.kind in "iub" else [])
    if v.dtype.kind in "fc":
        fs += ["nanmax", "nanmin"]
    for vn, av, vv in views:
        for f in fs:
            for ax in [None, 0, 1, -1]:
                if f.startswith("arg") and ax == -1:
                    continue
                if f.startswith("nan"):
                    same((name, vn, f, ax), getattr(np, f)(av, axis=ax), getattr(numpy, f)(vv, axis=ax))
                else:
                    same((name, vn, f, ax), getattr(av, f)(axis=ax), getattr(vv, f)(axis=ax))
        for f in ["cumsum", "cumprod", "nancumsum", "nancumprod"]:
            if f.startswith("nan") and v.dtype.kind not in "fc":
                continue
            for ax in ([None, 0, 1] if vn == "" else [1]):
                same((name, vn, f, ax), getattr(np, f)(av, axis=ax), getattr(numpy, f)(vv, axis=ax))
    same((name, "sum dtype=int16"), a.sum(axis=1, dtype=numpy.int16), v.sum(axis=1, dtype=numpy.int16))
    same((name, "count_nonzero"), np.count_nonzero(a, axis=0), numpy.count_nonzero(v, axis=0))
# one long line: a 1-d scan and reductions over many tiles
v = rng.integers(-1000, 1000, 3_000_000).astype(numpy.int16)
a = np.asarray(v)
same("1-d cumsum", np.cumsum(a), numpy.cumsum(v))
same("1-d cumsum int16", np.cumsum(a, dtype=numpy.int16), numpy.cumsum(v, dtype=numpy.int16))
same("1-d max", a.max(), v.max())
same("1-d sum", a.sum(), v.sum())
same("1-d any", (a > 998).any(), (v > 998).any())
# warnings: a float scan that overflows; a cast to an integer scan
big = numpy.full((1000, 600), 1e307)
big[5, 7] = numpy.nan
warned("cumsum overflow", lambda: numpy.cumsum(big, axis=1), lambda: np.cumsum(np.asarray(big), axis=1))
# (NumPy says "invalid value encountered in cast" here; ndtile's CPU says
# "... in accumulate" too: the device reports what the CPU does)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    got = np.cumsum(np.asarray(big), axis=1, dtype=numpy.int64)
    same("cumsum cast", got, numpy.cumsum(big, axis=1, dtype=numpy.int64))
if not any("invalid value encountered" in str(m.message) for m in w):
    bad.append(["cumsum cast", [str(m.message) for m in w]])
warned("cumprod overflow", lambda: numpy.cumprod(big[:, :3], axis=0),
       lambda: np.cumprod(np.asarray(big)[:, :3], axis=0))
print(json.dumps(bad))
"""


@needs_cudahost
def test_reductions_and_scans_run_on_the_device_with_numpys_values():
    r = run(REDUCE_SCAN, NDTILE_DEVICES="cuda:0,1", NDTILE_CUDA_PLUGIN=cudahost_plugin(),
            NDTILE_CUDAHOST_STATS="1")
    assert r.returncode == 0, r.stdout + r.stderr
    assert json.loads(r.stdout.splitlines()[-1]) == [], r.stdout
    line = r.stderr.split("cudahost: ")[1]
    reduce_ = int(re.search(r"(\d+) reduce launches", line).group(1))
    scan = int(re.search(r"(\d+) scan launches", line).group(1))
    assert reduce_ >= 200 and scan >= 100, line     # they ran on the (emulated) devices


# The ordered folds into a result on the device (src/runtime/cuda_combine.h,
# src/kernels/cuda/combine_impl.h): "reduce combine" (the blocks' partials
# folded in block order, or the direct fold of the input's blocks: max and
# sum over the frames of a C array), the float and complex products
# ("prod chain", "prod fold") and the NaN-ignoring and complex sums along a
# line (reduce_impl.h's pairwise sums: NaNs read as 0; NumPy's complex
# tree), on arrays of many tiles resident on the
# device: placed there (the device log), with NumPy's values, the CPU's
# bits (the same script on the CPU), NumPy's warnings, and the bytes that
# come back to the host for a max over the frames (the result's only).
COMBINE = """
import ctypes, hashlib, json, warnings, numpy, ndtile as np
lib = ctypes.CDLL(np._core.__file__)
lib.ndt_debug_device_log_text.restype = ctypes.c_char_p
rng = numpy.random.default_rng(5)
bad, on_cpu, digest = [], [], hashlib.sha256()
def same(tag, got, want):
    got, want = numpy.asarray(got), numpy.asarray(want)
    # (a NaN's sign and payload after NaN inputs meet depend on operand
    # order, as test_devkernels says: NaNs made canonical. A strided view's
    # sum over (1, 2) is in the digest: its pairwise runs follow the view,
    # not whether its operand was gathered, on the CPU and the device)
    h = numpy.where(numpy.isnan(got), numpy.nan, got) if got.dtype.kind in "fc" else got
    digest.update(repr((str(tag), got.dtype.str, got.shape)).encode() + h.tobytes())
    if got.dtype != want.dtype or got.shape != want.shape:
        bad.append([str(tag), str(got.dtype), str(want.dtype), got.shape, want.shape])
    elif want.dtype.kind in "fc":
        if not numpy.allclose(got, want, rtol=1e-4, atol=1e-3, equal_nan=True):
            bad.append(str(tag))
    elif got.tobytes() != want.tobytes():
        bad.append(str(tag))
def placed(tag, f):
    lib.ndt_debug_device_log(1)
    r = f()
    numpy.asarray(r)
    log = lib.ndt_debug_device_log_text().decode()
    lib.ndt_debug_device_log(0)
    for line in log.split("-- ran:")[0].splitlines():
        # (a "stay" line: placed on the device, kept on the CPU by the plan)
        if (line.startswith("place") and line.endswith(" cpu") or line.startswith("stay ")) and \
                any(k in line for k in ("reduce block", "reduce combine", "prod chain",
                                        "prod fold", "pairwise leaf")):
            on_cpu.append([str(tag), line])
    return r
data = {
    "float32": (rng.standard_normal((64, 256, 256)) * 100).astype(numpy.float32),
    "float64": rng.standard_normal((64, 256, 256)) * 100,
    "int16": rng.integers(-30000, 30000, (64, 256, 256)).astype(numpy.int16),
    "uint16": rng.integers(0, 65535, (64, 256, 256)).astype(numpy.uint16),
    "bool": rng.standard_normal((64, 256, 256)) > 0.5,
}
data["float32"][3, 5, 7] = numpy.nan
data["float64"][5, 0, 0] = -0.0
for name, v in data.items():
    x = np.asarray(v)
    x = x | x if v.dtype == bool else x + v.dtype.type(0)     # resident on the device
    for vn, xv, vv in [("", x, v), ("[::-1]", x[::-1], v[::-1]), ("[:, ::2]", x[:, ::2], v[:, ::2])]:
        for f, ax in [("max", 0), ("min", 0), ("sum", 0), ("mean", 0), ("std", 0),
                      ("sum", (1, 2)), ("max", None), ("any", 0), ("all", 0), ("max", (1, 2))]:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                want = getattr(vv, f)(axis=ax)
                got = placed((name, vn, f, ax), lambda: getattr(xv, f)(axis=ax))
            same((name, vn, f, ax), got, want)
    same((name, "any np"), placed((name, "any np"), lambda: np.any(x, axis=0)), numpy.any(v, axis=0))
    same((name, "keepdims"), x.max(axis=0, keepdims=True), v.max(axis=0, keepdims=True))
    same((name, "where"), x.sum(axis=0, where=np.asarray(v[0] > v[1])), v.sum(axis=0, where=v[0] > v[1]))
    o = np.zeros(v.shape[1:], dtype=numpy.float64)
    x.sum(axis=0, out=o, dtype=numpy.float64)
    same((name, "out"), o, v.sum(axis=0, dtype=numpy.float64))
    same((name, "empty"), x[:0].sum(axis=0), v[:0].sum(axis=0))
    same((name, "0-d"), np.asarray(v[1, 2, 3]).max(), v[1, 2, 3].max())
# products of floats and complex numbers: the CPU's order (a zero before an
# overflow keeps 0, after it NaN), whole and over some axes
for dt in ["float32", "float64", "complex64", "complex128"]:
    v = (1 + rng.standard_normal((64, 256, 256)) * 0.01).astype(dt)
    if dt.startswith("complex"):
        v = v * numpy.exp(1j * rng.standard_normal((64, 256, 256)) * 0.01).astype(dt)
    v[7, 3, :] = 0
    v[2, 3, :] = numpy.finfo(v.real.dtype).max
    x = np.asarray(v) * v.dtype.type(1)
    for ax in [0, (0, 2), (1, 2), None]:
        for vn, xv, vv in [("", x, v), ("[::-1]", x[::-1], v[::-1])]:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                want = vv.prod(axis=ax)
                got = placed((dt, vn, "prod", ax), lambda: xv.prod(axis=ax))
            same((dt, vn, "prod", ax), got, want)
# NaN-ignoring sums: along a line (pairwise, NaNs as 0), over the frames
for dt in ["float32", "float64"]:
    v = (rng.standard_normal((64, 256, 256)) * 100).astype(dt)
    v[rng.integers(0, 64, 500), rng.integers(0, 256, 500), rng.integers(0, 256, 500)] = numpy.nan
    v[1, 2, :] = numpy.nan
    x = np.asarray(v) + v.dtype.type(0)
    for ax in [None, (1, 2), 2, 0]:
        for vn, xv, vv in [("", x, v), ("[::-1]", x[::-1], v[::-1])]:
            got = placed((dt, vn, "nansum", ax), lambda: np.nansum(xv, axis=ax))
            same((dt, vn, "nansum", ax), got, numpy.nansum(vv, axis=ax))
# complex sums along a line: NumPy's complex pairwise tree
for dt in ["complex64", "complex128"]:
    v = (rng.standard_normal((64, 256, 256)) + 1j * rng.standard_normal((64, 256, 256))).astype(dt)
    v[3, 4, 5] = complex(numpy.nan, 1)
    v[6, 7, :] = -0.0
    x = np.asarray(v) + v.dtype.type(0)
    for ax in [None, (1, 2), 2]:
        for vn, xv, vv in [("", x, v), ("[::-1]", x[::-1], v[::-1])]:
            got = placed((dt, vn, "sum", ax), lambda: xv.sum(axis=ax))
            same((dt, vn, "sum", ax), got, vv.sum(axis=ax))
            got = placed((dt, vn, "nansum", ax), lambda: np.nansum(xv, axis=ax))
            same((dt, vn, "nansum", ax), got, numpy.nansum(vv, axis=ax))
# NumPy's warnings: sums and products that overflow, inf * 0
def warned(tag, f_np, f_nt):
    res = []
    for f in (f_np, f_nt):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            r = numpy.asarray(f())
        res.append((r, sorted(set(str(m.message) for m in w))))
    same(tag, res[1][0], res[0][0])
    if res[0][1] != res[1][1] or not res[0][1]:
        bad.append([str(tag), res[0][1], res[1][1]])
big = numpy.full((64, 256, 256), 3e38, dtype=numpy.float32)
big[9, 4, 4] = -numpy.inf
xb = np.asarray(big) * numpy.float32(1)
warned("sum overflow", lambda: big.sum(axis=0), lambda: xb.sum(axis=0))
warned("prod overflow", lambda: big.prod(axis=0), lambda: xb.prod(axis=0))
warned("prod inf*0", lambda: (big * 0).prod(axis=(0, 2)) * big[0].prod(axis=1),
       lambda: np.asarray(big * 0).prod(axis=(0, 2)) * xb[0].prod(axis=1))
# the bytes back to the host for a max over the frames of a resident array
v = data["float32"]
x = np.asarray(v) * numpy.float32(2)
np._core.sync()
s0 = np._core.device_stats()
r = numpy.asarray(x.max(axis=0))
s1 = np._core.device_stats()
same("max bytes", r, (v * numpy.float32(2)).max(axis=0))
print(json.dumps([bad, on_cpu, s1["copy_bytes"] - s0["copy_bytes"], digest.hexdigest()]))
"""


@needs_cudahost
def test_combines_and_products_run_on_the_device_with_the_cpus_bits():
    env = dict(NDTILE_CUDA_PLUGIN=cudahost_plugin(), NDTILE_CUDAHOST_STATS="1")
    r = run(COMBINE, NDTILE_DEVICES="cuda:0", **env)
    assert r.returncode == 0, r.stdout + r.stderr
    bad, on_cpu, back, digest = json.loads(r.stdout.splitlines()[-1])
    assert bad == [], bad
    assert on_cpu == [], on_cpu[:10]          # no reduction task left on the CPU
    # what came back: the 256 KiB result and at most its tile's copy in
    # (the result pieces' tile), not the 16 MiB input (16,777,216 before)
    assert back <= 2 * 256 * 256 * 4, back
    line = r.stderr.split("cudahost: ")[1]
    assert int(re.search(r"(\d+) combine launches", line).group(1)) >= 300, line
    cpu = run(COMBINE)
    assert cpu.returncode == 0, cpu.stdout + cpu.stderr
    assert json.loads(cpu.stdout.splitlines()[-1])[3] == digest   # the CPU's bits


SORT = """
import hashlib, json, numpy, ndtile as np
rng = numpy.random.default_rng(5)
bad, h = [], hashlib.sha256()
def same(tag, got, want=None):
    got = numpy.asarray(got)
    h.update(str(tag).encode()); h.update(got.tobytes())
    if want is None:
        return
    want = numpy.asarray(want)
    if got.dtype != want.dtype or got.shape != want.shape or got.tobytes() != want.tobytes():
        bad.append(str(tag))
def nans(v, k):
    # NaNs of several payloads and both signs, -0.0 and 0.0, infinities
    f = v.view(numpy.uint64 if v.dtype.itemsize == 8 else numpy.uint32).reshape(-1)
    q = numpy.uint64(0x7FF8000000000000) if v.dtype.itemsize == 8 else numpy.uint32(0x7FC00000)
    sign = numpy.uint64(1 << 63) if v.dtype.itemsize == 8 else numpy.uint32(1 << 31)
    k -= k % 3
    i = rng.integers(0, f.size, k)
    f[i[: k // 3]] = q | numpy.arange(1, k // 3 + 1).astype(f.dtype)
    f[i[k // 3: 2 * k // 3]] = q | sign | numpy.arange(1, k // 3 + 1).astype(f.dtype)
    f[i[2 * k // 3:]] = sign   # -0.0
    f[rng.integers(0, f.size, k)] = 0
    v.reshape(-1)[rng.integers(0, v.size, 3)] = numpy.inf
    v.reshape(-1)[rng.integers(0, v.size, 3)] = -numpy.inf
def data(dt, shape):
    dt = numpy.dtype(dt)
    if dt.kind == "b":
        return rng.integers(0, 2, shape).astype(bool)
    if dt.kind in "iu":
        info = numpy.iinfo(dt)
        v = rng.integers(info.min, info.max, shape, dtype=dt, endpoint=True)
        v.reshape(-1)[::5] = rng.integers(-3, 3, v.size)[::5].astype(dt)   # ties
        return v
    if dt.kind == "f":
        v = numpy.round(rng.standard_normal(shape), 1).astype(dt)         # ties
        nans(v, max(6, v.size // 50))
        return v
    part = numpy.float32 if dt == numpy.complex64 else numpy.float64
    re, im = data(part, shape), data(part, shape)
    re.reshape(-1)[::7] = 1.5
    v = numpy.empty(shape, dt)
    v.real, v.imag = re, im      # each part's own bits (NaN payloads, -0.0)
    return v
DT = DTYPES
for dt in DT:
    big = data(dt, {1: 100_000, 2: 100_000, 4: 600_000, 8: 300_000, 16: 150_000}[numpy.dtype(dt).itemsize])
    a = np.asarray(big)
    for vn, av, vv in [("", a, big), ("[::-3]", a[::-3], big[::-3])]:
        same((dt, vn, "argsort"), np.argsort(av), numpy.argsort(vv, kind="stable"))
        same((dt, vn, "sort stable"), np.sort(av, kind="stable"), numpy.sort(vv, kind="stable"))
        same((dt, vn, "sort"), np.sort(av))
    m = data(dt, (200, 300))
    a = np.asarray(m)
    for vn, av, vv in [("", a, m), ("[::2, ::-3]", a[::2, ::-3], m[::2, ::-3]), (".T", a.T, m.T)]:
        for ax in [0, 1, -1, None]:
            same((dt, vn, ax, "argsort"), np.argsort(av, axis=ax), numpy.argsort(vv, axis=ax, kind="stable"))
            same((dt, vn, ax, "sort"), np.sort(av, axis=ax, kind="stable"), numpy.sort(vv, axis=ax, kind="stable"))
    t = data(dt, (30, 40, 50))
    same((dt, "3-d axis 0"), np.sort(np.asarray(t), axis=0, kind="stable"), numpy.sort(t, axis=0, kind="stable"))
    same((dt, "3-d axis 1"), np.argsort(np.asarray(t), axis=1), numpy.argsort(t, axis=1, kind="stable"))
    s = data(dt, (20000, 7))        # many short lines: the insertion sort
    same((dt, "short lines"), np.argsort(np.asarray(s), axis=1), numpy.argsort(s, axis=1, kind="stable"))
    same((dt, "empty"), np.sort(np.asarray(s[:0]), axis=0), numpy.sort(s[:0], axis=0))
    same((dt, "0-d"), np.argsort(np.asarray(s[0, 0])), numpy.argsort(s[0, 0]))
# partition stays on the CPU (a kind of its own): NumPy's kth values
v = data("f8", 400_000)
p = numpy.asarray(np.partition(np.asarray(v), 1000))
w = numpy.sort(v, kind="stable")
if not (numpy.array_equal(p[1000], w[1000]) and (p[:1000] <= p[1000]).all()):
    bad.append("partition")
same("median", np.median(np.asarray(v[~numpy.isnan(v)])), numpy.median(v[~numpy.isnan(v)]))
print(json.dumps(bad))
print(h.hexdigest())
"""


@needs_cudahost
@pytest.mark.parametrize("tiles", ["", "64k"])
def test_sorts_run_on_the_device_with_the_cpus_bits(tiles):
    """sort/argsort ("sort" tasks, src/runtime/cuda_sort.h) of every dtype
    on the host build's devices: NumPy's stable results bit for bit (NaN
    payloads, -0.0 and 0.0 in input order), along every axis, axis=None,
    views, many short lines; and the same bits as the CPU for the default
    kind (the quiet NaN). partition is not taken."""
    env = {"NDTILE_TILE_BYTES": tiles} if tiles else {}
    # (small tiles: fewer dtypes, as the emulation copies many pieces)
    dts = ["?", "i2", "u4", "f4", "f8", "c8"] if tiles else \
        ["?", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "f4", "f8", "c8", "c16"]
    code = "DTYPES = %r\n" % dts + SORT
    cpu = run(code, **env)
    r = run(code, NDTILE_DEVICES="cuda:0,1", NDTILE_CUDA_PLUGIN=cudahost_plugin(),
            NDTILE_CUDAHOST_STATS="1", **env)
    assert cpu.returncode == 0 and r.returncode == 0, cpu.stderr + r.stdout + r.stderr
    assert json.loads(r.stdout.splitlines()[-2]) == [], r.stdout
    assert json.loads(cpu.stdout.splitlines()[-2]) == [], cpu.stdout
    assert r.stdout.splitlines()[-1] == cpu.stdout.splitlines()[-1]     # the CPU's bits
    line = r.stderr.split("cudahost: ")[1]
    sort = int(re.search(r"(\d+) sort launches", line).group(1))
    assert sort >= len(dts) * 30 * 10, line      # they ran on the (emulated) devices


@needs_cudahost
@pytest.mark.parametrize("tiles", ["", "4k"])
def test_reversed_lines_across_tiles_sort_on_the_device(tmp_path, tiles):
    """A reversed line across tiles is gathered by view copy launches, so
    its sort runs on the device (it stayed on the CPU while the gather took
    a copy per element). With 4 KiB tiles the line spans 2,930 tiles, more
    than a launch's 512: cm_view_copy splits it (it stayed on the CPU)."""
    env = {"NDTILE_TILE_BYTES": tiles, "NDTILE_CUDAHOST_STATS": "1"} if tiles else {}
    trace = tmp_path / "t.json"
    r = run("""
        import numpy, ndtile as np
        v = numpy.random.default_rng(1).standard_normal(1_500_000)     # 6 tiles
        got = numpy.asarray(np.sort(np.asarray(v)[::-3], kind="stable"))
        assert numpy.array_equal(got, numpy.sort(v[::-3], kind="stable"))
        got = numpy.asarray(np.argsort(np.asarray(v)[::-1]))
        assert numpy.array_equal(got, numpy.argsort(v[::-1], kind="stable"))
    """, NDTILE_DEVICES="cuda:0", NDTILE_CUDA_PLUGIN=cudahost_plugin(),
            NDTILE_PROFILE=str(trace), **env)
    assert r.returncode == 0, r.stdout + r.stderr
    procs = [e["args"]["proc"] for e in json.loads(trace.read_text())["traceEvents"]
             if e["ph"] == "X" and e.get("args", {}).get("kind") == "sort"]
    assert procs and set(procs) == {"cuda"}, procs
    if tiles:      # 2,930 tiles over 512 a launch: at least 6 launches a split gather
        # (how many of the two sorts gather on the device depends on where
        # their tiles are valid when they run: 8 or 16 seen)
        n = int(re.search(r"(\d+) view copies", r.stderr).group(1))
        assert n >= 6, r.stderr


@needs_cudahost
def test_partition_stays_on_the_cpu():
    """partition and argpartition ("partition" tasks) stay on the CPU: off
    the kth positions their result is the CPU introselect's. (median sorts:
    the device's sort, in test_sorts_run_on_the_device_with_the_cpus_bits.)"""
    r = run("""
        import numpy, ndtile as np
        v = numpy.random.default_rng(1).standard_normal(300_000)
        p = numpy.asarray(np.partition(np.asarray(v), [10, 200_000]))
        q = numpy.asarray(np.argpartition(np.asarray(v), 7))
        w = numpy.sort(v)
        assert p[10] == w[10] and p[200_000] == w[200_000] and v[q[7]] == w[7]
    """, NDTILE_DEVICES="cuda:0,1", NDTILE_CUDA_PLUGIN=cudahost_plugin(), NDTILE_CUDAHOST_STATS="1")
    assert r.returncode == 0, r.stdout + r.stderr
    assert re.search(r" 0 sort launches", r.stderr), r.stderr


BINCOUNT = """
import hashlib, json, numpy, ndtile as np
rng = numpy.random.default_rng(9)
bad, h = [], hashlib.sha256()
def check(tag, got, want):
    got = numpy.asarray(got)
    h.update(str(tag).encode()); h.update(got.tobytes())
    if got.dtype != want.dtype or got.shape != want.shape:
        bad.append([str(tag), str(got.dtype), str(want.dtype)])
    elif want.dtype.kind == "i" and got.tobytes() != want.tobytes():
        bad.append(str(tag))
    elif want.dtype.kind == "f" and not numpy.allclose(got, want, equal_nan=True, rtol=1e-12, atol=1e-9):
        bad.append(str(tag))   # (blocks' sums added in block order: NumPy's last bits differ)
N = 700_000                    # several tiles
w8 = numpy.round(rng.standard_normal(N), 2)
w8[rng.integers(0, N, 50)] = -0.0
nanw = w8.copy()
nanw[rng.integers(0, N, 5)] = numpy.nan
nanw[rng.integers(0, N, 5)] = numpy.inf
W = {"f8": w8, "f4": w8.astype(numpy.float32), "i8": rng.integers(-5, 5, N), "?": rng.standard_normal(N) > 0,
     "nan": nanw}
for xt in ["?", "i1", "i2", "i4", "i8", "u1", "u2", "u4"]:
    hi = 2 if xt == "?" else 100 if xt in ("i1", "u1") else 3000
    x = rng.integers(0, hi, N).astype(xt)
    a = np.asarray(x)
    check((xt, "counts"), np.bincount(a), numpy.bincount(x))
    check((xt, "minlength"), np.bincount(a, minlength=5000), numpy.bincount(x, minlength=5000))
    check((xt, "minlength short"), np.bincount(a, minlength=7), numpy.bincount(x, minlength=7))
    for wn, w in W.items():
        if xt not in ("i4", "i8") and wn not in ("f8", "nan"):
            continue
        b = np.asarray(w)
        check((xt, wn), np.bincount(a, weights=b), numpy.bincount(x, weights=w))
        check((xt, wn, "minlength"), np.bincount(a, weights=b, minlength=5000),
              numpy.bincount(x, weights=w, minlength=5000))
    # views: every other element; reversed (across tiles: on the CPU)
    check((xt, "[::2]"), np.bincount(a[::2], weights=np.asarray(w8)[1::2]), numpy.bincount(x[::2], weights=w8[1::2]))
    check((xt, "[::-1]"), np.bincount(a[::-1], minlength=10), numpy.bincount(x[::-1], minlength=10))
# the X-ray job's form: B frames' pixels to bins frame * stride + radius
B, stride = 3, 1500
r = rng.integers(0, stride, (B, 512, 512))
idx = (numpy.arange(B)[:, None, None] * stride + r).ravel()
cnt = rng.poisson(3.0, (B, 512, 512)).astype(numpy.float32)
check("xray", np.bincount(np.asarray(idx), weights=np.asarray(cnt).ravel(), minlength=B * stride),
      numpy.bincount(idx, weights=cnt.ravel(), minlength=B * stride))
check("empty", np.bincount(np.asarray(numpy.zeros(0, numpy.int64)), minlength=3),
      numpy.bincount(numpy.zeros(0, numpy.int64), minlength=3))
small = numpy.array([3, 0, 3, 1], numpy.int64)
check("small", np.bincount(np.asarray(small), weights=np.asarray([0.5, -0.0, 1.5, numpy.nan])),
      numpy.bincount(small, weights=[0.5, -0.0, 1.5, numpy.nan]))
try:
    np.bincount(np.asarray(numpy.array([1, -1] * 40000)), minlength=4)
    bad.append("negative index")
except ValueError as e:
    if "negative" not in str(e):
        bad.append(str(e))
hist = numpy.asarray(np.histogram(np.asarray(w8), bins=30)[0])
check("histogram", hist, numpy.histogram(w8, bins=30)[0])
print(json.dumps(bad))
print(h.hexdigest())
"""


@needs_cudahost
@pytest.mark.parametrize("tiles", ["", "64k"])
def test_bincount_runs_on_the_device_with_the_cpus_bits(tiles):
    """bincount ("bincount count" and "bincount combine" tasks,
    src/runtime/cuda_bincount.h) on the host build's devices: NumPy's
    counts, NumPy's weighted sums (to the last bits: blocks add in block
    order) and the CPU's bits exactly, for every index dtype, weights of
    several dtypes with NaN/inf/-0.0, minlength (the one-pass bounds, and
    a second pass), views, the X-ray job's form, empty input and the error
    of a negative index."""
    env = {"NDTILE_TILE_BYTES": tiles} if tiles else {}
    cpu = run(BINCOUNT, **env)
    r = run(BINCOUNT, NDTILE_DEVICES="cuda:0,1", NDTILE_CUDA_PLUGIN=cudahost_plugin(),
            NDTILE_CUDAHOST_STATS="1", **env)
    assert cpu.returncode == 0 and r.returncode == 0, cpu.stderr + r.stdout + r.stderr
    assert json.loads(r.stdout.splitlines()[-2]) == [], r.stdout
    assert json.loads(cpu.stdout.splitlines()[-2]) == [], cpu.stdout
    assert r.stdout.splitlines()[-1] == cpu.stdout.splitlines()[-1]     # the CPU's bits
    line = r.stderr.split("cudahost: ")[1]
    n = int(re.search(r"(\d+) bincount launches", line).group(1))
    assert n >= 200, line      # they ran on the (emulated) devices


ARGCOMBINE = """
import ctypes, hashlib, json, numpy, ndtile as np
lib = ctypes.CDLL(np._core.__file__)
lib.ndt_debug_device_log_text.restype = ctypes.c_char_p
rng = numpy.random.default_rng(8)
bad, where, h = [], {}, hashlib.sha256()
def placed(tag, f):
    lib.ndt_debug_device_log(1)
    r = numpy.asarray(f())
    log = lib.ndt_debug_device_log_text().decode()
    lib.ndt_debug_device_log(0)
    for line in log.split("-- ran:")[0].splitlines():
        if line.startswith("place") and "reduce combine" in line:
            k = "cpu" if line.endswith(" cpu") else "dev"
            where[k] = where.get(k, []) + [str(tag)]
        elif line.startswith("stay reduce combine"):
            # placed on a device, kept where its partials are by the plan:
            # the CPU made them (blocks the device has no variant for)
            where["dev"].pop()
            where["stay"] = where.get("stay", []) + [str(tag)]
    return r
def data(dt, n):
    # few distinct values (ties: the first occurrence wins), NaNs of both
    # signs and payloads, -0.0 and 0.0, infinities
    dt = numpy.dtype(dt)
    if dt.kind == "b":
        return rng.integers(0, 2, n).astype(bool)
    if dt.kind in "iu":
        info = numpy.iinfo(dt)
        v = rng.integers(0, 7, n).astype(dt)
        v[rng.integers(0, n, 5)] = info.max
        v[rng.integers(0, n, 5)] = info.min
        return v
    f = numpy.float32 if dt in (numpy.float32, numpy.complex64) else numpy.float64
    def part():
        v = rng.integers(-3, 4, n).astype(f)
        v[rng.integers(0, n, 40)] = -0.0
        v[rng.integers(0, n, 9)] = numpy.inf
        v[rng.integers(0, n, 9)] = -numpy.inf
        return v
    if dt.kind == "f":
        return part()
    v = numpy.empty(n, dt)
    v.real, v.imag = part(), part()
    return v
for dt in DTYPES:
    dt = numpy.dtype(dt)
    k = max(8, (4 << 20) // (dt.itemsize * 96 * 64) + 1)     # 4 MiB and more: several tiles
    base = data(dt, k * 96 * 64).reshape(k, 96, 64)
    for nan in [False, True]:
        v = base.copy()
        if nan and dt.kind in "fc":
            f = v.view(v.real.dtype).reshape(-1)
            i = rng.integers(0, f.size, 12)
            f[i[:6]] = numpy.nan
            f[i[6:]] = -numpy.nan
            v.reshape(-1)[-1] = numpy.nan                # the last element NaN
        elif nan:
            continue
        x = np.asarray(v)
        x = x | x if dt.kind == "b" else x + dt.type(0)  # resident on the device
        for vn, xv, vv in [("", x, v), ("[::-1]", x[::-1], v[::-1]), ("[:, ::2]", x[:, ::2], v[:, ::2])]:
            for f in ["argmin", "argmax"]:
                for ax in [0, 1, 2, None]:
                    tag = (str(dt), nan, vn, f, ax)
                    got = placed(tag, lambda: getattr(xv, f)(axis=ax))
                    want = getattr(vv, f)(axis=ax)
                    h.update(repr(tag).encode() + got.tobytes())
                    if got.dtype != want.dtype or got.shape != want.shape or not numpy.array_equal(got, want):
                        bad.append(tag)
print(json.dumps([bad, where.get("cpu", [])[:20], len(where.get("dev", []))]))
print(h.hexdigest())
"""


@needs_cudahost
@pytest.mark.parametrize("tiles", ["", "64k"])
def test_argmin_argmax_combines_run_on_the_device_with_numpys_indices(tiles):
    """The argmin/argmax combine ("reduce combine" of (value, index) partials,
    src/runtime/cuda_combine.h's arg chains) on the host build's devices:
    NumPy's indices (the first of equals, the first NaN, complex values in
    lexicographic order) for every dtype, along each axis and over all,
    views, NaNs, -0.0, infinities; the same as the CPU run, and no combine
    left on the CPU."""
    env = {"NDTILE_TILE_BYTES": tiles} if tiles else {}
    dts = ["?", "i2", "u8", "f4", "f8", "c8"] if tiles else \
        ["?", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "f4", "f8", "c8", "c16"]
    code = "DTYPES = %r\n" % dts + ARGCOMBINE
    cpu = run(code, **env)
    r = run(code, NDTILE_DEVICES="cuda:0,1", NDTILE_CUDA_PLUGIN=cudahost_plugin(),
            NDTILE_CUDAHOST_STATS="1", **env)
    assert cpu.returncode == 0 and r.returncode == 0, cpu.stderr + r.stdout + r.stderr
    bad, on_cpu, on_dev = json.loads(r.stdout.splitlines()[-2])
    assert bad == [], bad
    assert on_cpu == [], on_cpu                  # every combine placed on a device
    assert on_dev > 0
    assert json.loads(cpu.stdout.splitlines()[-2])[0] == []
    assert r.stdout.splitlines()[-1] == cpu.stdout.splitlines()[-1]     # the CPU's results
    line = r.stderr.split("cudahost: ")[1]
    assert int(re.search(r"(\d+) combine launches", line).group(1)) >= on_dev, line


PINNED = """
import hashlib, numpy, ndtile as np
rng = numpy.random.default_rng(5)
h = hashlib.sha256()
for k in range(FRAMES):
    # the X-ray job's form: frames up to the device, computed, the result
    # down; each frame 4.3 MB (three tiles in one buffer: a store of 4 MiB
    # or more is one), its buffers freed after it
    x = np.asarray(rng.standard_normal((704, 768)))
    y = np.asarray(rng.standard_normal((704, 768)))
    r = np.sqrt(x * x + y * y) - x
    h.update(numpy.asarray(r).tobytes())
    del x, y, r
small = np.arange(500.0) * 3.0 + 1.0    # 4 KB: not registered
h.update(numpy.asarray(small).tobytes())
print(h.hexdigest())
"""


def pin_stats(stderr):
    m = re.search(r"(\d+) host registrations \((\d+) unregistered, (\d+) refused, (\d+) lost\), "
                  r"(\d+) pinned copies \((\d+) bytes\), (\d+) pageable copies \((\d+) bytes\)",
                  stderr)
    assert m, stderr
    keys = ["reg", "unreg", "refused", "lost", "pinned", "pinned_bytes", "pageable",
            "pageable_bytes"]
    return dict(zip(keys, map(int, m.groups())))


@needs_cudahost
def test_copies_go_from_pinned_host_memory():
    """Large host buffers are registered (page-locked) at their first copy
    to or from a device and stay registered while the cache keeps them
    (memory.c's ndt__host_pin, cuda.c's cm_host_register): in the X-ray
    job's form every large copy is pinned, frames 3-6 reuse the first two
    frames' registered buffers (no new registration), small arrays stay
    pageable; without the cache (NDTILE_CACHE_BYTES=0) each freed buffer is
    unregistered before it is unmapped (none lost); a limit on locked
    memory (the emulation's NDTILE_CUDAHOST_PIN_LIMIT) is no error;
    NDTILE_CUDA_PINNED=0: none; always the CPU's bits."""
    frame = 704 * 768 * 8
    dev = dict(NDTILE_DEVICES="cuda:0,1", NDTILE_CUDA_PLUGIN=cudahost_plugin(),
               NDTILE_CUDAHOST_STATS="1")
    out = {}
    for frames in (2, 6):
        code = PINNED.replace("FRAMES", str(frames))
        cpu = run(code)
        assert cpu.returncode == 0, cpu.stderr
        for name, env in [("on", {}), ("off", {"NDTILE_CUDA_PINNED": "0"}),
                          ("nocache", {"NDTILE_CACHE_BYTES": "0"}),
                          ("limit", {"NDTILE_CUDAHOST_PIN_LIMIT": "5M"})]:
            r = run(code, **dev, **env)
            assert r.returncode == 0, (name, r.stderr)
            assert r.stdout == cpu.stdout, name            # the CPU's bits
            assert "ERROR" not in r.stderr, r.stderr
            out[name, frames] = st = pin_stats(r.stderr)
            assert st["lost"] == 0, (name, st)
    on2, on6 = out["on", 2], out["on", 6]
    # x and y up, r down: three frames' bytes a frame, all pinned
    assert on6["pinned_bytes"] >= 6 * 3 * frame, on6
    # x, y and r: one buffer each, registered once; frames 3-6 reuse them
    # (unregistered on every free, as without the cache below: 3 or more a
    # frame)
    assert 6 <= on2["reg"] and on6["reg"] - on2["reg"] <= 3, (on2, on6)
    assert on6["pageable_bytes"] < 65536, on6     # the small array, the flags words
    assert on6["pageable"] >= 2, on6              # (the small array: up and down)
    for f in (2, 6):
        off = out["off", f]
        assert off["reg"] == off["pinned"] == 0, off
        assert off["pageable_bytes"] >= f * 3 * frame, off
    nc2, nc6 = out["nocache", 2], out["nocache", 6]
    assert nc6["reg"] >= nc2["reg"] + 4 * 3 and nc6["reg"] > on6["reg"], (nc2, nc6)
    assert nc6["reg"] - nc6["unreg"] <= 3, nc6    # each freed one unregistered first
    lim = out["limit", 6]
    assert lim["refused"] > 0 and lim["reg"] > 0 and lim["pageable_bytes"] >= frame // 3, lim


# Seeded reductions (sum/prod/nansum/nanprod and add/multiply.reduce with
# initial=) on the CUDA plugin's host build: the seeded kinds ("pairwise
# leaf, seeded", "reduce block, seeded", "reduce combine, seeded") run on
# the device wherever their unseeded kinds do (the device log: placements,
# no fallback), with the CPU's bits (the same script without devices: one
# digest) and NumPy's wherever the unseeded reduction has NumPy's bits; at
# 4 KiB and 2 MiB tiles, over float, complex, integer and bool dtypes,
# axes, views with steps, lines longer than a block (the start added after
# the partials), -0.0s (a sum of them from initial=-0.0 is -0.0: the
# device's pairwise leaves start from -0.0, as the CPU's), NaNs (a NaN adds
# 0 in a nansum: -0.0 + 0 is +0.0), 0-d and empty arrays; and the kinds
# given device bodies with them, which no longer leave the device: the
# top of a full sum ("pairwise top") and the sums with a cast ("buffered
# sum leaf", "buffered sum top").
SEEDED = r"""
import ctypes, hashlib, json, os, warnings, numpy, ndtile as np
lib = ctypes.CDLL(np._core.__file__)
lib.ndt_debug_device_log_text.restype = ctypes.c_char_p
BIG = os.environ["NDTILE_TILE_BYTES"] != "4096"
rng = numpy.random.default_rng(7)
bad, moved, ran, digest = [], [], {"device": 0, "cpu": set()}, hashlib.sha256()
KINDS = ("pairwise leaf", "pairwise top", "reduce block", "reduce combine", "buffered sum")
def placed(f):
    # the reduction kinds the CPU ran (", seeded" dropped), and the
    # seeded ones a device ran
    lib.ndt_debug_device_log(1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = numpy.asarray(f())
    log = lib.ndt_debug_device_log_text().decode()
    lib.ndt_debug_device_log(0)
    cpu = set()
    for line in log.splitlines():
        if line.startswith("fallback"):
            cpu.add(line)
        if line.startswith("stay ") and any(k in line for k in KINDS):
            # placed on a device, kept on the CPU by the plan: "stay KIND DEV->cpu M>2*W"
            line = "place " + line[5:].rsplit(" ", 2)[0] + " cpu"
        if not line.startswith("place ") or not any(k in line for k in KINDS):
            continue
        kind, proc = line[6:].rsplit(" ", 1)
        if proc == "cpu":
            cpu.add(kind.replace(", seeded", ""))
            ran["cpu"].add(kind)
        elif "seeded" in kind:
            ran["device"] += 1
    return r, cpu
def same_bits(a, b):
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()
def check(tag, f_nt, f_np, g_nt, g_np):
    # f: seeded, g: the same unseeded
    got, cpu1 = placed(f_nt)
    plain, cpu0 = placed(g_nt)
    digest.update(repr((tag, got.dtype.str, got.shape)).encode() + got.tobytes())
    if cpu1 - cpu0:
        moved.append([tag, sorted(cpu1 - cpu0)])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want, want0 = numpy.asarray(f_np()), numpy.asarray(g_np())
    if got.dtype != want.dtype or got.shape != want.shape:
        bad.append([tag, "dtype/shape", str(got.dtype), str(want.dtype)])
    elif same_bits(plain, want0) and not same_bits(got, want):
        bad.append([tag, "bits"])
def data(dt, shape, kind):
    n = int(numpy.prod(shape))
    dt = numpy.dtype(dt)
    if dt.kind == "b":
        return (rng.integers(0, 3, n) == 0).reshape(shape)
    if dt.kind in "iu":
        return rng.integers(0 if dt.kind == "u" else -50, 50, n).astype(dt).reshape(shape)
    if kind == "negzero":
        a = numpy.full(n, -0.0)
    else:
        a = rng.standard_normal(n) * (1e3 if kind == "normal" else 1)
        if kind == "nan":
            a[::7] = numpy.nan
            a.reshape(shape)[..., 1] = numpy.nan      # a whole column of NaNs
    if dt.kind == "c":
        a = a + 1j * (a[::-1] if kind != "negzero" else a)
    return a.astype(dt).reshape(shape)
VIEWS = {"c": lambda x: x, "T": lambda x: x.T, "step": lambda x: x[::2, ::-3]}
shape = (600, 520) if BIG else (120, 45)
for dt in ["f4", "f8", "c8", "c16", "i4", "u1", "i8", "?"]:
    fl = numpy.dtype(dt).kind in "fc"
    for kind in (["normal", "negzero", "nan"] if fl else ["normal"]):
        v = data(dt, shape, kind)
        x = np.asarray(v)
        x = x | x if dt == "?" else x * v.dtype.type(1)     # resident on the device
        inits = ([-0.0, 2.5] if kind != "nan" else [-0.0]) if fl else [5, True] if dt == "?" else [5, -3]
        if dt == "u1":
            inits = [5]
        views = sorted(VIEWS) if (not BIG or dt in ("f8", "c8")) else ["c"]
        for vn in views:
            xv, vv = VIEWS[vn](x), VIEWS[vn](v)
            for f in (["sum", "prod", "nansum", "nanprod"] if fl else ["sum", "prod"]):
                if f.endswith("prod") and kind == "normal" and fl:
                    # (scaled before the view: NumPy's result of x.T / 1e3
                    # is in x.T's memory order, ndtile's in C order)
                    xv2, vv2 = VIEWS[vn](x / 1e3), VIEWS[vn](v / 1e3)
                else:
                    xv2, vv2 = xv, vv
                for ax in [None, 0, 1, (0, 1)] if not BIG else [None, 0, 1]:
                    for init in inits:
                        tag = str((dt, kind, vn, f, ax, init))
                        check(tag, lambda: getattr(np, f)(xv2, axis=ax, initial=init),
                              lambda: getattr(numpy, f)(vv2, axis=ax, initial=init),
                              lambda: getattr(np, f)(xv2, axis=ax),
                              lambda: getattr(numpy, f)(vv2, axis=ax))
# the ufuncs' reduce, 3-d lines that do not coalesce, short lines of -0.0s
v = data("f8", (4, 10, 40), "normal")
x = np.asarray(v) * 1.0
for uf, ax in [("add", (1, 2)), ("add", (0, 2)), ("multiply", 2), ("add", None)]:
    for init in (1.5, -0.0):
        sc = 1e3 if uf == "multiply" else 1.0
        check(str((uf, ax, init)), lambda: getattr(np, uf).reduce(x[:, :, :30] / sc, axis=ax, initial=init),
              lambda: getattr(numpy, uf).reduce(v[:, :, :30] / sc, axis=ax, initial=init),
              lambda: getattr(np, uf).reduce(x[:, :, :30] / sc, axis=ax),
              lambda: getattr(numpy, uf).reduce(v[:, :, :30] / sc, axis=ax))
# lines longer than a block (4 KiB tiles): the partials are pieces of a
# line, combined first and the start added last
for dt in ("f8", "c8", "i4"):
    v = data(dt, (3, 300000) if BIG else (16, 3000), "normal")
    x = np.asarray(v) * v.dtype.type(1)
    for f, ax in [("sum", 1), ("nansum", 1), ("prod", 1), ("sum", None)]:
        check(str(("long lines", dt, f, ax)), lambda: getattr(np, f)(x, axis=ax, initial=-0.0),
              lambda: getattr(numpy, f)(v, axis=ax, initial=-0.0),
              lambda: getattr(np, f)(x, axis=ax), lambda: getattr(numpy, f)(v, axis=ax))
for z in (numpy.full((300, 5), -0.0), numpy.full((300, 3), complex(-0.0, -0.0), numpy.complex64)):
    xz = -np.asarray(-z)          # on the device, -0.0 in every part
    for ax in (None, 0, 1):
        for f in ("sum", "nansum"):
            check(str(("negzero short", z.dtype.str, f, ax)),
                  lambda: getattr(np, f)(xz, axis=ax, initial=-0.0),
                  lambda: getattr(numpy, f)(z, axis=ax, initial=-0.0),
                  lambda: getattr(np, f)(xz, axis=ax), lambda: getattr(numpy, f)(z, axis=ax))
# sums with a cast: NumPy's buffers ("buffered sum leaf" and "top")
i = rng.integers(-20000, 20000, 100003).astype(numpy.int32)
xi = np.asarray(i) * numpy.int32(1)
f8 = rng.standard_normal(70001) * 1e3
f8[5:20] = -0.0
xf = np.asarray(f8) * 1.0
for tag, a, xa, dt, init in [("i4->f4", i, xi, "f4", 0.1), ("f8->f4", f8, xf, "f4", -0.0),
                             ("f8->c8", f8, xf, "c8", 2.5), ("-0.0s f8->f4", f8[5:20], xf[5:20], "f4", -0.0)]:
    check(str(("cast", tag)), lambda: np.sum(xa, dtype=dt, initial=init),
          lambda: numpy.sum(a, dtype=dt, initial=init),
          lambda: np.sum(xa, dtype=dt), lambda: numpy.sum(a, dtype=dt))
# 0-d and empty
for a in (numpy.float64(-0.0), numpy.zeros((0, 4)), numpy.zeros((4, 0), numpy.complex64)):
    for ax in (None, 0, -1) if a.ndim else (None,):
        check(str(("small", a.shape, ax)), lambda: np.sum(np.asarray(a), axis=ax, initial=-0.0),
              lambda: numpy.sum(a, axis=ax, initial=-0.0),
              lambda: np.sum(np.asarray(a), axis=ax), lambda: numpy.sum(a, axis=ax))
print(json.dumps([bad, moved, ran["device"], digest.hexdigest(), sorted(ran["cpu"])]))
"""


@needs_cudahost
@pytest.mark.parametrize("tiles", ["4096", "2097152"])
def test_seeded_reductions_run_on_the_device_with_the_cpus_bits(tiles):
    def seeded(**env):
        r = run(SEEDED, NDTILE_TILE_BYTES=tiles, NDTILE_WORKERS="2", **env)
        assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-4000:]
        return json.loads(r.stdout.splitlines()[-1])
    bad, moved, on_device, digest, cpu_kinds = seeded(
        NDTILE_DEVICES="cuda:0,1", NDTILE_CUDA_MEM="64M", NDTILE_CUDA_PLUGIN=cudahost_plugin())
    assert bad == [], bad[:10]
    assert moved == [], moved[:10]       # seeding sends nothing to the CPU
    assert on_device >= 500, on_device    # the seeded kinds ran on the devices
    # and the tops of full sums, the cast sums
    assert not [k for k in cpu_kinds if "buffered" in k or "top" in k], cpu_kinds
    cpu = seeded()
    assert cpu[0] == [], cpu[0][:10]
    assert cpu[3] == digest               # the CPU's bits


# A cast's result is written in pieces where its dtype's tiles are not its
# input's (a (640, 3000) float64 array's 2 MiB tiles hold 80 rows, float32's
# 160: each float32 tile is written by two tasks). Its tiles hold no value
# until written (NDT_STORE_UNSET): the first piece written on a device
# copies nothing in. It copied the whole unwritten result to the device
# (7,680,000 bytes for astype and for sum(dtype=float32), with or without
# initial=); now a resident array's cast moves nothing, its sum the slots
# and the result. Values: NumPy's, bit for bit (the cast sums follow NumPy's
# buffered order).
CAST_COPIES = r"""
import json, numpy, ndtile as np
rng = numpy.random.default_rng(3)
v = rng.standard_normal((640, 3000)) * 1e3
x = np.asarray(v) * 1.0                 # resident on the device
np._core.sync()
out = {}
def moved(tag, f, want):
    s0 = np._core.device_stats()["copy_bytes"]
    r = f()
    np._core.sync()
    out[tag] = np._core.device_stats()["copy_bytes"] - s0
    got = numpy.asarray(r)
    assert got.dtype == want.dtype and got.shape == want.shape, (tag, got.dtype, got.shape)
    assert got.tobytes() == want.tobytes(), tag
    return r
# (values are checked after the bytes are counted: reading an array into
# NumPy makes the host's copy its only valid one, numpy.asarray exports it
# writable)
moved("astype and a use", lambda: x.astype(numpy.float32) * numpy.float32(2) + 1,
      v.astype(numpy.float32) * numpy.float32(2) + 1)
moved("astype of a view", lambda: x[:, 1::3].astype(numpy.float32), v[:, 1::3].astype(numpy.float32))
moved("copy of a view", lambda: x.T.copy(), v.T.copy())
moved("sum f4", lambda: np.sum(x, dtype=numpy.float32), numpy.asarray(numpy.sum(v, dtype=numpy.float32)))
moved("sum f4 initial", lambda: np.sum(x, dtype=numpy.float32, initial=0.5),
      numpy.asarray(numpy.sum(v, dtype=numpy.float32, initial=0.5)))
print(json.dumps(out))
"""


@pytest.mark.parametrize("devices", ["sim:1,mem=64M", "cudahost"])
def test_a_casts_result_is_not_copied_to_the_device_before_it_is_written(devices):
    env = {"NDTILE_DEVICES": devices}
    if devices == "cudahost":
        if cudahost_plugin() is None:
            pytest.skip("no libndtile_cudahost.so (make build)")
        env = dict(NDTILE_DEVICES="cuda:0", NDTILE_CUDA_MEM="64M",
                   NDTILE_CUDA_PLUGIN=cudahost_plugin())
    r = run(CAST_COPIES, **env)
    assert r.returncode == 0, r.stdout + r.stderr
    out = json.loads(r.stdout.splitlines()[-1])
    # nothing but the use's scalars (the copy of a transpose gathers its
    # source on the device)
    assert out["astype and a use"] <= 64, out
    assert out["astype of a view"] == 0 and out["copy of a view"] == 0, out
    # the buffered sums' 235 slots (float32, 940 bytes), the initial and
    # the result: not the 7,680,000 bytes of the cast
    assert out["sum f4"] <= 2048 and out["sum f4 initial"] <= 2048, out
