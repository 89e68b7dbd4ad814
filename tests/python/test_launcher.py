"""The ndtile launcher (python -m ndtile / the `ndtile` command).

Most tests print the command with --dry-run on a described machine (the
machine probes of ndtile._launch are replaced); the last ones really run
small scripts through `python -m ndtile`."""
import json
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
    # the suite's own NDTILE_* settings would be forwarded: none here
    for var in [k for k in os.environ if k.startswith("NDTILE_")] + ["SLURM_JOB_ID",
                                                                     "SLURM_NNODES"]:
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


def test_ranks_that_fit_the_cores_are_bound(machine, capsys, script):
    # the runtime binds each rank to cores of its own (NDTILE_BIND=cores);
    # the launcher asks for it only when the ranks and their workers fit
    machine.cores = 8
    env, cmd = dry(capsys, "--ranks", "4", script)
    assert env["NDTILE_BIND"] == "cores" and "NDTILE_BIND" in cmd     # -x
    env, cmd = dry(capsys, "--ranks", "2", script)
    assert env["NDTILE_BIND"] == "cores" and env["NDTILE_WORKERS"] == "4"
    env, cmd = dry(capsys, "--ranks", "16", script)           # more ranks than cores
    assert "NDTILE_BIND" not in env and "--oversubscribe" in cmd
    env, cmd = dry(capsys, "--ranks", "2", "--cpus", "32", script)   # more than there are
    assert "NDTILE_BIND" not in env
    env, cmd = dry(capsys, script)                            # one process: nothing to split
    assert "NDTILE_BIND" not in env
    env, cmd = dry(capsys, "--launcher", "srun", "--ranks", "2", script)
    assert "NDTILE_BIND" not in env                           # Slurm binds its tasks
    env, cmd = dry(capsys, "--ranks", "2", "--launcher-args", "--bind-to core", script)
    assert "NDTILE_BIND" not in env                           # the user's binding wins


def test_gpus_per_node(machine, capsys, script, monkeypatch):
    # each rank takes its share of the node's GPUs (the runtime picks it by
    # its place on the node: device.c); the devices are CUDA unless the
    # user chose others
    machine.cores = 8
    env, cmd = dry(capsys, "--ranks", "4", "--gpus-per-node", "4", script)
    assert env["NDTILE_GPUS_PER_NODE"] == "4" and env["NDTILE_DEVICES"] == "cuda"
    assert "NDTILE_GPUS_PER_NODE" in cmd and "NDTILE_DEVICES" in cmd      # -x
    monkeypatch.setenv("NDTILE_DEVICES", "cuda:0,cuda:0")
    env, cmd = dry(capsys, "--ranks", "2", "--gpus-per-node", "1", script)
    assert env["NDTILE_GPUS_PER_NODE"] == "1" and "NDTILE_DEVICES" not in env
    assert "NDTILE_DEVICES" in cmd                                      # forwarded as is
    assert _launch.main(["--dry-run", "--gpus-per-node", "0", script]) == 2


def test_users_bind_setting_wins(machine, capsys, script, monkeypatch):
    monkeypatch.setenv("NDTILE_BIND", "none")
    env, cmd = dry(capsys, "--ranks", "2", script)
    assert "NDTILE_BIND" not in env          # not set by the launcher: forwarded as is
    assert "NDTILE_BIND" in cmd


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


# --- clusters: version, verbose, launcher arguments, NDTILE_* forwarding,
# --- profile, signals (issue 17 item 6) -----------------------------------

def test_version(capsys):
    import ndtile
    assert _launch.main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"ndtile {ndtile.__version__}"
    r = run_ndtile("--version")
    assert r.returncode == 0 and r.stdout.strip() == f"ndtile {ndtile.__version__}"


def test_help_documents_cluster_options(capsys):
    assert _launch.main(["--help"]) == 0
    out = capsys.readouterr().out
    for word in ("--launcher-args", "--profile", "--verbose", "--version",
                 "t.rank0.json", "mpirun -x", "srun --export=ALL"):
        assert word in out, word


