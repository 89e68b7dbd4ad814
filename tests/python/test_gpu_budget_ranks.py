"""The CUDA devices' default memory budget (NDTILE_CUDA_MEM unset: 90 % of
the card) is split between the processes of a node that take the same GPU
(src/runtime/cuda.c, device.c's gpu_ranks): each rank plans its own budget,
and together they must fit the card. Two ranks of `python -m ndtile` on the
CUDA plugin's host build (two emulated GPUs of 1000 MiB): with
--gpus-per-node 2 each rank has a GPU of its own (the whole 90 %), with
--gpus-per-node 1 both share GPU 0 (half each), and without it every rank
sees every GPU (half of each; cuda:0,cuda:0, two virtual devices a rank:
a quarter). With CUDA_VISIBLE_DEVICES per rank (emulated:
NDTILE_CUDAHOST_VISIBLE), ranks seeing one physical GPU split it, and ranks
seeing GPUs of their own, each as device 0, do not: the plugin names the
card by its PCI bus id, which the node's ranks gather before the plugins
start (device.c's gather_bus_ids, every rank, one without GPUs too), and
asks the core's ndt_plugin_host.gpu_ranks_id. (An explicit NDTILE_CUDA_MEM
stays per device: test_devices.py's cuda:0,cuda:0 cases.)"""
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


# a scheduler's CUDA_VISIBLE_DEVICES per rank, emulated: rank r sees the
# physical GPU(s) given as the r-th "/"-separated part of NDT_TEST_VISIBLE
# (tests/cudahost's NDTILE_CUDAHOST_VISIBLE; read when the plugin starts)
VISIBLE_JOB = """import os
r = int(os.environ.get("OMPI_COMM_WORLD_LOCAL_RANK") or os.environ.get("MPI_LOCALRANKID")
        or os.environ.get("PMI_RANK") or 0)
os.environ["NDTILE_CUDAHOST_VISIBLE"] = os.environ["NDT_TEST_VISIBLE"].split("/")[r]
""" + JOB


# and NDT_TEST_DEVICES: rank r's NDTILE_DEVICES, the r-th "/"-separated part
# ("none": a rank without GPUs, which still takes part in the node's exchange)
PER_RANK_JOB = VISIBLE_JOB.replace("""import os
""", """import os
_r = int(os.environ.get("OMPI_COMM_WORLD_LOCAL_RANK") or os.environ.get("MPI_LOCALRANKID")
         or os.environ.get("PMI_RANK") or 0)
os.environ["NDTILE_DEVICES"] = os.environ["NDT_TEST_DEVICES"].split("/")[_r]
""", 1)


