"""The ndtile launcher (python -m ndtile / the `ndtile` command).

Most tests print the command with --dry-run on a described machine (the
machine probes of ndtile._launch are replaced); the last ones really run
small scripts through `python -m ndtile`."""
import os
import shlex
import shutil
import signal
import subprocess
import sys
import time

import pytest

from ndtile import _launch

PY = sys.executable


@pytest.fixture
def script(tmp_path):
    path = tmp_path / "job.py"
    path.write_text("print('hello')\n")
    return str(path)


@pytest.fixture
def machine(monkeypatch):
    """A 2-core machine, not root, no Slurm, with Open MPI's mpirun and srun
    on PATH; tests change the attributes they need."""
    class Machine:
        cores = 2
        root = False
        tools = {"mpirun": "/opt/mpi/bin/mpirun", "srun": "/opt/slurm/bin/srun"}
        flavour = ("openmpi", "Open MPI 4.1.4")

    m = Machine()
    monkeypatch.setattr(_launch, "_local_cores", lambda: m.cores)
    monkeypatch.setattr(_launch, "_is_root", lambda: m.root)
    monkeypatch.setattr(_launch, "_which", lambda name: m.tools.get(name))
    monkeypatch.setattr(_launch, "_mpi_flavour", lambda path: m.flavour)
    for var in ("NDTILE_WORKERS", "SLURM_JOB_ID", "SLURM_NNODES"):
        monkeypatch.delenv(var, raising=False)
    return m


def dry(capsys, *argv):
    """(env assignments, command argv) printed by --dry-run."""
    rc = _launch.main(["--dry-run", *argv])
    out = capsys.readouterr().out
    assert rc == 0, out
    words = shlex.split(out)
    env = {}
    while words and "=" in words[0] and not words[0].startswith("-"):
        k, v = words.pop(0).split("=", 1)
        env[k] = v
    return env, words


def opt(cmd, name):
    """The value after option `name` in cmd."""
    return cmd[cmd.index(name) + 1]


# --- the command, with --dry-run ------------------------------------------

def test_one_rank_runs_python_directly(machine, capsys, script):
    env, cmd = dry(capsys, script, "a", "b")
    assert cmd == [PY, script, "a", "b"]
    assert env == {"NDTILE_WORKERS": "2", "NDTILE_LAUNCHED": "1"}


def test_four_ranks_use_mpirun(machine, capsys, script):
    machine.cores = 8
    env, cmd = dry(capsys, "--ranks", "4", script)
    assert cmd[0] == "/opt/mpi/bin/mpirun"
    assert opt(cmd, "-n") == "4"
    assert env["NDTILE_WORKERS"] == "2" and env["NDTILE_LAUNCHED"] == "1"
    assert opt(cmd, "--bind-to") == "none"
    assert "NDTILE_WORKERS" in cmd and "NDTILE_LAUNCHED" in cmd    # -x
    assert "--oversubscribe" not in cmd
    assert "--allow-run-as-root" not in cmd
    assert cmd[-2:] == [PY, script]


def test_more_ranks_than_cores_oversubscribe(machine, capsys, script):
    env, cmd = dry(capsys, "--ranks", "4", script)
    assert env["NDTILE_WORKERS"] == "1"
    assert "--oversubscribe" in cmd
    machine.root = True
    env, cmd = dry(capsys, "--ranks", "2", script)
    assert "--allow-run-as-root" in cmd and "--oversubscribe" not in cmd


def test_cpus_shared_among_ranks(machine, capsys, script):
    env, cmd = dry(capsys, "--cpus", "8", "--ranks", "2", script)
    assert env["NDTILE_WORKERS"] == "4"
    assert opt(cmd, "-n") == "2"


