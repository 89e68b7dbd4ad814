"""Find the first line of a fuzz program whose ndtile result differs from
NumPy's at all (bitwise), and how much (ULP for floats).

    python tests/fuzz/triage.py --seed 167719683 --settings small_tiles
    python tests/fuzz/triage.py --file tests/fuzz/out/small_tiles-167719683.py

Runs in the setting's environment (a child process with its NDTILE_*
variables, as the fuzzer's worker does). Every name is compared after every
line, so deferred work is waited for line by line: a difference that needs
fusion across lines to show may not show here (say so in the report).
NaNs compare equal whatever their bits (deviation 7 of docs/fuzzing.md).
"""
import argparse
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


def ulps(a, b):
    """Largest distance in units in the last place between two float arrays
    of one dtype (NaN against NaN counts 0, NaN against a number inf)."""
    import fuzzlib
    if a.dtype.kind == 'c':
        return max(ulps(a.real, b.real), ulps(a.imag, b.imag))
    if a.size == 0:
        return 0
    d = float(fuzzlib.ulp_distance(a, b).max())
    return d if d == float('inf') else int(d)


def diff_names(ns_np, ns_nd, nd):
    """Names whose ndtile value differs from NumPy's in any bit (NaN bits
    aside): [(name, description)]."""
    import numpy
    import fuzzlib
    out = []
    for k in fuzzlib.names_of(ns_np):
        x, y = ns_np[k], ns_nd.get(k)
        if not isinstance(x, (numpy.ndarray, numpy.generic, int, float, complex, bool)):
            continue
        b = numpy.asarray(x)
        try:
            a = fuzzlib.host_copy(y)
        except Exception as e:      # noqa: BLE001
            out.append((k, f'ndtile value unreadable: {e!r}'))
            continue
        if a.dtype != b.dtype or a.shape != b.shape:
            out.append((k, f'NumPy {b.dtype}{b.shape}, ndtile {a.dtype}{a.shape}'))
            continue
        if a.tobytes() == b.tobytes():
            continue
        if b.dtype.kind in 'fc':
            same = (a == b) | (numpy.isnan(a) & numpy.isnan(b)) if b.dtype.kind == 'f' else \
                ((a.real == b.real) | (numpy.isnan(a.real) & numpy.isnan(b.real))) & \
                ((a.imag == b.imag) | (numpy.isnan(a.imag) & numpy.isnan(b.imag)))
            zs = numpy.signbit(a.real if b.dtype.kind == 'c' else a) != \
                numpy.signbit(b.real if b.dtype.kind == 'c' else b)
            if same.all():
                if (same & zs & (b == 0)).any():
                    out.append((k, 'signed zeros only'))
                continue
            bad = numpy.argwhere(~same) if a.ndim else [()]
            w = tuple(int(i) for i in bad[0]) if len(bad) else ()
            out.append((k, f'{len(bad)} of {b.size} differ, max {ulps(a, b)} ULP, first at {w}: '
                           f'NumPy {b[w]!r} ndtile {a[w]!r}'))
        else:
            bad = numpy.argwhere(a != b) if a.ndim else [()]
            w = tuple(int(i) for i in bad[0]) if len(bad) else ()
            out.append((k, f'{len(bad)} of {b.size} differ, first at {w}: NumPy {b[w]!r} '
                           f'ndtile {a[w]!r}'))
    return out


def triage(lines, nd, show_all=False):
    import fuzzlib
    ns_np, ns_nd = fuzzlib.namespaces(nd)
    seen = {}
    first = None
    for i, line in enumerate(lines):
        try:
            err = fuzzlib.run_line(line, ns_np, ns_nd, nd)
        except fuzzlib.Mismatch as m:
            print(f'{i:3d} MISMATCH {m}')
            break
        fuzzlib.after_line(line, ns_np, ns_nd, nd, err)
        d = diff_names(ns_np, ns_nd, nd)
        new = [(k, s) for k, s in d if seen.get(k) != s]
        seen = dict(d)
        mark = '  '
        if new and first is None:
            first = i
            mark = '=>'
        print(f'{mark}{i:3d} {line}' + (f'   [raised {type(err).__name__}]' if err else ''))
        if new and (show_all or i == first):
            for k, s in new:
                print(f'        {k}: {s}')
    return first


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--seed', type=int)
    ap.add_argument('--file')
    ap.add_argument('--settings', default=None)
    ap.add_argument('--all', action='store_true', help='show every new difference')
    ap.add_argument('--focus', default=None,
                    help="the seed's family (fuzzlib.FAMILIES: writes, api, mix, ...)")
    ap.add_argument('--child', action='store_true', help=argparse.SUPPRESS)
    args = ap.parse_args()
    import fuzzlib
    if args.file:
        ns = {'__name__': 'corpus'}
        with open(args.file) as f:
            exec(compile(f.read(), args.file, 'exec'), ns)
        setting = args.settings or ns.get('SETTING', 'default')
    else:
        setting = args.settings or 'default'
    if not args.child:
        import subprocess
        env, ranks, _ = fuzzlib.SETTINGS[setting]
        e = {k: v for k, v in os.environ.items() if not k.startswith('NDTILE_')}
        e.update(env)
        e['NDTILE_FALLBACK'] = 'ignore'
        argv = [sys.executable, os.path.abspath(__file__), '--child', '--settings', setting]
        argv += ['--file', args.file] if args.file else ['--seed', str(args.seed)]
        if args.all:
            argv.append('--all')
        if args.focus:
            argv += ['--focus', args.focus]
        return subprocess.call(argv, env=e)
    import ndtile
    if args.file:
        lines = [ln for ln in ns['PROGRAM'].strip().splitlines() if ln.strip()]
    else:
        _, ranks, big = fuzzlib.SETTINGS[setting]
        lines, m = fuzzlib.run_program(args.seed, ndtile, big, focus=args.focus, ranks=ranks)
        print('# fuzzer:', m if m else 'no mismatch')
    first = triage(lines, ndtile, args.all)
    print('# first bitwise difference at line', first)
    return 0


if __name__ == '__main__':
    sys.exit(main())
