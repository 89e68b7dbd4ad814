#!/usr/bin/env python3
"""Runs another project's pytest suite against ndtile, side by side with NumPy.

    python3 tools/project_tests.py SRC [SRC ...] [--out DIR] [--timeout S]
                                   [--keep-addopts] [--numpy-random]
                                   [--numpy-version] [-- PYTEST ARGS]

SRC is a checkout of a pure-Python project built on NumPy (its package and
its tests). The tool copies it twice under DIR (default
/tmp/ndtile-project-tests/<name>): `numpy/` unchanged, `ndtile/` with the
numpy imports of every .py file (the package, its tests, conftest.py)
rewritten by tools/ndtile_imports.py (`import numpy as np` -> `import
ndtile as np`, `import numpy` -> `import ndtile as numpy`, `from numpy.testing
import` -> `from ndtile.testing import`, and every `numpy.sub` that ndtile
has; NumPy's private modules stay NumPy's). It runs pytest in each copy
(PYTHONPATH the copy, or its src/ for a src layout, so the copy is the
package imported, not an installed one), reads the outcome of every test
from pytest's junit XML, and prints per project the passed / failed / errors
/ skipped of both runs and the tests that fail only under ndtile, each with
its first error line; DIR/<name>/report.json and ndtile-only.txt keep them.
A test that fails under NumPy as well is not counted against ndtile.

Docstring examples keep their `>>> import numpy as np` (NumPy's, in both
runs, under --doctest-modules).

PYTEST ARGS (after --) go to both runs: test paths (default: pytest's own
discovery from the project's configuration), `-k`, `-x`, `-n 2`. The
project's `addopts` (coverage, benchmark plugins that are not installed)
are dropped unless --keep-addopts. --timeout caps each run (seconds).
ndtile's random streams are its own (docs/guide/deviations.md 15), so a
suite seeded with `np.random.seed` tests other numbers under ndtile, and a
check near its tolerance may fail on them alone; --numpy-random makes the
functions of ndtile.random (seed, rand, randn, normal, ...: NumPy's global
RandomState) draw NumPy's numbers in the ndtile run (tools/run_scripts.py's
patch; `default_rng` and the classes stay ndtile's, for a project's
isinstance checks and annotations). `np.__version__` under ndtile is
ndtile's (docs/guide/deviations.md 21), so a project's NumPy version gates
(`NumpyVersion(np.__version__) < "2.0.0"`: autograd wraps np.msort, pint
calls np.trapz, einops and pint skip tests) take the wrong branch;
--numpy-version rewrites `ALIAS.__version__` in the ndtile copy's code
(not its strings), for every name a file binds to ndtile (`import ndtile
as np`), to `__import__("numpy").__version__`, NumPy's.

An ndtile-only failure is one of: a wrong result (the worst: find it and
fix it), an exception NumPy would not raise, a missing function or keyword,
or a test of NumPy's own identity and internals (`type(x) is
numpy.ndarray`, NumPy's scalar types, `np.core` helpers, C-level buffers):
those are deviations (docs/guide/deviations.md) or not ours.
"""
import argparse
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tokenize
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ndtile_imports  # noqa: E402  (tools/ndtile_imports.py)

_SKIP_DIRS = {'.git', '.hg', '.tox', '.nox', '.venv', 'venv', 'build', 'dist',
              '__pycache__', '.pytest_cache', '.mypy_cache', 'node_modules'}


_ALIAS = re.compile(r'^\s*import ndtile as (\w+)', re.M)


def numpy_version(text):
    """text with `ALIAS.__version__` of each name bound to ndtile
    (`import ndtile as ALIAS`, and `ndtile`) reading NumPy's version. Code
    only: strings (an f-string's `{np.__version__}` too, where the quotes
    would clash) are left as they are."""
    aliases = set(_ALIAS.findall(text)) | {'ndtile'}
    try:
        toks = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError):
        return text
    spans = []     # ((row, col) of the alias, (row, col) past __version__)
    for i in range(len(toks) - 2):
        a, dot, v = toks[i], toks[i + 1], toks[i + 2]
        if a.type == tokenize.NAME and a.string in aliases and dot.string == '.' and \
                v.type == tokenize.NAME and v.string == '__version__' and \
                not (i and toks[i - 1].string == '.'):
            spans.append((a.start, v.end))
    if not spans:
        return text
    lines = text.splitlines(keepends=True)
    for (r0, c0), (r1, c1) in reversed(spans):
        if r0 != r1:
            continue
        ln = lines[r0 - 1]
        lines[r0 - 1] = ln[:c0] + '__import__("numpy").__version__' + ln[c1:]
    return ''.join(lines)