@pytest.fixture
def ndtile_env(monkeypatch):
    """Two user settings in the environment, to be forwarded."""
    monkeypatch.setenv("NDTILE_TILE_BYTES", "1M")
    monkeypatch.setenv("NDTILE_FALLBACK", "summary")
    monkeypatch.setenv("OTHER_VAR", "x")


def test_openmpi_forwards_every_ndtile_setting(machine, capsys, script, ndtile_env):
    machine.cores = 8
    env, cmd = dry(capsys, "--ranks", "4", "--profile", "t.json", script)
    xs = [cmd[i + 1] for i, w in enumerate(cmd) if w == "-x"]
    assert sorted(xs) == ["NDTILE_BIND", "NDTILE_FALLBACK", "NDTILE_LAUNCHED",
                          "NDTILE_PROFILE", "NDTILE_TILE_BYTES", "NDTILE_WORKERS"]
    assert env["NDTILE_PROFILE"] == "t.json"
    assert cmd[-2:] == [PY, script]


def test_mpich_forwards_every_ndtile_setting(machine, capsys, script, ndtile_env):
    machine.flavour = ("mpich", "MPICH 4.0")
    machine.cores = 8
    env, cmd = dry(capsys, "--ranks", "2", script)
    genv = {cmd[i + 1]: cmd[i + 2] for i, w in enumerate(cmd) if w == "-genv"}
    assert genv == {"NDTILE_TILE_BYTES": "1M", "NDTILE_FALLBACK": "summary",
                    "NDTILE_WORKERS": "4", "NDTILE_LAUNCHED": "1", "NDTILE_BIND": "cores"}
    assert cmd == ["/opt/mpi/bin/mpirun", "-n", "2",
                   "-genv", "NDTILE_FALLBACK", "summary", "-genv", "NDTILE_TILE_BYTES", "1M",
                   "-genv", "NDTILE_WORKERS", "4", "-genv", "NDTILE_LAUNCHED", "1",
                   "-genv", "NDTILE_BIND", "cores", PY, script]


def test_srun_exports_all(machine, capsys, script, ndtile_env):
    machine.cores = 8
    env, cmd = dry(capsys, "--launcher", "srun", "--ranks", "2", "--profile", "p.json",
                   "--launcher-args", "--partition=debug --time=5", script)
    assert cmd == ["/opt/slurm/bin/srun", "-n", "2", "--cpus-per-task", "4", "--export=ALL",
                   "--partition=debug", "--time=5", PY, script]
    assert env == {"NDTILE_WORKERS": "4", "NDTILE_LAUNCHED": "1", "NDTILE_PROFILE": "p.json"}


def test_launcher_args_pass_through(machine, capsys, script):
    machine.cores = 8
    env, cmd = dry(capsys, "--ranks", "4", "--launcher-args", "--hostfile hosts.txt",
                   "--launcher-args=--mca btl tcp,self", script, "--launcher-args", "x")
    i = cmd.index("--hostfile")
    assert cmd[i:i + 5] == ["--hostfile", "hosts.txt", "--mca", "btl", "tcp,self"]
    assert cmd[i + 5:] == [PY, script, "--launcher-args", "x"]     # the script's own
    assert cmd.index("-x") < i                  # after ndtile's own launcher options
    # a value that is itself one option
    env, cmd = dry(capsys, "--ranks", "2", "--launcher-args", "--oversubscribe", script)
    assert cmd[-3:] == ["--oversubscribe", PY, script]
    # quoting as a shell does
    env, cmd = dry(capsys, "--ranks", "2", "--launcher-args", "--mca x 'a b'", script)
    assert cmd[-5:] == ["--mca", "x", "a b", PY, script]


def test_launcher_args_errors(machine, capsys, script):
    assert _launch.main(["--dry-run", "--launcher-args", "--hostfile h", script]) == 2
    assert "add --launcher mpirun or srun" in capsys.readouterr().err
    assert _launch.main(["--dry-run", "--ranks", "2", "--launcher-args", "'open", script]) == 2
    assert "--launcher-args" in capsys.readouterr().err