def test_nodes_and_ranks_per_node(machine, capsys, script):
    env, cmd = dry(capsys, "--nodes", "2", "--ranks-per-node", "3",
                   "--cpus", "12", script)
    assert opt(cmd, "-n") == "6"
    assert opt(cmd, "--map-by") == "ppr:3:node"
    assert env["NDTILE_WORKERS"] == "4"
    assert _launch.main(["--dry-run", "--nodes", "2", "--ranks-per-node", "3",
                         "--ranks", "5", script]) == 2


def test_mpich_flags(machine, capsys, script):
    machine.flavour = ("mpich", "MPICH 4.0")
    machine.root = True
    env, cmd = dry(capsys, "--nodes", "2", "--ranks-per-node", "2",
                   "--cpus", "4", script)
    assert opt(cmd, "-n") == "4" and opt(cmd, "-ppn") == "2"
    i = cmd.index("-genv")
    assert cmd[i:i + 3] == ["-genv", "NDTILE_WORKERS", "2"]
    assert "--allow-run-as-root" not in cmd and "--bind-to" not in cmd


def test_mpiexec_when_no_mpirun(machine, capsys, script):
    machine.tools = {"mpiexec": "/usr/bin/mpiexec"}
    env, cmd = dry(capsys, "--ranks", "2", script)
    assert cmd[0] == "/usr/bin/mpiexec"


def test_srun(machine, capsys, script):
    machine.cores = 16
    env, cmd = dry(capsys, "--launcher", "srun", "--ranks", "4", script, "x")
    assert cmd[0] == "/opt/slurm/bin/srun"
    assert opt(cmd, "-n") == "4"
    assert opt(cmd, "--cpus-per-task") == "4" == env["NDTILE_WORKERS"]
    assert "--export=ALL" in cmd
    assert cmd[-3:] == [PY, script, "x"]
    env, cmd = dry(capsys, "--launcher", "srun", "--nodes", "2",
                   "--ranks-per-node", "2", script)
    assert opt(cmd, "-n") == "4" and opt(cmd, "--nodes") == "2"
    assert opt(cmd, "--ntasks-per-node") == "2"
    assert opt(cmd, "--cpus-per-task") == "8"


def test_slurm_allocation_picks_srun(machine, capsys, script, monkeypatch):
    monkeypatch.setenv("SLURM_JOB_ID", "1234")
    env, cmd = dry(capsys, script)
    assert cmd[0] == "/opt/slurm/bin/srun" and opt(cmd, "-n") == "1"
    machine.tools = {"mpirun": "/opt/mpi/bin/mpirun"}       # srun missing
    env, cmd = dry(capsys, "--ranks", "2", script)
    assert cmd[0] == "/opt/mpi/bin/mpirun"


def test_script_args_pass_through(machine, capsys, script):
    env, cmd = dry(capsys, "--ranks", "2", script, "--ranks", "7", "-x",
                   "--dry-run", "--info", "-m", "mod")
    assert opt(cmd, "-n") == "2"
    assert cmd[cmd.index(script) - 1:] == [PY, script, "--ranks", "7", "-x",
                                           "--dry-run", "--info", "-m", "mod"]
    env, cmd = dry(capsys, "--", script, "--ranks", "7")
    assert cmd == [PY, script, "--ranks", "7"]


def test_module(machine, capsys):
    env, cmd = dry(capsys, "--ranks", "2", "-m", "pkg.mod", "--ranks", "3")
    assert cmd[-5:] == [PY, "-m", "pkg.mod", "--ranks", "3"]
    assert opt(cmd, "-n") == "2"


def test_user_workers_kept(machine, capsys, script, monkeypatch):
    monkeypatch.setenv("NDTILE_WORKERS", "3")
    env, cmd = dry(capsys, "--ranks", "2", "--cpus", "16", script)
    assert env["NDTILE_WORKERS"] == "3"


