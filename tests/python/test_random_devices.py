"""Random numbers drawn on the CUDA plugin's device kernel (its host build,
tests/cudahost: the plugin's code and kernels on CPUs) give the CPU's values
bit for bit: the same program under NDTILE_DEVICES=none and on two emulated
devices prints the same hashes, and the device's Philox kernel ran (the
"rng launches" of NDTILE_CUDAHOST_STATS). What the kernel does not
implement (gamma, poisson, binomial, per-element parameters, a NaN loc)
falls back to the CPU with the same values."""
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


needs_cudahost = pytest.mark.skipif(cudahost_plugin() is None,
                                    reason="no libndtile_cudahost.so (make build)")

# Multi-tile draws of every distribution the kernel implements (float32 and
# float64, every integer dtype and bool, spans below and above 2**32, full
# ranges, ranges rejected about half the time), two generators and several
# draws each, then what stays on the CPU. Values as hashes of their bytes,
# with dtype and shape.
DRAWS = """
    import hashlib, numpy
    import ndtile as np
    def h(a):
        a = numpy.asarray(a)
        return "%s %s %s" % (a.dtype, a.shape, hashlib.sha1(a.tobytes()).hexdigest()[:16])
    out = []
    for seed in (0, 20240601):
        g = np.random.default_rng(seed)
        n = 600_001                      # 3 tiles of float64 at 2 MiB, odd length
        out += [h(g.random(n)), h(g.random(n, dtype=np.float32)), h(g.random((700, 1001)))]
        out += [h(g.uniform(-3.0, 5.0, n)), h(g.uniform(-1.7e308, 1e300, n // 3))]
        out += [h(g.normal(1.5, 2.0, n)), h(g.standard_normal(n, dtype=np.float32)),
                h(g.standard_normal((3, 200_001)))]
        out += [h(g.exponential(2.0, n)), h(g.standard_exponential(n, dtype=np.float32))]
        out += [h(g.integers(0, 10, n)), h(g.integers(-5, 2**40, n)),
                h(g.integers(0, 2**31 + 1, n)), h(g.integers(0, 2**63 + 1, n, dtype=np.uint64)),
                h(g.integers(0, 2**64 - 1, n, dtype=np.uint64, endpoint=True)),
                h(g.integers(-128, 128, 3 * n, dtype=np.int8)),
                h(g.integers(0, 2**16, 2 * n, dtype=np.uint16)),
                h(g.integers(0, 2**32, n, dtype=np.uint32)),
                h(g.integers(0, 2, 3 * n, dtype=bool)), h(g.integers(7, 8, n))]
        # the CPU's (gamma, poisson, binomial, per-element parameters, NaN loc)
        out += [h(g.gamma(2.5, 1.0, n // 4)), h(g.poisson(3.0, n // 4)),
                h(g.binomial(100, 0.3, n // 4)), h(g.normal(float("nan"), 1.0, n // 4)),
                h(g.poisson(np.full(n // 4, 4.0)))]
        out.append(h(g.random(n)))       # and the stream goes on as on the CPU
    print("\\n".join(out))
"""


def stats(stderr):
    line = stderr.split("cudahost: ")[1].splitlines()[0]
    return {"kernel": int(line.split(" kernel launches")[0]),
            "rng": int(re.search(r"(\d+) rng launches", line).group(1))}


@needs_cudahost
@pytest.mark.parametrize("devices,mem", [("cuda:0,1", "64M"), ("cuda", "4M")])
def test_random_on_the_cuda_kernel_has_the_cpus_bits(devices, mem):
    cpu = run(DRAWS, NDTILE_DEVICES="none")
    assert cpu.returncode == 0, cpu.stderr
    dev = run(DRAWS, NDTILE_DEVICES=devices, NDTILE_CUDA_PLUGIN=cudahost_plugin(),
              NDTILE_CUDA_MEM=mem, NDTILE_CUDAHOST_STATS="1")
    assert dev.returncode == 0, dev.stdout + dev.stderr
    want, got = cpu.stdout.splitlines(), dev.stdout.splitlines()
    assert len(want) == len(got) == 2 * 26
    bad = [(i, w, g) for i, (w, g) in enumerate(zip(want, got)) if w != g]
    assert not bad, bad
    # the device filled them: at least one launch per device-run call (a
    # launch groups several tiles), and the fills ran nowhere else
    assert stats(dev.stderr)["rng"] >= 2 * 20, dev.stderr


@needs_cudahost
def test_random_small_tiles_start_mid_block_on_the_device():
    # tiles of 4,000 bytes: 1,000 float32 / 500 float64 / 4,000 int8
    # elements; with a 2-d shape a block starts anywhere in a Philox block
    code = """
        import hashlib, numpy
        import ndtile as np
        g = np.random.default_rng(5)
        for a in (g.random((37, 999), dtype=np.float32), g.normal(size=(41, 333)),
                  g.integers(-100, 100, (13, 3001), dtype=np.int8),
                  g.integers(0, 2**40, (7, 1111))):
            print(a.dtype, hashlib.sha1(numpy.asarray(a).tobytes()).hexdigest())
    """
    cpu = run(code, NDTILE_DEVICES="none", NDTILE_TILE_BYTES="4000")
    dev = run(code, NDTILE_DEVICES="cuda:0,1", NDTILE_CUDA_PLUGIN=cudahost_plugin(),
              NDTILE_TILE_BYTES="4000", NDTILE_CUDAHOST_STATS="1", NDTILE_INLINE_ELEMS="0")
    assert cpu.returncode == 0 and dev.returncode == 0, cpu.stderr + dev.stderr
    assert dev.stdout == cpu.stdout and len(cpu.stdout.splitlines()) == 4
    assert stats(dev.stderr)["rng"] >= 4, dev.stderr
