"""The ndtile launcher: runs an unchanged NumPy script on many processes.

    ndtile [--ranks N] [--cpus C] [--nodes M --ranks-per-node R]
           [--launcher auto|mpirun|srun|none] [--launcher-args "ARGS"]
           [--profile FILE] [--verbose] [--dry-run] script.py [args...]
    ndtile [options] -m module [args...]
    ndtile --info | --version
    python -m ndtile ...            (the same)

Execution follows control replication: every rank runs the whole script; the
runtime splits the arrays' tiles among the ranks. The launcher only picks the
process launcher (srun inside a Slurm allocation, else mpirun/mpiexec for more
than one rank, else the script runs directly), the worker threads per rank
(exported as NDTILE_WORKERS unless already set) and marks the processes with
NDTILE_LAUNCHED=1. Everything after the script name (or -m module) belongs to
the script, even arguments that look like launcher options.

Clusters: every NDTILE_* variable of the launcher's environment (and those
it sets) reaches every rank, also on other nodes: Open MPI's mpirun gets
`-x NAME` for each, MPICH's mpiexec `-genv NAME VALUE`, srun `--export=ALL`.
--launcher-args "ARGS" (repeatable; split like a shell) passes ARGS to the
process launcher itself, after the options ndtile gives it and before the
program: a hostfile, MCA options, srun flags. --profile FILE writes a Chrome
trace per rank (FILE on one rank; FILE with .rankN before its extension on
many: t.json -> t.rank0.json, t.rank1.json). --verbose prints the command
and the environment it sets before running it; --dry-run prints them only.
Ctrl-C or a signal that stops a run of many ranks ends every rank quietly;
the launcher says once what stopped it and exits with 128 + the signal
number (130 for Ctrl-C).
"""
import argparse
import functools
import math
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys

PROG = "ndtile"
DEFAULT_TILE_BYTES = 2 << 20
LAUNCHERS = ("auto", "mpirun", "srun", "none")

_USAGE = (
    "ndtile [--ranks N] [--cpus C] [--nodes M --ranks-per-node R]\n"
    "              [--launcher {auto,mpirun,srun,none}] [--launcher-args ARGS]\n"
    "              [--profile FILE] [--verbose] [--dry-run]"
    " script.py [args ...]\n"
    "       ndtile [options] -m module [args ...]\n"
    "       ndtile --info | --version"
)


class _Error(Exception):
    """A launcher error: the message goes to stderr, exit status 2."""


# Settings for the ranks that this process, whose own runtime stays idle,
# must not act on at its exit (NDTILE_MEMSTAT would print a line of its
# own): taken out of its environment at the start, handed to the ranks.
_HELD = {}


def _hold_own_settings():
    for name in ("NDTILE_MEMSTAT",):
        v = os.environ.pop(name, None)
        if v is not None:
            _HELD[name] = v


# --- what the machine has (module-level so that tests can replace them) ----

def _which(name):
    return shutil.which(name)


def _local_cores():
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):       # pragma: no cover - not Linux
        return os.cpu_count() or 1


def _is_root():
    return hasattr(os, "geteuid") and os.geteuid() == 0


@functools.lru_cache(maxsize=None)
def _mpi_flavour(path):
    """('openmpi' | 'mpich' | 'unknown', label) from `path --version`."""
    try:
        r = subprocess.run([path, "--version"], stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, timeout=10)
        out = r.stdout or ""
    except (OSError, subprocess.SubprocessError):
        return "unknown", "unknown"
    if "Open MPI" in out or "OpenRTE" in out:
        m = re.search(r"\((?:Open MPI|OpenRTE)\)\s+(\S+)", out)
        return "openmpi", "Open MPI" + (f" {m.group(1)}" if m else "")
    if "HYDRA" in out or "MPICH" in out or "Intel(R) MPI" in out:
        m = re.search(r"Version:\s+(\S+)", out)
        return "mpich", "MPICH" + (f" {m.group(1)}" if m else "")
    return "unknown", "unknown"