def copy_project(src, dst, to_ndtile, version_gates=False):
    """src copied to dst; with to_ndtile its .py files rewritten (with
    version_gates their ndtile.__version__ reads as NumPy's). Returns the
    number of files whose imports changed."""
    if os.path.exists(dst):
        shutil.rmtree(dst)
    shutil.copytree(src, dst, symlinks=True,
                    ignore=lambda d, names: [n for n in names if n in _SKIP_DIRS])
    changed = 0
    if not to_ndtile:
        return changed
    for root, _, files in os.walk(dst):
        for f in files:
            if not f.endswith('.py'):
                continue
            path = os.path.join(root, f)
            if os.path.islink(path):
                continue
            try:
                with open(path, encoding='utf-8') as fh:
                    text = fh.read()
            except UnicodeDecodeError:
                continue
            new = ndtile_imports.rewrite(text)
            if version_gates:
                new = numpy_version(new)
            if new != text:
                changed += 1
                with open(path, 'w', encoding='utf-8') as fh:
                    fh.write(new)
    return changed


def import_root(copy):
    """The folder to put on sys.path: src/ for a src layout."""
    src = os.path.join(copy, 'src')
    if os.path.isdir(src) and any(
            os.path.exists(os.path.join(src, d, '__init__.py')) for d in os.listdir(src)):
        return src
    return copy


def _first_line(text):
    for ln in (text or '').splitlines():
        if ln.strip():
            return ln.strip()[:300]
    return ''


def read_junit(path):
    """{test id: (outcome, first error line)} from pytest's junit XML."""
    out = {}
    for case in ET.parse(path).getroot().iter('testcase'):
        cls, name = case.get('classname', ''), case.get('name', '')
        tid = f'{cls}::{name}' if cls else name
        outcome, why = 'passed', ''
        for child in case:
            if child.tag in ('failure', 'error'):
                # pytest's message is the crash line ('TypeError: ...',
                # 'assert ...'); the text's 'E   ' lines when it has none
                # (a module that failed to import: 'collection failure', the
                # text's last 'E   ' line says why)
                msg = child.get('message') or ''
                es = [ln[1:].strip() for ln in (child.text or '').splitlines()
                      if ln.startswith('E ') and ln[1:].strip()]
                if not msg.strip() or msg == 'collection failure':
                    msg = (es[-1] if msg else es[0]) if es else child.text
                # an error in a test's teardown after a failure is a second
                # element: the first says what went wrong
                if outcome not in ('failed', 'error'):
                    outcome, why = ('failed' if child.tag == 'failure' else 'error',
                                    _first_line(msg))
            elif child.tag == 'skipped' and outcome == 'passed':
                outcome = 'xfailed' if child.get('type') == 'pytest.xfail' else 'skipped'
        out[tid] = (outcome, why)
    return out


# a pytest plugin (-p) of the ndtile run with --numpy-random
_RANDOM_PLUGIN = '''import sys
sys.path.insert(0, {tools!r})
import numpy
import ndtile
import run_scripts
run_scripts._patch_random(numpy, ndtile, classes=False)
'''


def run_pytest(copy, extra, timeout, keep_addopts, plugin=None):
    xml = os.path.join(copy, '..', os.path.basename(copy) + '.junit.xml')
    xml = os.path.abspath(xml)
    if os.path.exists(xml):
        os.remove(xml)
    cmd = [sys.executable, '-m', 'pytest', '-q', '-p', 'no:cacheprovider',
           '--rootdir', copy, '--junitxml', xml, '-o', 'junit_family=xunit1',
           '-W', 'ignore::DeprecationWarning']
    if not keep_addopts:
        cmd += ['-o', 'addopts=', '-o', 'required_plugins=']
    env = dict(os.environ, COLUMNS='400', PYTHONDONTWRITEBYTECODE='1')
    root = import_root(copy)
    if plugin:
        # the plugin module sits outside the copy (in DIR/<name>/plugins)
        root += os.pathsep + os.path.join(os.path.dirname(os.path.abspath(copy)), 'plugins')
        cmd += ['-p', plugin]
    env['PYTHONPATH'] = root + (os.pathsep + env['PYTHONPATH'] if env.get('PYTHONPATH') else '')
    try:
        p = subprocess.run(cmd + extra, capture_output=True, text=True, cwd=copy,
                           env=env, timeout=timeout)
        rc, tail = p.returncode, (p.stdout + p.stderr).strip().splitlines()
    except subprocess.TimeoutExpired as e:
        rc = 'timeout'
        tail = ((e.stdout or b'').decode(errors='replace') if isinstance(e.stdout, bytes)
                else (e.stdout or '')).strip().splitlines()
    tests = read_junit(xml) if os.path.exists(xml) else {}
    with open(os.path.join(copy, '..', os.path.basename(copy) + '.log'), 'w') as f:
        f.write('\n'.join(tail) + '\n')
    return rc, tests, tail[-15:]