def test_errors(machine, capsys, script):
    assert _launch.main([]) == 2
    assert "usage" in capsys.readouterr().err
    assert _launch.main(["--ranks", "0", script]) == 2
    assert _launch.main(["--ranks", "two", script]) == 2
    assert _launch.main(["--rank", "2", script]) == 2       # no abbreviations
    assert _launch.main(["--launcher", "none", "--ranks", "2", script]) == 2
    capsys.readouterr()
    assert _launch.main(["/no/such/file.py"]) == 2
    assert "can't open file '/no/such/file.py'" in capsys.readouterr().err
    machine.tools = {}
    assert _launch.main(["--dry-run", "--ranks", "2", script]) == 2
    assert "mpirun" in capsys.readouterr().err
    assert _launch.main(["--launcher", "mpirun", script]) == 2


def test_info(capsys):
    assert _launch.main(["--info"]) == 0
    out = capsys.readouterr().out
    rows = dict(line.split(": ", 1) for line in out.splitlines())
    for key in ("ndtile", "python", "cores", "mpi launcher", "mpi flavour",
                "slurm allocation", "gpus", "tile bytes", "workers per rank"):
        assert key in rows, key
    assert rows["python"] == PY
    assert int(rows["cores"]) >= 1 and int(rows["gpus"]) >= 0
    assert int(rows["tile bytes"]) > 0


# --- real runs ------------------------------------------------------------

def run_ndtile(*argv, env_extra=None, timeout=30):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("NDTILE_", "SLURM_"))}
    env.update(env_extra or {})
    return subprocess.run([PY, "-m", "ndtile", *argv], env=env, timeout=timeout,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True)


def test_run_directly(tmp_path):
    job = tmp_path / "job.py"
    job.write_text("import os, sys\n"
                   "print(sys.argv[1:], os.environ['NDTILE_WORKERS'],"
                   " os.environ['NDTILE_LAUNCHED'])\n")
    r = run_ndtile("--launcher", "none", "--cpus", "3", str(job), "--ranks", "7")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "['--ranks', '7'] 3 1"
    r = run_ndtile("--launcher", "none", str(job),
                   env_extra={"NDTILE_WORKERS": "5"})
    assert r.stdout.strip() == "[] 5 1"

    bad = tmp_path / "bad.py"
    bad.write_text("import sys\nsys.exit(3)\n")
    assert run_ndtile("--launcher", "none", str(bad)).returncode == 3


def test_sigterm_reaches_the_script(tmp_path):
    job = tmp_path / "sleep.py"
    job.write_text("import time\nprint('ready', flush=True)\ntime.sleep(30)\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("SLURM_")}
    p = subprocess.Popen([PY, "-m", "ndtile", "--launcher", "none", str(job)],
                         env=env, stdout=subprocess.PIPE, text=True)
    try:
        assert p.stdout.readline().strip() == "ready"
        t = time.monotonic()
        p.send_signal(signal.SIGTERM)
        assert p.wait(timeout=10) == 128 + signal.SIGTERM
        assert time.monotonic() - t < 5
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
        p.stdout.close()


@pytest.mark.skipif(not (shutil.which("mpirun") or shutil.which("mpiexec")),
                    reason="no MPI launcher on PATH")
def test_run_two_ranks(tmp_path):
    job = tmp_path / "ranks.py"
    # one write() per line: MPI forwards each rank's output as it comes, so
    # print's separate writes of an unbuffered stdout may interleave
    job.write_text("import os\n"
                   "rank = os.environ.get('OMPI_COMM_WORLD_RANK', os.environ.get('PMI_RANK'))\n"
                   "os.write(1, f\"rank {rank} {os.environ['NDTILE_WORKERS']}\\n\".encode())\n")
    r = run_ndtile("--ranks", "2", str(job))
    assert r.returncode == 0, r.stdout + r.stderr
    lines = sorted(line for line in r.stdout.splitlines() if line.startswith("rank"))
    assert len(lines) == 2, r.stdout + r.stderr
    assert [line.split()[1] for line in lines] == ["0", "1"]
