"""Differential fuzzer driver: random NumPy programs run with NumPy and with
ndtile over a matrix of runtime settings.

    python tests/fuzz/run.py --seconds 60                 # every setting, 60 s each
    python tests/fuzz/run.py --seconds 60 --settings default,ranks2
    python tests/fuzz/run.py --count 200 --start 1000     # fixed seeds (make test)
    python tests/fuzz/run.py --replay 12345 --settings small_tiles   # print one program

One worker process per setting runs many programs (NDTILE_* variables set,
under mpirun for the rank settings). A mismatch is minimised in the worker
(delta debugging over lines, then smaller shapes) and written to the output
folder as a corpus candidate (tests/fuzz/corpus/ takes the ones worth
keeping). A worker that crashes or hangs is restarted after the seed it was
running, and the seed is reported. Exit status 1 when anything failed.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), 'mpi'))
from launch import mpirun_command  # noqa: E402 (tests/mpi/launch.py)


mpirun = mpirun_command

# each family's flag and Gen's name for it (fuzzlib.FAMILIES)
FOCUS = {'writes': 'writes', 'api': 'api', 'mixes': 'mix', 'idioms': 'idiom',
         'selfref': 'selfref', 'lib': 'lib', 'gaps': 'gaps',
         'edges': 'edges'}


def focus(args):
    """The family the flags name, or None."""
    return next((FOCUS[flag] for flag in FOCUS if getattr(args, flag)), None)


# ------------------------------------------------------------------ worker

def corpus(args):
    """Run the corpus files made for this setting (all of them with
    --settings all); print one line per file, exit 1 on a failure that the
    file does not expect (XFAIL names an open bug)."""
    import glob
    import fuzzlib
    import ndtile
    bad = 0
    for path in sorted(glob.glob(os.path.join(args.corpus, '*.py'))):
        ns = {'__name__': 'corpus'}
        with open(path) as f:
            exec(compile(f.read(), path, 'exec'), ns)
        if args.settings != 'all' and ns.get('SETTING', 'default') != args.settings:
            continue
        lines = [ln for ln in ns['PROGRAM'].strip().splitlines() if ln.strip()]
        xfail = ns.get('XFAIL')
        try:
            # compare at `# check` lines and at the end, as the fuzzer did:
            # comparing after every line would wait for (and so unfuse) work
            fuzzlib.replay(lines, ndtile, every=ns.get('EVERY', False))
            res = 'XPASS' if xfail else 'ok'
        except fuzzlib.Mismatch as m:
            res = 'xfail' if xfail else f'FAIL {m}'
        except Exception as e:      # noqa: BLE001
            res = f'FAIL harness {e!r}'
        if res.startswith('FAIL'):
            bad += 1
        print(f"{os.path.basename(path)}: {res}" + (f" ({xfail})" if xfail else ''), flush=True)
    return 1 if bad else 0


def worker(args):
    import fuzzlib
    import known_open
    env, ranks, big_max = fuzzlib.SETTINGS[args.settings]
    if args.big_max:
        big_max = min(big_max, args.big_max)
    import ndtile
    rank = ndtile.rank() if hasattr(ndtile, 'rank') else 0
    out = args.out
    tag = args.settings + (f'.r{rank}' if ranks > 1 else '')
    prog_path = os.path.join(out, f'{tag}.progress')
    fail_path = os.path.join(out, f'{tag}.failures.jsonl')
    deadline = time.time() + args.seconds if args.seconds else None
    seed = args.start
    done = failed = 0
    t0 = time.time()
    seen = {}           # signature -> count (each minimised once)
    opened = {}         # open bug (known_open) -> count
    while True:
        if args.count is not None and done >= args.count:
            break
        stop = deadline is not None and time.time() >= deadline
        if ranks > 1:
            # every rank must run the same programs: rank 0's clock decides
            from ndtile import _ranks
            stop = _ranks.bcast(stop, 0)
        if stop:
            break
        with open(prog_path, 'w') as f:
            f.write(f'{seed} {done} {failed}\n')
        try:
            lines, m = fuzzlib.run_program(seed, ndtile, big_max, avoid=args.avoid_open,
                                           focus=focus(args), ranks=ranks)
        except Exception as e:      # noqa: BLE001 - the harness itself failed
            import traceback
            lines, m = [], fuzzlib.Mismatch('harness', '?', ''.join(
                traceback.format_exception(e))[-1500:])
        done += 1
        if m is not None and args.allow_open:
            name = known_open.match(str(m), lines)
            if name:
                opened[name] = opened.get(name, 0) + 1
                m = None
        if m is not None:
            failed += 1
            sig = fuzzlib.signature(m)
            seen[sig] = seen.get(sig, 0) + 1
            rec = {'seed': seed, 'setting': args.settings, 'kind': m.kind, 'signature': sig,
                   'message': str(m)[:2000], 'lines': lines}
            if ranks == 1 and not args.no_minimise and seen[sig] <= args.minimise_each:
                try:
                    small = fuzzlib.minimise(lines, ndtile, fuzzlib.signature(m))
                    rec['minimised'] = small
                    with open(os.path.join(out, f'{args.settings}-{seed}.py'), 'w') as f:
                        f.write(fuzzlib.script(small, args.settings, seed, m))
                except Exception as e:      # noqa: BLE001
                    rec['minimise_error'] = repr(e)
            with open(fail_path, 'a') as f:
                f.write(json.dumps(rec) + '\n')
            where = f" rank {rank}" if ranks > 1 else ''
            print(f"[{args.settings}{where}] MISMATCH seed {seed}: {str(m)[:500]}", flush=True)
        seed += 1
    with open(os.path.join(out, f'{tag}.known.json'), 'a') as f:
        f.write(json.dumps({'programs': done, 'failed': failed, 'known': fuzzlib.KNOWN_SEEN,
                            'open': opened, 'signatures': seen,
                            'unchecked': fuzzlib.UNCHECKED}) + '\n')
    if opened and (rank == 0 or ranks == 1):
        print(f"[{args.settings}] open bugs met (known_open.py): {opened}", flush=True)
    with open(prog_path, 'w') as f:
        f.write(f'{seed} {done} {failed} end {time.time() - t0:.1f}\n')


# ------------------------------------------------------------------ driver

def command(setting, extra):
    """(argv, environment) that runs this script with `extra` arguments in
    the setting's environment: NDTILE_* from the setting only, under mpirun
    for the rank settings (argv None when there is no mpirun)."""
    import fuzzlib
    env, ranks, _ = fuzzlib.SETTINGS[setting]
    e = {k: v for k, v in os.environ.items() if not k.startswith('NDTILE_')}
    e.update(env)
    e['NDTILE_FALLBACK'] = 'ignore'
    e.setdefault('OMP_NUM_THREADS', '1')
    e.setdefault('OPENBLAS_NUM_THREADS', '1')
    cmd = [sys.executable, os.path.abspath(__file__)] + list(extra)
    if ranks > 1:
        pre = mpirun(ranks)
        if pre is None:
            return None, e
        e['OMPI_ALLOW_RUN_AS_ROOT'] = '1'
        e['OMPI_ALLOW_RUN_AS_ROOT_CONFIRM'] = '1'
        cmd = pre + cmd
    return cmd, e


def launch(setting, start, args, seconds, count):
    extra = ['--worker', '--settings', setting, '--start', str(start), '--out', args.out]
    if seconds:
        extra += ['--seconds', str(seconds)]
    if count is not None:
        extra += ['--count', str(count)]
    if args.big_max:
        extra += ['--big-max', str(args.big_max)]
    if args.no_minimise:
        extra += ['--no-minimise']
    if args.allow_open:
        extra += ['--allow-open']
    if args.avoid_open:
        extra += ['--avoid-open']
    extra += [f'--{flag}' for flag in FOCUS if getattr(args, flag)]
    extra += ['--minimise-each', str(args.minimise_each)]
    cmd, e = command(setting, extra)
    if cmd is None:
        return None
    log = open(os.path.join(args.out, f'{setting}.log'), 'a')
    return subprocess.Popen(cmd, env=e, stdout=log, stderr=subprocess.STDOUT)


def rss_mib(pid):
    """Resident memory of a process and its children (mpirun's ranks), MiB."""
    total = 0
    todo = [pid]
    while todo:
        q = todo.pop()
        try:
            with open(f'/proc/{q}/status') as f:
                for ln in f:
                    if ln.startswith('VmRSS:'):
                        total += int(ln.split()[1]) // 1024
            with open(f'/proc/{q}/task/{q}/children') as f:
                todo += [int(c) for c in f.read().split()]
        except (OSError, ValueError):
            pass
    return total


def read_progress(out, setting, ranks):
    tag = setting + ('.r0' if ranks > 1 else '')
    try:
        with open(os.path.join(out, f'{tag}.progress')) as f:
            p = f.read().split()
        return int(p[0]), int(p[1]), int(p[2]), len(p) > 3, os.path.getmtime(f.name)
    except (OSError, ValueError, IndexError):
        return None


def drive(args):
    import fuzzlib
    names = list(fuzzlib.SETTINGS) if args.settings == 'all' else args.settings.split(',')
    os.makedirs(args.out, exist_ok=True)
    start = args.start if args.start is not None else int(time.time()) % 1_000_000 * 1000
    print(f"fuzz: settings {','.join(names)}; first seed {start}; output {args.out}",
          flush=True)
    jobs = max(1, args.jobs)
    totals = {}
    crashes = []
    pending = list(names)
    running = {}        # setting -> [proc, seed, done_before, t_start, deadline]

    def start_job(s, seed, before, seconds, count):
        p = launch(s, seed, args, seconds, count)
        if p is None:
            print(f"[{s}] skipped: no mpirun", flush=True)
            totals[s] = (0, 0, 'no mpirun')
            return
        running[s] = [p, seed, before, time.time(), seconds, count]

    idx = {s: i for i, s in enumerate(names)}
    while pending or running:
        while pending and len(running) < jobs:
            s = pending.pop(0)
            base = start + idx[s] * 10_000_000 if not args.same_seeds else start
            start_job(s, base, 0, args.seconds, args.count)
        time.sleep(0.5)
        for s in list(running):
            p, seed0, before, t_start, seconds, count = running[s]
            ranks = fuzzlib.SETTINGS[s][1]
            rc = p.poll()
            prog = read_progress(args.out, s, ranks)
            # (progress older than this process is its predecessor's: a
            # restarted worker has args.hang seconds to write its own)
            hung = prog and not prog[3] and time.time() - max(prog[4], t_start) > args.hang
            rss = rss_mib(p.pid) if rc is None else 0
            if rss > args.max_rss * ranks:
                hung = 'memory'
            if rc is None and not hung:
                continue
            if rc is None:
                p.kill()
                p.wait()
            prog = read_progress(args.out, s, ranks)
            cur, done, failed = (prog[0], prog[1], prog[2]) if prog else (seed0, 0, 0)
            del running[s]
            finished = prog is not None and prog[3] and rc == 0
            if finished:
                tot = totals.get(s, (0, 0, ''))
                totals[s] = (tot[0] + done, tot[1] + failed, tot[2])
                continue
            why = (f'memory > {args.max_rss} MiB' if hung == 'memory' else 'hang') if hung \
                else f'exit status {rc}'
            crashes.append((s, cur, why))
            print(f"[{s}] CRASH ({why}) on seed {cur}", flush=True)
            with open(os.path.join(args.out, f'{s}.crashes'), 'a') as f:
                f.write(f'{cur} {why}\n')
            tot = totals.get(s, (0, 0, ''))
            totals[s] = (tot[0] + done + 1, tot[1] + failed + 1, tot[2])
            left = (t_start + seconds - time.time()) if seconds else None
            cleft = (count - done - 1) if count is not None else None
            if (left is None or left > 2) and (cleft is None or cleft > 0) and \
                    len([c for c in crashes if c[0] == s]) < 20:
                start_job(s, cur + 1, 0, int(left) if left else None, cleft)
    print("fuzz: programs per setting (mismatches and crashes; open = known_open.py)")
    bad = 0
    extra = {}
    for s in names:
        n, f, note = totals.get(s, (0, 0, ''))
        bad += f
        tag = s + ('.r0' if fuzzlib.SETTINGS[s][1] > 1 else '')
        opened, known, sigs, unch = {}, {}, {}, {}
        try:
            with open(os.path.join(args.out, f'{tag}.known.json')) as fh:
                for ln in fh:
                    rec = json.loads(ln)
                    for dst, key in ((opened, 'open'), (known, 'known'), (sigs, 'signatures'),
                                     (unch, 'unchecked')):
                        for k, v in rec.get(key, {}).items():
                            dst[k] = dst.get(k, 0) + v
        except OSError:
            pass
        extra[s] = {'open': opened, 'known': known, 'signatures': sigs, 'unchecked': unch}
        if fuzzlib.SETTINGS[s][1] > 1:
            # a seed that fails on some ranks only: the ranks disagree
            seeds = {}
            for r in range(fuzzlib.SETTINGS[s][1]):
                try:
                    with open(os.path.join(args.out, f'{s}.r{r}.failures.jsonl')) as fh:
                        seeds[r] = {json.loads(ln)['seed'] for ln in fh}
                except OSError:
                    seeds[r] = set()
            split = set.union(*seeds.values()) - set.intersection(*seeds.values())
            if split:
                note += f" ranks disagree on seeds {sorted(split)[:10]}"
                f += len(split)
                bad += len(split)
        print(f"  {s:16s} {n:8d} programs  {f:4d} failed  {sum(opened.values()):4d} open "
              f"{unch.get('inexact input', 0):6d} unchecked lines (inexact input) "
              f"{known.get('zero-sign', 0):5d} zero-sign {note}")
    print(f"  {'total':16s} {sum(t[0] for t in totals.values()):8d} programs  {bad:4d} failed")
    with open(os.path.join(args.out, 'summary.json'), 'a') as f:
        f.write(json.dumps({'start': start, 'seconds': args.seconds, 'count': args.count,
                            'totals': totals, 'crashes': crashes, 'detail': extra}) + '\n')
    return 1 if bad else 0


def replay_one(args):
    import fuzzlib
    import ndtile
    env, ranks, big_max = fuzzlib.SETTINGS[args.settings]
    lines, m = fuzzlib.run_program(args.replay, ndtile, args.big_max or big_max,
                                   avoid=args.avoid_open, focus=focus(args), ranks=ranks)
    print('\n'.join(lines))
    print('#', m if m else 'no mismatch')
    if m and args.minimise:
        print('# minimised:')
        print('\n'.join(fuzzlib.minimise(lines, ndtile, fuzzlib.signature(m))))
    return 1 if m else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--seconds', type=int, default=0, help='seconds per setting')
    ap.add_argument('--count', type=int, default=None, help='programs per setting')
    ap.add_argument('--settings', default='all', help='comma-separated names, or all')
    ap.add_argument('--start', type=int, default=None, help='first seed')
    ap.add_argument('--same-seeds', action='store_true', help='the same seeds in every setting')
    ap.add_argument('--jobs', type=int, default=2, help='settings run at once')
    ap.add_argument('--out', default=os.path.join(HERE, 'out'))
    ap.add_argument('--big-max', type=int, default=0, help='cap on large arrays (elements)')
    ap.add_argument('--hang', type=int, default=180, help='seconds without progress = hang')
    ap.add_argument('--max-rss', type=int, default=6000,
                    help='MiB a worker (with its ranks) may hold before it counts as failed')
    ap.add_argument('--no-minimise', action='store_true')
    ap.add_argument('--minimise-each', type=int, default=2,
                    help='failures minimised per distinct signature')
    ap.add_argument('--replay', type=int, default=None, help='print and run one seed')
    ap.add_argument('--minimise', action='store_true', help='with --replay')
    ap.add_argument('--allow-open', action='store_true',
                    help='count mismatches of known_open.py as open, not failed')
    ap.add_argument('--avoid-open', action='store_true',
                    help="generate around known_open.py's bugs (programs run on past them)")
    ap.add_argument('--api', action='store_true',
                    help='the API steps (Gen.api: accumulate kinds, flat, insert/delete, '
                         'unique, interp, convolve, set functions, ...) take a third of the '
                         'steps')
    ap.add_argument('--mixes', action='store_true',
                    help='the mixed layouts and arithmetic edges (Gen.mix: transposed and '
                         'reshaped operands, chained negative-step views, masks between '
                         'reductions, out= aliasing, integer wraparound, unsafe casts) take '
                         'a third of the steps')
    ap.add_argument('--idioms', action='store_true',
                    help='the idioms of real programs at default sizes (Gen.idiom: rows '
                         'filled from reductions, in-place chains at tile boundaries, '
                         'ufunc.at/put/putmask on views, out= of reductions and matmul, '
                         'sorts in place on views, roll/flip written back, fancy writes, '
                         'reshapes written through, astype aliasing) take a third of the steps')
    ap.add_argument('--selfref', action='store_true',
                    help='writes of an array from itself (Gen.selfref: 1-d assignments from '
                         'overlapping views of other steps, rows and columns broadcast from the '
                         'array, ix_ and nonzero keys, inverse permutations, narrow index '
                         'types, reductions over transposed views, in-place through aliases) '
                         'take a third of the steps')
    ap.add_argument('--lib', action='store_true',
                    help='the library functions and method forms of session 30 (Gen.lib: '
                         'index grids and triangle keys, fill_diagonal, average/cov/ptp/diff '
                         'prepend/cumulative_sum, nan_to_num, packbits, piecewise, '
                         'fromfunction, split and stack forms, view(dtype), order=\'F\' '
                         'reshapes and copies, method forms) take a third of the steps')
    ap.add_argument('--writes', action='store_true',
                    help='the write patterns (fills, overlaps, view writes) take a third '
                         'of the steps')
    ap.add_argument('--corpus', default=None, help='run the corpus files in this folder')
    ap.add_argument('--worker', action='store_true', help=argparse.SUPPRESS)
    ap.add_argument('--gaps', action='store_true',
                    help='the names and forms no other family makes (Gen.gaps, session 31: '
                         'array API aliases, as_strided windows, dtype queries, stable= sorts, '
                         'partition at several kth, set functions of unique inputs, einsum '
                         'optimize=, window functions, polydiv, take/choose out= their input) '
                         'take a third of the steps')
    ap.add_argument('--edges', action='store_true',
                    help='the shapes of session 36 (Gen.edges: chains of views written '
                         'through, NEP 50 scalars at a type\'s edges, reductions with where=/'
                         'initial=/keepdims=/out= together, 0-d and empty arrays, casts of '
                         'every dtype pair, scans with out=, in-place sorts of views, '
                         'overlapping in-place work and integer edges at default sizes, '
                         'concatenate/stack out=) take a third of the steps')
    args = ap.parse_args()
    if sum(getattr(args, flag) for flag in FOCUS) > 1:
        ap.error('one of --' + ', --'.join(FOCUS) + ' at a time')
    if args.worker:
        return worker(args)
    if args.corpus:
        return corpus(args)
    if args.replay is not None:
        if args.settings == 'all':
            args.settings = 'default'
        return replay_one(args)
    if not args.seconds and args.count is None:
        args.seconds = 60
    return drive(args)


if __name__ == '__main__':
    sys.exit(main())