def run_job(tmp_path, tag, *argv, job_text=JOB, ranks=2, **env_add):
    job = tmp_path / "job.py"
    job.write_text(job_text)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NDTILE_", "SLURM_"))}
    env.update(NDTILE_CUDA_PLUGIN=PLUGIN, NDTILE_CUDAHOST_DEVICES="2",
               NDTILE_CUDAHOST_MEM=str(CARD), NDTILE_WORKERS="1", **env_add)
    base = tmp_path / tag
    r = subprocess.run([PY, "-m", "ndtile", "--cpus", "2", "--ranks", str(ranks), *argv,
                        str(job), str(base)], env=env, timeout=120, capture_output=True,
                       text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    return [(tmp_path / f"{tag}.rank{k}").read_text().strip() for k in range(ranks)], r


def budgets(tmp_path, tag, *argv, **kw):
    return run_job(tmp_path, tag, *argv, **kw)[0]


def test_ranks_on_one_gpu_split_its_default_budget(tmp_path):
    assert budgets(tmp_path, "own", "--gpus-per-node", "2") == [f"0:{B}", f"1:{B}"]
    assert budgets(tmp_path, "shared", "--gpus-per-node", "1") == [f"0:{B // 2}"] * 2
    # every rank sees every GPU; two virtual devices of GPU 0 in each rank
    assert budgets(tmp_path, "all", NDTILE_DEVICES="cuda:0,cuda:0") == [
        f"0:{B // 4};0:{B // 4}"] * 2


def test_ranks_on_one_gpu_by_visible_devices_split_it(tmp_path):
    """Both ranks see physical GPU 1 as their device 0 (CUDA_VISIBLE_DEVICES=1
    in each): they share the card, and split its budget."""
    assert budgets(tmp_path, "cvd_shared", job_text=VISIBLE_JOB,
                   NDTILE_DEVICES="cuda", NDT_TEST_VISIBLE="1/1") == [f"0:{B // 2}"] * 2


def test_ranks_on_own_gpus_by_visible_devices_keep_the_card(tmp_path):
    """A scheduler gives each rank a GPU of its own through
    CUDA_VISIBLE_DEVICES (rank 0 sees physical GPU 0, rank 1 GPU 1, each as
    device 0) without --gpus-per-node: the ordinals match but the cards do
    not (their PCI bus ids differ), so nothing is split."""
    assert budgets(tmp_path, "cvd_own", job_text=VISIBLE_JOB,
                   NDTILE_DEVICES="cuda", NDT_TEST_VISIBLE="0/1") == [f"0:{B}"] * 2


def test_ranks_on_own_gpus_split_only_their_virtual_devices(tmp_path):
    """Each rank's own card (CUDA_VISIBLE_DEVICES) as two virtual devices
    (cuda:0,cuda:0): halves of the card, split in the rank only."""
    assert budgets(tmp_path, "cvd_own_virt", job_text=VISIBLE_JOB,
                   NDTILE_DEVICES="cuda:0,cuda:0", NDT_TEST_VISIBLE="0/1") == [
        f"0:{B // 2};0:{B // 2}"] * 2


def test_ranks_sharing_one_of_their_gpus(tmp_path):
    """Rank 0 sees physical GPUs 0 and 1 (devices 0, 1), rank 1 sees GPU 1 as
    its device 0: GPU 0 is rank 0's alone, GPU 1 is split, whatever its
    ordinal in each rank."""
    assert budgets(tmp_path, "cvd_mixed", job_text=VISIBLE_JOB, NDTILE_DEVICES="cuda",
                   NDT_TEST_VISIBLE="0,1/1") == [f"0:{B};1:{B // 2}", f"0:{B // 2}"]


def test_rank_without_gpus_takes_part_and_takes_no_share(tmp_path):
    """Rank 1 asks for no devices (NDTILE_DEVICES=none), or for simulated
    ones: it still takes part in the node's exchange (no hang), and holds no
    part of GPU 0, whose budget stays whole on rank 0."""
    for tag, devs in (("none", "cuda/none"), ("sim", "cuda/sim:1,mem=1M")):
        assert budgets(tmp_path, tag, job_text=PER_RANK_JOB, NDT_TEST_DEVICES=devs,
                       NDT_TEST_VISIBLE="0/0") == [f"0:{B}", ""]


def test_one_rank_keeps_the_card_and_verbose_says_the_split(tmp_path):
    """One rank: the whole 90 %; NDTILE_VERBOSE=1 names the ranks and the bus
    ids, and says how a split budget was divided."""
    got, _ = run_job(tmp_path, "one", ranks=1, NDTILE_DEVICES="cuda")
    assert got == [f"0:{B};1:{B}"]
    _, r = run_job(tmp_path, "shared_v", job_text=VISIBLE_JOB, NDTILE_DEVICES="cuda:0,cuda:0",
                   NDT_TEST_VISIBLE="1/1", NDTILE_VERBOSE="1")
    assert "the GPUs of this node's 2 ranks by PCI bus id: rank 0: 00000000:42:00.0; " \
        "rank 1: 00000000:42:00.0" in r.stderr, r.stderr
    assert f"budget {B // 4} bytes of {CARD}, 90 % of it split 4 ways: 2 devices of this " \
        "rank times 2 ranks of the node on this GPU (by PCI bus id)" in r.stderr, r.stderr
