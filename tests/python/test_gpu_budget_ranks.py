"""The CUDA devices' default memory budget (NDTILE_CUDA_MEM unset: 90 % of
the card) is split between the processes of a node that take the same GPU
(src/runtime/cuda.c, device.c's gpu_ranks): each rank plans its own budget,
and together they must fit the card. Two ranks of `python -m ndtile` on the
CUDA plugin's host build (two emulated GPUs of 1000 MiB): with
--gpus-per-node 2 each rank has a GPU of its own (the whole 90 %), with
--gpus-per-node 1 both share GPU 0 (half each), and without it every rank
sees every GPU (half of each; cuda:0,cuda:0, two virtual devices a rank:
a quarter). (An explicit NDTILE_CUDA_MEM stays per device:
test_devices.py's cuda:0,cuda:0 cases.)"""
import os
import shutil
import subprocess
import sys

import pytest

PY = sys.executable
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
PLUGIN = os.environ.get("NDTILE_CUDAHOST_PLUGIN") or os.path.join(
    ROOT, "build", "tests", "cudahost", "libndtile_cudahost.so")

pytestmark = [
    pytest.mark.skipif(not (shutil.which("mpirun") or shutil.which("mpiexec")),
                       reason="no MPI launcher on PATH"),
    pytest.mark.skipif(not os.path.exists(PLUGIN),
                       reason="no libndtile_cudahost.so (make build)"),
]

JOB = """import sys, ndtile as np
with open(f"{sys.argv[1]}.rank{np.rank()}", "w") as f:
    print(";".join(f"{d['index']}:{d['memory']}" for d in np.devices() if d['kind'] == 'cuda'),
          file=f)
"""

CARD = 1000 << 20
B = CARD // 10 * 9          # the default budget of a GPU to one process


def budgets(tmp_path, tag, *argv, **env_add):
    job = tmp_path / "job.py"
    job.write_text(JOB)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NDTILE_", "SLURM_"))}
    env.update(NDTILE_CUDA_PLUGIN=PLUGIN, NDTILE_CUDAHOST_DEVICES="2",
               NDTILE_CUDAHOST_MEM=str(CARD), NDTILE_WORKERS="1", **env_add)
    base = tmp_path / tag
    r = subprocess.run([PY, "-m", "ndtile", "--cpus", "2", "--ranks", "2", *argv, str(job),
                        str(base)], env=env, timeout=120, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    return [(tmp_path / f"{tag}.rank{k}").read_text().strip() for k in range(2)]


def test_ranks_on_one_gpu_split_its_default_budget(tmp_path):
    assert budgets(tmp_path, "own", "--gpus-per-node", "2") == [f"0:{B}", f"1:{B}"]
    assert budgets(tmp_path, "shared", "--gpus-per-node", "1") == [f"0:{B // 2}"] * 2
    # every rank sees every GPU; two virtual devices of GPU 0 in each rank
    assert budgets(tmp_path, "all", NDTILE_DEVICES="cuda:0,cuda:0") == [
        f"0:{B // 4};0:{B // 4}"] * 2