def test_verbose_prints_command_and_environment(tmp_path):
    job = tmp_path / "job.py"
    job.write_text("print('ran')\n")
    r = run_ndtile("--verbose", "--launcher", "none", "--cpus", "3", "--profile",
                   str(tmp_path / "t.json"), str(job))
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "ran"
    lines = r.stderr.splitlines()
    assert lines[0] == (f"ndtile: environment: NDTILE_WORKERS=3 NDTILE_LAUNCHED=1 "
                        f"NDTILE_PROFILE={tmp_path / 't.json'}")
    assert lines[1] == f"ndtile: command: {shlex.join([PY, str(job)])}"


def test_info_has_build_and_settings(capsys):
    assert _launch.main(["--info"]) == 0
    rows = dict(line.split(": ", 1) for line in capsys.readouterr().out.splitlines())
    assert "OpenBLAS" in rows["blas"] and rows["sleef"].count(".") == 2
    assert rows["processors"].startswith("cpu") and rows["cuda"]
    assert rows["setting NDTILE_PROGRESS"].isdigit()


def _trace(path):
    trace = json.loads(path.read_text())
    return trace, [e for e in trace["traceEvents"] if e["ph"] == "X"]


TRACE_JOB = ("import ndtile as np\n"
             "a = np.ones((1000, 1000))\n"
             "print(float((a * 2 + 1).sum(axis=0)[0]))\n")


def test_profile_one_rank_through_the_launcher(tmp_path):
    # the launcher's own process wrote an empty trace over the script's
    job = tmp_path / "job.py"
    job.write_text(TRACE_JOB)
    out = tmp_path / "t.json"
    r = run_ndtile("--launcher", "none", "--profile", str(out), str(job))
    assert r.returncode == 0, r.stderr
    trace, ev = _trace(out)
    assert {e["name"] for e in ev} >= {"sum"}
    r = run_ndtile("--launcher", "none", str(job),
                   env_extra={"NDTILE_PROFILE": str(tmp_path / "u.json")})
    assert r.returncode == 0, r.stderr
    trace, ev = _trace(tmp_path / "u.json")
    assert any(e["name"] == "sum" for e in ev)


@pytest.mark.skipif(not (shutil.which("mpirun") or shutil.which("mpiexec")),
                    reason="no MPI launcher on PATH")
def test_profile_two_ranks_one_file_each(tmp_path):
    job = tmp_path / "job.py"
    job.write_text(TRACE_JOB)
    r = run_ndtile("--ranks", "2", "--profile", str(tmp_path / "t.json"), str(job),
                   timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    assert sorted(p.name for p in tmp_path.glob("t*.json")) == ["t.rank0.json",
                                                                 "t.rank1.json"]
    names_all = set()
    for rank in (0, 1):
        trace, ev = _trace(tmp_path / f"t.rank{rank}.json")
        assert trace["otherData"] == {"rank": rank, "ranks": 2, "workers": 1}
        assert {e["pid"] for e in trace["traceEvents"]} == {rank}
        names = [e for e in trace["traceEvents"] if e["name"] == "process_name"]
        assert names[0]["args"]["name"] == f"ndtile rank {rank}"
        tasks = [e for e in ev if e["cat"] in ("task", "inline")]
        assert tasks, ev
        for e in tasks:
            assert e["args"]["bytes"] > 0 and e["args"]["tiles"] >= 1
        assert all(e["dur"] >= 0 and e["ts"] > 0 for e in ev)
        names_all |= {e["name"] for e in tasks}
    assert "sum" in names_all        # on the rank(s) owning its tiles


@pytest.mark.skipif(not (shutil.which("mpirun") or shutil.which("mpiexec")),
                    reason="no MPI launcher on PATH")
@pytest.mark.parametrize("sig,group", [(signal.SIGINT, True), (signal.SIGTERM, False)])
def test_signal_stops_many_ranks_cleanly(tmp_path, sig, group):
    # Ctrl-C (SIGINT to the terminal's process group) or a SIGTERM to the
    # launcher: one message, no traceback from every rank, 128 + signal
    job = tmp_path / "sleep.py"
    job.write_text("import time, ndtile as np\n"
                   "a = np.ones(10)\n"
                   "print('ready', np.rank(), flush=True)\n"
                   "time.sleep(60)\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NDTILE_", "SLURM_"))}
    p = subprocess.Popen([PY, "-m", "ndtile", "--ranks", "2", str(job)], env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         start_new_session=True)
    try:
        assert p.stdout.readline().startswith("ready")
        time.sleep(1.0)         # every rank past its import
        t = time.monotonic()
        (os.killpg if group else os.kill)(p.pid, sig)
        out, err = p.communicate(timeout=30)
        assert time.monotonic() - t < 15
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
    assert p.returncode == 128 + sig, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    name = "SIGINT (Ctrl-C)" if sig == signal.SIGINT else "SIGTERM"
    assert f"ndtile: {name} stopped the run of 2 ranks" in err, err