def _counts(tests):
    c = {}
    for outcome, _ in tests.values():
        c[outcome] = c.get(outcome, 0) + 1
    return c


def _fmt(c):
    return '{}/{}/{}/{}'.format(c.get('passed', 0), c.get('failed', 0),
                                c.get('error', 0), c.get('skipped', 0) + c.get('xfailed', 0))


def run_project(src, out, extra, timeout, keep_addopts, numpy_random=False,
                numpy_version=False):
    name = os.path.basename(os.path.abspath(src).rstrip('/'))
    base = os.path.join(out, name)
    os.makedirs(base, exist_ok=True)
    plugin = None
    if numpy_random:
        plugin = '_nt_numpy_random'
        os.makedirs(os.path.join(base, 'plugins'), exist_ok=True)
        with open(os.path.join(base, 'plugins', plugin + '.py'), 'w') as f:
            f.write(_RANDOM_PLUGIN.format(tools=os.path.dirname(os.path.abspath(__file__))))
    res = {}
    for mode in ('numpy', 'ndtile'):
        copy = os.path.join(base, mode)
        changed = copy_project(src, copy, mode == 'ndtile', numpy_version)
        rc, tests, tail = run_pytest(copy, extra, timeout, keep_addopts,
                                     plugin if mode == 'ndtile' else None)
        res[mode] = {'rc': rc, 'tests': tests, 'tail': tail, 'rewritten': changed}
    np_tests, nt_tests = res['numpy']['tests'], res['ndtile']['tests']
    bad = ('failed', 'error')
    only = {t: why for t, (o, why) in sorted(nt_tests.items())
            if o in bad and np_tests.get(t, ('missing',))[0] not in bad}
    report = {
        'project': name, 'src': os.path.abspath(src), 'pytest_args': extra,
        'numpy_random': numpy_random, 'numpy_version': numpy_version,
        'numpy': {'rc': res['numpy']['rc'], 'counts': _counts(np_tests)},
        'ndtile': {'rc': res['ndtile']['rc'], 'counts': _counts(nt_tests),
                   'files_rewritten': res['ndtile']['rewritten']},
        'ndtile_only': only,
        # collected under NumPy, not under ndtile (a module that failed to import)
        'not_collected': sorted(set(np_tests) - set(nt_tests)),
    }
    with open(os.path.join(base, 'report.json'), 'w') as f:
        json.dump(report, f, indent=1)
    with open(os.path.join(base, 'ndtile-only.txt'), 'w') as f:
        f.write(''.join(f'{t}\n    {why}\n' for t, why in only.items()))
    return report, res


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('src', nargs='+', help="checkouts of projects (each with its tests)")
    ap.add_argument('--out', default='/tmp/ndtile-project-tests')
    ap.add_argument('--timeout', type=float, default=1800, help='seconds per pytest run')
    ap.add_argument('--keep-addopts', action='store_true',
                    help="keep the project's pytest addopts")
    ap.add_argument('--numpy-random', action='store_true',
                    help="ndtile.random's functions draw NumPy's numbers")
    ap.add_argument('--numpy-version', action='store_true',
                    help="np.__version__ reads NumPy's version in the ndtile copy "
                         "(a project's NumPy version gates)")
    argv = sys.argv[1:]
    cut = argv.index('--') if '--' in argv else len(argv)
    args, extra = ap.parse_args(argv[:cut]), argv[cut + 1:]   # (after --: pytest's)
    os.makedirs(args.out, exist_ok=True)
    print(f"{'project':24s} {'numpy pass/fail/err/skip':>26s} "
          f"{'ndtile pass/fail/err/skip':>26s} {'ndtile only':>11s}", flush=True)
    for src in args.src:
        rep, res = run_project(src, args.out, extra, args.timeout, args.keep_addopts,
                               args.numpy_random, args.numpy_version)
        print(f"{rep['project']:24s} {_fmt(rep['numpy']['counts']):>26s} "
              f"{_fmt(rep['ndtile']['counts']):>26s} {len(rep['ndtile_only']):>11d}", flush=True)
        for mode in ('numpy', 'ndtile'):
            rc = res[mode]['rc']
            if rc not in (0, 1):    # 2..5: interrupted, usage, no tests; <0: a crash
                print(f'    {mode}: pytest exited with {rc}')
                print('\n'.join('      ' + ln for ln in res[mode]['tail']))
        for t, why in rep['ndtile_only'].items():
            print(f'    {t}\n        {why}')
        if rep['not_collected']:
            print(f"    {len(rep['not_collected'])} tests collected under NumPy only "
                  f"(e.g. {rep['not_collected'][0]})")
    print(f'reports: {args.out}/<project>/report.json, ndtile-only.txt')


if __name__ == '__main__':
    main()
