"""The mpirun command line for n ranks on this machine, shared by the MPI
tests and the fuzzer: Open MPI on 2 cores needs --oversubscribe, and as root
--allow-run-as-root; MPICH needs neither."""
import os
import shutil
import subprocess


def mpirun_command(n):
    """[mpirun, -n, n, ...], or None when there is no mpirun/mpiexec."""
    exe = shutil.which('mpirun') or shutil.which('mpiexec')
    if exe is None:
        return None
    out = subprocess.run([exe, '--version'], capture_output=True, text=True).stdout
    cmd = [exe, '-n', str(n)]
    if 'Open MPI' in out or 'OpenRTE' in out:
        cmd += ['--oversubscribe', '--bind-to', 'none']
        if os.geteuid() == 0:
            cmd += ['--allow-run-as-root']
    return cmd