@pytest.mark.skipif(not (shutil.which("mpirun") or shutil.which("mpiexec")),
                    reason="no MPI launcher on PATH")
def test_sigint_to_the_ranks_themselves(tmp_path):
    # MPICH's mpiexec and srun hand Ctrl-C to every rank: each ended with a
    # KeyboardInterrupt traceback; now they end quietly and the launcher
    # says what stopped them
    job = tmp_path / "sleep.py"
    job.write_text("import os, time, ndtile as np\n"
                   "a = np.ones(10)\n"
                   "os.write(1, f'pid {np.rank()} {os.getpid()}\\n'.encode())\n"
                   "time.sleep(60)\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NDTILE_", "SLURM_"))}
    env["NDTILE_ALL_RANKS_PRINT"] = "1"
    p = subprocess.Popen([PY, "-m", "ndtile", "--ranks", "2", str(job)], env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         start_new_session=True)
    try:
        pids = [int(p.stdout.readline().split()[2]) for _ in range(2)]
        time.sleep(1.0)
        for pid in pids:
            os.kill(pid, signal.SIGINT)
        out, err = p.communicate(timeout=30)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
    assert p.returncode == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert "ndtile: SIGINT (Ctrl-C) stopped a rank; the run of 2 ranks ended" in err, err


def test_memstat_printed_by_the_script_only(tmp_path):
    # the launcher's own (idle) runtime printed a second memory line at exit
    job = tmp_path / "job.py"
    job.write_text("import ndtile as np\nprint(float(np.ones(100000).sum()))\n")
    r = run_ndtile("--launcher", "none", str(job), env_extra={"NDTILE_MEMSTAT": "1"})
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "100000.0"
    assert r.stderr.count("ndtile memory: peak") == 1, r.stderr


def test_held_settings_still_forwarded(machine, capsys, script, monkeypatch):
    monkeypatch.setattr(_launch, "_HELD", {"NDTILE_MEMSTAT": "1"})
    env, cmd = dry(capsys, "--ranks", "2", script)
    assert "NDTILE_MEMSTAT" in [cmd[i + 1] for i, w in enumerate(cmd) if w == "-x"]


def test_bad_setting_is_one_line_from_the_command():
    # the package checks settings at import, before the launcher's main():
    # the command still says it in one line, with exit status 2
    r = run_ndtile("--info", env_extra={"NDTILE_WORKERS": "abc"})
    assert r.returncode == 2, r
    assert "Traceback" not in r.stderr and "NDTILE_WORKERS" in r.stderr, r.stderr
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    # a program importing ndtile still gets the ValueError
    env = {k: v for k, v in os.environ.items() if not k.startswith("NDTILE_")}
    env["NDTILE_WORKERS"] = "abc"
    p = subprocess.run([PY, "-c", "import ndtile"], env=env, stderr=subprocess.PIPE, text=True,
                       timeout=60)
    assert p.returncode == 1 and "ValueError" in p.stderr and "NDTILE_WORKERS" in p.stderr
