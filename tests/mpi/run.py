"""The multi-rank tests (make test-mpi): the same programs on 1, 2, 3 and 4
ranks must give the bits of a plain single-process run, and a failure on
one rank must stop all of them.

    python tests/mpi/run.py [--ranks 1,2,3,4] [--pytest-ranks 2]

Needs mpirun (Open MPI or MPICH). Ranks share this machine's cores, so each
rank gets one worker.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

import numpy

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PY = sys.executable
failures = []


def mpirun(n):
    exe = shutil.which('mpirun') or shutil.which('mpiexec')
    if exe is None:
        sys.exit("test-mpi: no mpirun/mpiexec on PATH (tools/setup.sh installs Open MPI)")
    out = subprocess.run([exe, '--version'], capture_output=True, text=True).stdout
    cmd = [exe, '-n', str(n)]
    if 'Open MPI' in out or 'OpenRTE' in out:
        cmd += ['--oversubscribe', '--bind-to', 'none']
        if os.geteuid() == 0:
            cmd += ['--allow-run-as-root']
    return cmd


def run(cmd, timeout, env=None):
    e = dict(os.environ, NDTILE_WORKERS='1')
    e.update(env or {})
    t0 = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=e)
    return p, time.time() - t0


def check(name, ok, detail=''):
    print(f"{'ok  ' if ok else 'FAIL'} {name}" + (f": {detail}" if detail and not ok else ''))
    if not ok:
        failures.append(name)


def same_bits(f1, f2):
    a, b = numpy.load(f1), numpy.load(f2)
    if sorted(a.files) != sorted(b.files):
        return f"different result names: {set(a.files) ^ set(b.files)}"
    for k in a.files:
        x, y = a[k], b[k]
        if x.dtype != y.dtype or x.shape != y.shape or x.tobytes() != y.tobytes():
            return f"{k} differs"
    return ''


def bits_test(label, cmd_args, ranks, tmp):
    """The program writes OUT; every rank count must write the same bits."""
    ext = '.npz' if label == 'python' else '.txt'
    ref = os.path.join(tmp, f'{label}-plain{ext}')
    quiet = {'NDTILE_FALLBACK': 'ignore'}
    p, dt = run(cmd_args + [ref], 600, quiet)
    check(f"{label}: plain process ({dt:.1f} s)", p.returncode == 0, p.stderr[-3000:])
    if p.returncode:
        return
    for n in ranks:
        path = os.path.join(tmp, f'{label}-{n}{ext}')
        p, dt = run(mpirun(n) + cmd_args + [path], 900, quiet)
        ok = p.returncode == 0
        why = p.stderr[-3000:] + p.stdout[-2000:]
        if ok:
            why = same_bits(ref, path) if label != 'c' else (
                '' if open(ref, 'rb').read() == open(path, 'rb').read() else 'hashes differ')
            ok = not why
        check(f"{label}: {n} ranks bitwise equal to the plain run ({dt:.1f} s)", ok, why)


def c_suites(build, ranks):
    """The C test programs check their own values; on many ranks they must
    pass as they do on one."""
    for name in ('test_core', 'test_scan', 'test_sort', 'test_random', 'test_matmul'):
        prog = os.path.join(build, 'tests', 'c', name)
        for n in ranks:
            if n == 1:
                continue
            p, dt = run(mpirun(n) + [prog], 900)
            ok = p.returncode == 0 and ' 0 failed' in p.stdout
            check(f"c suite {name} on {n} ranks ({dt:.1f} s)", ok,
                  p.stdout[-1500:] + p.stderr[-1500:])


def pytest_suite(ranks):
    """The Python suite on several ranks: every rank runs every test."""
    for n in ranks:
        if n == 1:
            continue
        p, dt = run(mpirun(n) + [PY, '-m', 'pytest', os.path.join(ROOT, 'tests', 'python'),
                                 '-q', '-x', '-p', 'no:cacheprovider', '--color=no',
                                 '--ignore', os.path.join(ROOT, 'tests', 'python',
                                                          'test_launcher.py')], 1800)
        tail = p.stdout.strip().splitlines()[-1:] if p.stdout.strip() else ['']
        check(f"python suite on {n} ranks ({dt:.0f} s): {tail[0]}", p.returncode == 0,
              p.stdout[-3000:] + p.stderr[-2000:])


def xray_report(tmp, ranks):
    """The main job through the launcher: the same report on several ranks
    (all but the timing lines)."""
    def report(n):
        out = os.path.join(tmp, f'xray-{n}')
        p, dt = run([PY, '-m', 'ndtile', '--ranks', str(n), '--cpus', '2',
                     os.path.join(ROOT, 'examples', 'xray', 'run.py'), '--frames', '24',
                     '--shape', '192x192', '--output', out], 600)
        path = os.path.join(out, 'report.txt')
        if p.returncode or not os.path.exists(path):
            return None, dt, p.stdout[-1500:] + p.stderr[-1500:]
        lines = [ln for ln in open(path).read().splitlines()
                 if not any(w in ln for w in ('frames/s', 'dark calibration'))]
        return lines, dt, ''
    ref, dt, err = report(1)
    check(f"x-ray: 1 rank through the launcher ({dt:.1f} s)", ref is not None, err)
    for n in ranks:
        if n == 1 or ref is None:
            continue
        got, dt, err = report(n)
        check(f"x-ray: the same report on {n} ranks ({dt:.1f} s)", got == ref,
              err or '\n'.join(set(got) ^ set(ref)))


def fail_stop(tmp):
    """A failure on one rank (an exception, a kill): every rank stops within
    seconds, with a non-zero exit and the message."""
    cases = [('an exception on one rank', 1, "raise RuntimeError('boom on rank one')",
              'boom on rank one'),
             ('a rank killed by a signal', 2, "os.kill(os.getpid(), signal.SIGKILL)", '')]
    for what, rank, fail, message in cases:
        script = os.path.join(tmp, f'fail{rank}.py')
        with open(script, 'w') as f:
            f.write("import os, signal\nimport ndtile as np\n"
                    "a = np.ones((400, 400))\n"
                    f"if np.rank() == {rank}:\n"
                    f"    {fail}\n"
                    "for _ in range(1000):\n"
                    "    a = a + float(a.sum())\n"
                    "print('not reached')\n")
        p, dt = run(mpirun(3) + [PY, script], 120)
        out = p.stdout + p.stderr
        check(f"fail-stop: {what} stops all ({dt:.1f} s)",
              p.returncode != 0 and message in out and 'not reached' not in out and dt < 60,
              f"rc={p.returncode} {out[-2000:]}")


def output_once(tmp):
    """print shows once; numpy.asarray works on every rank; files are
    written once."""
    script = os.path.join(tmp, 'io.py')
    target = os.path.join(tmp, 'saved.npy')
    with open(script, 'w') as f:
        f.write("import sys, numpy\nimport ndtile as np\n"
                "a = np.arange(5000.0).reshape(50, 100)\n"
                "print(a[1:3, :4])\n"
                "h = numpy.asarray(a)\n"
                "assert h.shape == (50, 100) and h[49, 99] == 4999.0, 'asarray'\n"
                f"np.save({target!r}, a * 2)\n"
                f"b = np.load({target!r})\n"
                "assert float((b - 2 * a).max()) == 0.0\n"
                "sys.stderr.write(f'rank {np.rank()} done\\n')\n")
    p, dt = run(mpirun(3) + [PY, script], 120)
    printed = p.stdout.count('[[100.')
    check("output: print shows once, asarray on every rank, save writes once",
          p.returncode == 0 and printed == 1 and p.stderr.count(' done') == 3
          and os.path.exists(target), f"rc={p.returncode} printed={printed} {p.stderr[-2000:]}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--ranks', default='1,2,3,4')
    ap.add_argument('--build', default=os.path.join(ROOT, 'build'))
    ap.add_argument('--pytest-ranks', default='2,3,4',
                    help="rank counts for the whole Python suite ('' skips it)")
    args = ap.parse_args()
    ranks = [int(x) for x in args.ranks.split(',')]
    tmp = tempfile.mkdtemp(prefix='ndtile-mpi-')
    try:
        bits_test('python', [PY, os.path.join(HERE, 'ops.py')], ranks, tmp)
        cprog = os.path.join(args.build, 'tests', 'c', 'test_mpi_ops')
        if os.path.exists(cprog):
            bits_test('c', [cprog], ranks, tmp)
        else:
            check("c: tests/c/test_mpi_ops is built", False, cprog)
        output_once(tmp)
        fail_stop(tmp)
        xray_report(tmp, [n for n in ranks if n in (1, 3)])
        c_suites(args.build, ranks)
        if args.pytest_ranks:
            pytest_suite([int(x) for x in args.pytest_ranks.split(',')])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"test-mpi: {len(failures)} failed" if failures else "test-mpi: all passed")
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