def _gpu_count():
    smi = _which("nvidia-smi")
    if not smi:
        return 0
    try:
        r = subprocess.run([smi, "-L"], stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                           text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return 0
    if r.returncode != 0:
        return 0
    return sum(1 for line in r.stdout.splitlines() if line.startswith("GPU "))


def _find_mpirun():
    for name in ("mpirun", "mpiexec"):
        path = _which(name)
        if path:
            return path
    return None


# --- command line ---------------------------------------------------------

def _positive(text):
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid int value: {text!r}")
    if v < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {v}")
    return v


def _parser():
    p = argparse.ArgumentParser(
        prog=PROG, usage=_USAGE, allow_abbrev=False,
        description="Runs a NumPy script written against ndtile on one or "
                    "many processes (each rank runs the whole script).",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Everything after the script name (or -m module) is passed to the\n"
               "script unchanged ('--' before the script name ends ndtile's options).\n"
               "Every NDTILE_* variable set here reaches every rank on every node\n"
               "(mpirun -x, mpiexec -genv, srun --export=ALL). Ctrl-C or a signal\n"
               "ends every rank quietly; the exit status is 128 + the signal (130).\n\n"
               "examples:\n"
               "  ndtile --ranks 4 job.py\n"
               "  ndtile --ranks 16 --launcher-args '--hostfile hosts --mca btl tcp,self' job.py\n"
               "  ndtile --launcher srun --nodes 2 --ranks-per-node 4 \\\n"
               "         --launcher-args '--partition=gpu --time=10' job.py\n"
               "  ndtile --ranks 2 --profile t.json job.py   # t.rank0.json, t.rank1.json")
    p.add_argument("--ranks", "-n", type=_positive, metavar="N",
                   help="number of processes (default 1, or nodes * "
                        "ranks-per-node)")
    p.add_argument("--cpus", type=_positive, metavar="C",
                   help="cores per node to share among its ranks (default: "
                        "the cores this process may use)")
    p.add_argument("--nodes", type=_positive, metavar="M",
                   help="number of nodes")
    p.add_argument("--ranks-per-node", type=_positive, metavar="R",
                   help="processes per node")
    p.add_argument("--gpus-per-node", type=_positive, metavar="G",
                   help="GPUs per node to share among its ranks: each rank "
                        "runs on its share (one each when G equals the ranks "
                        "per node); sets NDTILE_GPUS_PER_NODE, and "
                        "NDTILE_DEVICES=cuda unless NDTILE_DEVICES is set")
    p.add_argument("--launcher", choices=LAUNCHERS, default="auto",
                   help="how to start the processes (default auto: srun in a "
                        "Slurm allocation, mpirun for more than one rank, "
                        "else the script runs directly)")
    p.add_argument("--launcher-args", action="append", default=[], metavar="ARGS",
                   help="arguments for the process launcher itself (mpirun, "
                        "mpiexec, srun), split like a shell: a hostfile, MCA "
                        "options, srun flags; repeatable; they follow ndtile's "
                        "own launcher options")
    p.add_argument("--profile", metavar="FILE",
                   help="write a Chrome trace (Perfetto) of every rank: FILE "
                        "on one rank, FILE with .rankN before its extension "
                        "on many (sets NDTILE_PROFILE)")
    p.add_argument("--verbose", "-v", action="store_true",
                   help="print the command and the environment it sets "
                        "(to stderr) before running it")
    p.add_argument("--dry-run", action="store_true",
                   help="print the command and its environment, run nothing")
    p.add_argument("--info", action="store_true",
                   help="print what the launcher finds on this machine (and "
                        "ndtile's settings, build and devices)")
    p.add_argument("--version", action="store_true",
                   help="print ndtile's version and exit")
    p.add_argument("-m", dest="module", metavar="module",
                   help="run a module as a script (like python -m)")
    return p


def _split_argv(parser, argv):
    """Splits argv into (launcher options, target, target args).

    The target is ('script', path) or ('module', name) or None. Option
    parsing stops at the first argument that is not a launcher option (or
    its value), so the script's own arguments are never looked at."""
    takes_value, flags = set(), set()
    for a in parser._actions:
        for s in a.option_strings:
            (flags if a.nargs == 0 else takes_value).add(s)
    opts, i = [], 0
    while i < len(argv):
        tok = argv[i]
        if tok == "--":
            if i + 1 < len(argv):
                return opts, ("script", argv[i + 1]), argv[i + 2:]
            return opts, None, []
        if tok == "-m":
            if i + 1 >= len(argv):
                opts.append(tok)            # argparse reports the missing value
                return opts, None, []
            return opts, ("module", argv[i + 1]), argv[i + 2:]
        if tok.startswith("-m") and not tok.startswith("--"):
            return opts, ("module", tok[2:]), argv[i + 1:]
        if tok.startswith("-") and tok != "-":
            name = tok.split("=", 1)[0]
            if tok == "--launcher-args" and i + 1 < len(argv):
                # its value is the launcher's options ("--mca btl tcp"):
                # glued on, argparse takes it as a value, not an option
                opts.append(f"{tok}={argv[i + 1]}")
                i += 2
                continue
            opts.append(tok)
            if name in takes_value and "=" not in tok:
                if not tok.startswith("--") and len(tok) > 2:
                    pass                    # -n4
                elif i + 1 < len(argv):
                    opts.append(argv[i + 1])
                    i += 1
            i += 1
            continue
        return opts, ("script", tok), argv[i + 1:]
    return opts, None, []


# --- the plan -------------------------------------------------------------

class Plan:
    """What to run: argv, the environment variables set, and the launcher."""

    def __init__(self, argv, env_set, launcher, ranks, workers):
        self.argv = argv
        self.env_set = env_set          # {name: value} shown and exported
        self.launcher = launcher        # 'mpirun' | 'srun' | 'none'
        self.ranks = ranks
        self.workers = workers

    def shell(self):
        env = " ".join(f"{k}={shlex.quote(v)}" for k, v in self.env_set.items())
        return (env + " " if env else "") + shlex.join(self.argv)


def _layout(args):
    """(ranks, nodes or None, ranks per node or None) from the options."""
    ranks, nodes, rpn = args.ranks, args.nodes, args.ranks_per_node
    if nodes and rpn:
        if ranks is not None and ranks != nodes * rpn:
            raise _Error(f"--ranks {ranks} does not equal --nodes {nodes} x "
                         f"--ranks-per-node {rpn}")
        ranks = nodes * rpn
    elif nodes:
        if ranks is None:
            raise _Error("--nodes needs --ranks-per-node (or --ranks)")
        if ranks < nodes:
            raise _Error(f"--ranks {ranks} is fewer than --nodes {nodes}")
        rpn = math.ceil(ranks / nodes)
    elif rpn:
        if ranks is None:
            ranks = rpn
        nodes = math.ceil(ranks / rpn)
    elif ranks is None:
        ranks = 1
    return ranks, nodes, rpn


def _choose_launcher(requested, ranks, dry_run):
    """(kind, path) with kind 'srun' | 'mpirun' | 'none'."""
    if requested == "auto":
        srun = _which("srun")
        if os.environ.get("SLURM_JOB_ID") and srun:
            return "srun", srun
        if ranks > 1:
            mpirun = _find_mpirun()
            if not mpirun:
                raise _Error(f"{ranks} ranks need an MPI launcher, but neither "
                             "mpirun nor mpiexec (nor srun inside a Slurm "
                             "allocation) is on PATH")
            return "mpirun", mpirun
        return "none", None
    if requested == "none":
        if ranks > 1:
            raise _Error(f"--launcher none runs one process; {ranks} ranks "
                         "need --launcher mpirun or srun")
        return "none", None
    path = _find_mpirun() if requested == "mpirun" else _which("srun")
    if not path:
        if not dry_run:
            raise _Error(f"--launcher {requested}: {requested} is not on PATH")
        print(f"{PROG}: note: {requested} is not on PATH", file=sys.stderr)
        path = requested
    return requested, path


def plan(args, target, target_args):
    """The Plan for parsed options and a target ('script'|'module', name)."""
    ranks, nodes, rpn = _layout(args)
    kind, path = _choose_launcher(args.launcher, ranks, args.dry_run)
    local = _local_cores()
    cpus = args.cpus or local
    if rpn is not None:
        per_node = rpn
    elif kind == "srun" and os.environ.get("SLURM_NNODES", "").isdigit():
        per_node = math.ceil(ranks / max(1, int(os.environ["SLURM_NNODES"])))
    else:
        per_node = ranks                # every rank on this machine
    workers = max(1, cpus // per_node)
    user = os.environ.get("NDTILE_WORKERS")
    if user is not None:                # the user's choice wins
        workers_text = user
        workers = _setting("NDTILE_WORKERS", user, workers)
    else:
        workers_text = str(workers)
    env_set = {"NDTILE_WORKERS": workers_text, "NDTILE_LAUNCHED": "1"}
    if getattr(args, "profile", None):
        env_set["NDTILE_PROFILE"] = args.profile
    if getattr(args, "gpus_per_node", None):
        env_set["NDTILE_GPUS_PER_NODE"] = str(args.gpus_per_node)
        if "NDTILE_DEVICES" not in os.environ:
            env_set["NDTILE_DEVICES"] = "cuda"
    extra = []
    for text in getattr(args, "launcher_args", None) or ():
        try:
            extra += shlex.split(text)
        except ValueError as e:
            raise _Error(f"--launcher-args {text!r}: {e}")
    # Each rank on cores of its own (the runtime binds itself, comm.c), when
    # the ranks of a node and their workers fit its cores and neither the
    # user's NDTILE_BIND nor a binding option of theirs says otherwise.
    # (srun: Slurm's own CPU binding of --cpus-per-task decides.)
    fits = per_node * workers <= cpus and (nodes or per_node * workers <= local)
    theirs = any(a.lstrip("-").startswith(("bind-to", "cpu-bind", "cpu-set", "cpuset"))
                 for a in extra)
    if kind == "mpirun" and ranks > 1 and fits and not theirs and \
            "NDTILE_BIND" not in os.environ:
        env_set["NDTILE_BIND"] = "cores"
    if extra and kind == "none":
        raise _Error("--launcher-args are for a process launcher, but this run "
                     "starts the script directly; add --launcher mpirun or srun")
    # what every rank must see, on every node: the user's NDTILE_* settings
    # and the launcher's own (these win)
    forward = {k: v for k, v in sorted({**os.environ, **_HELD}.items())
               if k.startswith("NDTILE_")}
    forward.update(env_set)

    what, name = target
    prog = [sys.executable] + (["-m", name] if what == "module" else [name])
    prog += list(target_args)

    if kind == "none":
        cmd = prog
    elif kind == "srun":
        cmd = [path, "-n", str(ranks)]
        if nodes:
            cmd += ["--nodes", str(nodes), "--ntasks-per-node", str(per_node)]
        # --export=ALL: srun hands its whole environment (NDTILE_* included)
        # to every task on every node
        cmd += ["--cpus-per-task", str(workers), "--export=ALL"] + extra + prog
    else:
        # A launcher not on PATH (only shown by --dry-run) is taken to be
        # Open MPI, the one ndtile is tested with.
        flavour = _mpi_flavour(path)[0] if os.path.sep in path else "openmpi"
        cmd = [path, "-n", str(ranks)]
        if flavour == "openmpi":
            # One slot per core: more threads than cores on a node (or more
            # ranks than cores here) needs --oversubscribe.
            if per_node * workers > cpus or (not nodes and ranks > local):
                cmd.append("--oversubscribe")
            if _is_root():
                cmd.append("--allow-run-as-root")
            cmd += ["--bind-to", "none"]    # each rank runs its own threads
            if nodes:
                cmd += ["--map-by", f"ppr:{per_node}:node"]
            for k in forward:               # mpirun exports them to remote nodes
                cmd += ["-x", k]
        elif flavour == "mpich":
            for k, v in forward.items():
                cmd += ["-genv", k, v]
            if nodes:
                cmd += ["-ppn", str(per_node)]
        cmd += extra + prog
    return Plan(cmd, env_set, kind, ranks, workers)


# --- running --------------------------------------------------------------

def _terminal_foreground():
    """True when this process's group owns the terminal: a Ctrl-C then
    already reached the child (same group), so SIGINT is not sent twice."""
    try:
        return os.tcgetpgrp(sys.stdin.fileno()) == os.getpgrp()
    except (OSError, ValueError, AttributeError):
        return False


def _signal_name(signum):
    try:
        name = signal.Signals(signum).name
    except ValueError:
        return f"signal {signum}"
    return name + " (Ctrl-C)" if signum == signal.SIGINT else name


def _run(p):
    env = dict(os.environ)
    env.update(_HELD)
    env.update(p.env_set)
    try:
        child = subprocess.Popen(p.argv, env=env)
    except OSError as e:
        raise _Error(f"can't run {p.argv[0]}: {e}")
    got = []                            # the signals that came

    def forward(signum, frame):
        got.append(signum)
        if p.launcher == "srun" and signum == signal.SIGINT:
            # srun takes one Ctrl-C as a request for its status: end the step
            signum = signal.SIGTERM
        elif signum == signal.SIGINT and _terminal_foreground():
            return                      # the terminal sent it to the child too
        try:
            child.send_signal(signum)
        except OSError:                 # pragma: no cover - already gone
            pass

    saved = {}
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        try:
            saved[s] = signal.signal(s, forward)
        except ValueError:              # not the main thread
            pass
    try:
        while True:
            try:
                rc = child.wait()
                break
            except InterruptedError:    # pragma: no cover
                continue
    finally:
        for s, h in saved.items():
            signal.signal(s, h)
    if got and p.launcher != "none":
        # The ranks end quietly on a signal (ndtile._ranks): one message here
        # instead of a traceback from each; the status says which signal.
        print(f"\n{PROG}: {_signal_name(got[0])} stopped the run of {p.ranks} "
              f"rank{'s' if p.ranks != 1 else ''}; every rank was ended",
              file=sys.stderr)
        return 128 + got[0]
    rc = 128 - rc if rc < 0 else rc
    sig = rc - 128
    if p.launcher != "none" and sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP,
                                        signal.SIGKILL):
        # a signal sent to the ranks themselves (MPICH and srun forward
        # Ctrl-C to them; a batch system's kill): the launcher ends with it
        print(f"\n{PROG}: {_signal_name(sig)} stopped a rank; the run of {p.ranks} "
              f"rank{'s' if p.ranks != 1 else ''} ended", file=sys.stderr)
    return rc


# --- --info ---------------------------------------------------------------

def _tile_bytes():
    try:
        from . import _core  # lazy: the launcher runs unbuilt too
    except ImportError:
        _core = None
    fn = getattr(_core, "tile_bytes", None)
    if callable(fn):
        try:
            return int(fn())
        except Exception:
            pass
    text = os.environ.get("NDTILE_TILE_BYTES", "").strip()
    return _setting("NDTILE_TILE_BYTES", text, DEFAULT_TILE_BYTES) if text else DEFAULT_TILE_BYTES


def _setting(name, text, default):
    """text read as the runtime reads the variable (one parser: the
    binding's parse_setting, src/runtime/env.c); default when the package
    is not built."""
    try:
        from . import _core  # lazy: the launcher runs unbuilt too
    except ImportError:
        return default
    return _core.parse_setting(name, text)


def _version():
    try:
        from . import __version__  # lazy: the package version, when the package is built
        return __version__
    except ImportError:
        try:
            from importlib.metadata import version  # lazy: only without a built package
            return version("ndtile")
        except Exception:
            return "unknown"


def info():
    """The `key: value` lines of --info."""
    cores = _local_cores()
    mpirun = _find_mpirun()
    flavour = _mpi_flavour(mpirun)[1] if mpirun else "none"
    srun = _which("srun")
    job = os.environ.get("SLURM_JOB_ID")
    if job:
        slurm = f"yes (SLURM_JOB_ID={job}"
        if os.environ.get("SLURM_NNODES"):
            slurm += f", SLURM_NNODES={os.environ['SLURM_NNODES']}"
        slurm += ")"
    else:
        slurm = "no"
    user = os.environ.get("NDTILE_WORKERS")
    workers = f"{user} (NDTILE_WORKERS)" if user else str(cores)
    rows = [
        ("ndtile", _version()),
        ("python", sys.executable),
        ("cores", cores),
        ("mpi launcher", mpirun or "none"),
        ("mpi flavour", flavour),
        ("srun", srun or "none"),
        ("slurm allocation", slurm),
        ("gpus", _gpu_count()),
        ("tile bytes", _tile_bytes()),
        ("workers per rank", workers),
    ]
    rows += _info_ndtile()
    return [f"{k}: {v}" for k, v in rows]


def _info_ndtile():
    """--info's rows about ndtile itself: its build, settings and devices."""
    try:
        from . import _config, _core  # lazy: the launcher runs unbuilt too
        import ndtile  # lazy: the launcher imports the package only for --info
    except ImportError:                 # pragma: no cover - not built
        return [("build", "ndtile's extension is not built")]
    rows = []
    try:
        b = _core.build_info()
        rows += [("blas", f"{b['blas_config'] or b['blas']} ({b['blas_path'] or '?'})"),
                 ("sleef", b["sleef"]), ("simd", f"{b['simd']} (level {b['simd_level']})"),
                 ("mpi library", b["mpi_library"] or ("built" if b["mpi"] else "not built")),
                 ("cuda", _config._cuda(list(_core.processors())).get("plugin")),
                 ("processors", ", ".join(_core.processors()))]
        rows += [(f"setting {k}", v) for k, v in ndtile.settings().items()]
    except Exception as e:              # a bad setting: say it, go on
        rows.append(("settings", f"error: {e}"))
    devices = getattr(ndtile, "devices", None)
    if callable(devices):
        try:
            rows.append(("devices", devices()))
        except Exception as e:          # pragma: no cover - the plugin's
            rows.append(("devices", f"error: {e}"))
    return rows


# --- entry point ----------------------------------------------------------

def main(argv=None):
    """The `ndtile` command; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    # This process only starts others: a trace of its own (NDTILE_PROFILE)
    # would be empty and, written at exit, overwrite the script's.
    try:
        from . import _core  # lazy: the launcher runs unbuilt too
        _core.trace_stop()
    except (ImportError, AttributeError):   # pragma: no cover - not built
        pass
    _hold_own_settings()
    parser = _parser()
    opts, target, target_args = _split_argv(parser, argv)
    try:
        args = parser.parse_args(opts)
    except SystemExit as e:             # --help (0) or a usage error (2)
        return e.code if isinstance(e.code, int) else 2
    if args.version:
        print(f"{PROG} {_version()}")
        return 0
    if args.info:
        print("\n".join(info()))
        return 0
    if args.module is not None:
        target = ("module", args.module)
    if target is None:
        parser.print_usage(sys.stderr)
        print(f"{PROG}: error: no script given", file=sys.stderr)
        return 2
    if target[0] == "script" and not os.path.isfile(target[1]):
        print(f"{PROG}: can't open file {target[1]!r}: "
              "[Errno 2] No such file or directory", file=sys.stderr)
        return 2
    try:
        p = plan(args, target, target_args)
        if args.dry_run:
            print(p.shell())
            sys.stdout.flush()
            return 0
        if args.verbose:
            print(f"{PROG}: environment: " + (" ".join(
                f"{k}={shlex.quote(v)}" for k, v in p.env_set.items())), file=sys.stderr)
            print(f"{PROG}: command: {shlex.join(p.argv)}", file=sys.stderr)
            sys.stderr.flush()
        return _run(p)
    except _Error as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":      # pragma: no cover
    sys.exit(main())
