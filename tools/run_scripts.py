#!/usr/bin/env python3
"""Runs real, public NumPy programs under NumPy and under ndtile, and compares.

    python3 tools/run_scripts.py SRC_DIR [--only PATTERN] [--timeout S]
                                 [--out DIR] [--native-random] [-v]

SRC_DIR holds checkouts (never part of this repository) of any of:
  numpy-100             rougier/numpy-100: source/exercises100.ktx, each
                        answer ("< aN") one script, and all of them one
                        notebook ("all")
  numpy-tutorials       numpy/numpy-tutorials: content/*.md, MyST notebooks,
                        the code cells of each one script (run in content/)
  from-python-to-numpy  rougier/from-python-to-numpy: code/*.py
  (any)                 the .py files of code/, examples/, solutions/,
                        scripts/ folders (rougier/numpy-tutorial scripts/,
                        scientific-python-lectures' examples)
  (any)                 MyST notebooks (.md with {code-cell}s:
                        scientific-python-lectures), `>>>` examples of .rst
                        files (numpy/numpy doc/source/user)
  (any)                 Jupyter notebooks (.ipynb), their code cells:
                        jakevdp/PythonDataScienceHandbook notebooks/02.*
                        (the NumPy chapter), scipy/scipy-cookbook ipython/
                        (the notebooks that import only numpy and
                        matplotlib). A cell that is not Python 3 is a
                        pasted `>>>` session (one cell a statement) or
                        Python 2 (converted with lib2to3 where this Python
                        has it)
  (any)                 `>>>` examples of .rst files written out from NumPy's
                        own docstrings (one file a function, with
                        `inspect.getdoc`; docs/contributing.md lists the
                        modules run)
  (any)                 other .py modules that import numpy and carry `>>>`
                        examples in their docstrings (TheAlgorithms/Python's
                        numpy files): the module without its
                        `if __name__ == "__main__":` part one cell, then
                        each example one cell (a module that needs what is
                        missing is skipped whole)
(a folder is recognised by the files it holds, whatever its name). Only
what needs NumPy alone (and matplotlib) is meant to run: give SRC folders
that hold such programs (a notebook's cells that import a missing package
are dropped, and what uses their names raises alike in both processes;
a `same` line says how many cells raised in both).

Each script runs twice, in separate processes: unchanged under NumPy, and
with its numpy imports rewritten to ndtile (`import numpy as np` ->
`import ndtile as np`, `from numpy.x import` -> `from ndtile.x import`).
Both processes print the same output to a captured stdout; after the script
(or at its exception) the worker saves the stdout, the exception and the
values of the top-level names (ndtile arrays as NumPy arrays). Then:

  same     stdout equal (numbers within a float tolerance) and every
           top-level value equal (floats within rtol 1e-6, NaNs equal)
  differs  something differs (the first difference is shown)
  raised   ndtile raised where NumPy did not (or a different exception)
  timeout  ndtile ran past the time limit and NumPy did not
  skip     needs network, a package that is not installed, IPython
           magics, or NumPy failed itself

Random numbers: ndtile's own streams differ from NumPy's by design
(docs/guide/deviations.md 15), so by default the ndtile process draws
through NumPy: every `ndtile.random` function, `RandomState` and
`default_rng` is replaced by NumPy's, its results moved into ndtile arrays
(and in-place shuffles written back), and both processes seed NumPy's
global state with the same number first. This compares everything but the
generator itself. --native-random keeps ndtile's generators: values that
depend on draws then differ, and only `raised` / `timeout` mean much.

What differs from run to run is not compared: object addresses (` at
0x...`), timings, a displayed value that is an address or the time
(`np.datetime64('now')`); the script's `id()` numbers objects in the order
it first meets them; a class shows without its module (`type(a)` is
`numpy.ndarray` or `ndtile._ndarray.ndarray`, deviations.md 16).

`timeit.timeit` / `timeit.repeat` run their statement once per repeat
(how many loops they take otherwise follows the speed, and the statement
may draw random numbers). `empty` and `empty_like` return zeros in both processes (what they hold
otherwise differs from run to run).

matplotlib runs with its Agg backend and `plt.show` does nothing.
"""
import argparse
import ast
import builtins
import importlib.util
import io
import json
import linecache
import math
import os
import pickle
import random
import re
import subprocess
import sys
import tempfile
import time
import traceback
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ndtile_imports  # noqa: E402  (tools/ndtile_imports.py)

SEED = 12345

# ---------------------------------------------------------------- extraction

_SKIP_MARKERS = [
    # (regex, reason)
    (r"^\s*%run", "IPython %run"),
    (r'\brequests\b|urllib|urlopen|http[s]?://\S+\.(gz|zip|csv)\b|pooch|wget',
     'network'),
    (r'\bnumba\b|\bnumexpr\b|\bpandas\b|\bscipy\b|\bimageio\b|\bcython\b|'
     r'\bcupy\b|\btorch\b|\bsympy\b|\bPIL\b|\bpygame\b|\bglumpy\b|\bvispy\b',
     'package not installed'),
    (r'\binput\(', 'interactive'),
    (r'\bnp\.show_config\b|np\.info\(|np\.__version__|numpy\.__version__',
     'prints NumPy itself'),
]


def _missing_packages(code, cwd):
    missing = []
    for m in re.finditer(r'^\s*(?:import|from)\s+([A-Za-z_][\w]*)', code, re.M):
        mod = m.group(1)
        if mod in ('numpy', '__future__') or \
                os.path.exists(os.path.join(cwd, mod + '.py')):
            continue
        try:
            __import__(mod)
        except Exception:
            missing.append(mod)
    return missing


CELL = '\n# %%--ndtile-cell--\n'


def numpy100(folder, src):
    path = os.path.join(folder, 'source', 'exercises100.ktx')
    text = open(path, encoding='utf-8').read()
    items = re.split(r'^< (\w+)\n', text, flags=re.M)
    out = []
    for key, body in zip(items[1::2], items[2::2]):
        if key.startswith('a'):
            code = 'import numpy as np' + CELL + body.strip('\n') + '\n'
            out.append((os.path.join(os.path.relpath(folder, src),
                                     f'{int(key[1:]):03d}'), code, folder))
    # and all of them as one notebook, as the exercises are meant to run:
    # later answers use names (sliding_window_view, ...) earlier ones import
    out.append((os.path.join(os.path.relpath(folder, src), 'all'),
                'import numpy as np' + CELL +
                CELL.join(c.split(CELL, 1)[1] for _, c, _ in out), folder))
    return out


def notebook(md, src):
    """The code cells of a MyST notebook, CELL-separated (None: none)."""
    text = open(md, encoding='utf-8').read()
    cells = re.findall(r'^```\{code-cell\}[^\n]*\n(.*?)^```', text, re.M | re.S)
    if not cells:
        return None
    return _join_cells(
        re.sub(r'\A(---\n.*?\n---\n|(:\w+:[^\n]*\n)+)', '', cell, flags=re.S)
        for cell in cells)


def ipynb(path, src):
    """The code cells of a Jupyter notebook, CELL-separated (None: none)."""
    try:
        nb = json.load(open(path, encoding='utf-8'))
    except ValueError:
        return None
    cells = nb.get('cells') or [c for ws in nb.get('worksheets', [])
                                for c in ws.get('cells', [])]
    code = []
    for c in cells:
        if c.get('cell_type') == 'code':
            body = c.get('source', c.get('input', ''))
            code.append(''.join(body) if isinstance(body, list) else body)
    return _join_cells(code) if code else None


def _join_cells(cells):
    """Notebook cells (their code) CELL-joined, IPython magics replaced."""
    out = []
    for body in cells:
        if re.match(r'\s*%%', body):        # cell magic (%%timeit): dropped
            continue
        lines = []
        for line in body.splitlines():
            m = re.match(r'(\s*)%(timeit|time)\s+(.*)', line)
            if m:                              # %timeit X: X once
                line = m.group(1) + m.group(3)
            elif re.match(r'\s*[%!]', line):   # other magics: dropped
                line = re.sub(r'[%!].*', 'pass', line)
            elif re.match(r'\s*[\w.]+\?+\s*$', line):  # obj? (help): dropped
                line = re.sub(r'[\w.]+\?+', 'pass', line)
            lines.append(line)
        out += _python3('\n'.join(lines))
    return CELL.join(out)


def module_doctests(path, src):
    """A module with >>> examples in its docstrings: the module (without its
    `if __name__ == "__main__":` part) one cell, then each example one cell
    (None: no examples)."""
    text = open(path, encoding='utf-8', errors='replace').read()
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return None
    tree.body = [n for n in tree.body if not (
        isinstance(n, ast.If) and '__name__' in ast.unparse(n.test))]
    head = ast.unparse(tree)
    if skip_reason(_code_only(head), os.path.dirname(path)):
        return _code_only(head)     # one cell: skipped with the reason
    return doctests(path, src, head=head)


def doctests(path, src, head='import numpy as np'):
    """The >>> examples of an .rst file (or a module's docstrings), one cell
    a statement, after the cell `head` (None: none)."""
    text = open(path, encoding='utf-8', errors='replace').read()
    cells = _doctest_cells(text)
    if not cells:
        return None
    return CELL.join([head] + cells)


def _doctest_cells(text):
    """The >>> examples of a text, one cell a statement."""
    cells, cur, vary = [], None, False

    def done():
        # an example whose shown output "may vary" (np.empty, draws, ids)
        # runs without displaying it
        src = '\n'.join(cur)
        if '+SKIP' in src:               # doctest does not run it either
            src = 'pass'
        cells.append(('#nodisplay\n' if vary else '') + src)
    for line in text.splitlines():
        m = re.match(r'\s*(>>>|\.\.\.)( |$)(.*)', line)
        if m and m.group(1) == '>>>':
            if cur is not None:
                done()
            cur, vary = [m.group(3)], 'may vary' in line
        elif m and cur is not None:
            cur.append(m.group(3))
        elif cur is not None and line.strip():
            vary = vary or 'may vary' in line or 'random' in line
        elif cur is not None:
            done()
            cur = None
    if cur is not None:
        done()
    return [c for c in cells if c.strip()]


def _python3(body):
    """A notebook cell as Python 3 cells: a pasted >>> session one cell a
    statement, Python 2 (print statements, ...) through lib2to3 where this
    Python has it; else unchanged (it raises SyntaxError in both)."""
    try:
        ast.parse(body)
        return [body]
    except SyntaxError:
        pass
    if re.search(r'^\s*>>> ', body, re.M):
        return _doctest_cells(body) or [body]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            from lib2to3 import refactor
        tool = refactor.RefactoringTool(
            refactor.get_fixers_from_package('lib2to3.fixes'))
        new = str(tool.refactor_string(body.rstrip('\n') + '\n', 'cell'))
        ast.parse(new)
        return [new]
    except Exception:
        return [body]


def collect(src):
    """(name, code, cwd) of every program under src."""
    scripts = []
    for root, dirs, files in os.walk(src):
        dirs[:] = sorted(d for d in dirs if not d.startswith(('.', '_')))
        rel = os.path.relpath(root, src)
        if 'exercises100.ktx' in files and os.path.basename(root) == 'source':
            scripts += numpy100(os.path.dirname(root), src)
            continue
        for f in sorted(files):
            path = os.path.join(root, f)
            name = os.path.join(rel, os.path.splitext(f)[0])
            if f.endswith('.md') and 'numpy-100' not in path and \
                    'exercises' not in f.lower() or f == 'exercises.md':
                code = notebook(path, src)
                if code and re.search(r'\bnumpy\b', code):
                    scripts.append((name, code, root))
            elif f.endswith('.rst'):
                code = doctests(path, src)
                if code and re.search(r'\bnp\.|\bnumpy\b',
                                      code.split(CELL, 1)[1]):
                    scripts.append((name, code, root))
            elif f.endswith('.ipynb'):
                code = ipynb(path, src)
                if code and re.search(r'\bnumpy\b|\bpylab\b', code):
                    scripts.append((name, code, root))
            elif f.endswith('.py'):
                code = open(path, encoding='utf-8', errors='replace').read()
                if not re.search(r'^\s*(import|from) numpy', code, re.M):
                    continue
                if os.path.basename(root) in (
                        'code', 'examples', 'solutions', 'scripts'):
                    scripts.append((name, code, root))
                elif re.search(r'^\s*>>> ', code, re.M):
                    code = module_doctests(path, src)
                    if code:
                        scripts.append((name, code, root))
    return scripts


def _code_only(cell):
    """cell without comments and string statements (docstrings): what the
    skip markers look at (a docstring that names torch or input() needs
    neither)."""
    try:
        tree = ast.parse(cell)
    except SyntaxError:
        return cell
    for node in ast.walk(tree):
        body = getattr(node, 'body', None)
        if isinstance(body, list):
            node.body = [ast.Pass() if isinstance(n, ast.Expr) and
                         isinstance(n.value, ast.Constant) and
                         isinstance(n.value.value, str) else n for n in body]
    return ast.unparse(tree)


def drop_cells(code):
    """A notebook's code without the cells a skip marker matches."""
    cells = code.split(CELL)
    keep = [c if not any(re.search(rx, _code_only(c), re.M)
                         for rx, _ in _SKIP_MARKERS)
            else 'pass' for c in cells]
    return CELL.join(keep)


def skip_reason(code, cwd):
    """Why a one-cell script is skipped (None: it runs). A notebook's
    cells that need what is missing raise alike in both processes."""
    if CELL in code.split(CELL, 1)[1] if CELL in code else False:
        return None
    for rx, why in _SKIP_MARKERS:
        if re.search(rx, code, re.M):
            return why
    miss = _missing_packages(code, cwd)
    if miss:
        return 'package not installed: ' + ', '.join(sorted(set(miss)))
    return None


def to_ndtile(code):
    # numpy and each numpy submodule ndtile has take ndtile (ndtile_imports)
    return ndtile_imports.rewrite(code)

# ------------------------------------------------------------------- worker


def _plain(v, np, nd, depth=0):
    """A picklable, NumPy-only copy of v (None: not compared)."""
    if depth > 3:
        return None
    if nd is not None and isinstance(v, nd.ndarray):
        return ('array', np.asarray(v))
    if isinstance(v, np.ndarray):
        return ('array', np.asarray(v))
    if isinstance(v, np.generic):
        return ('array', np.asarray(v))
    if isinstance(v, (bool, int, float, complex, str, bytes, type(None))):
        return ('py', v)
    if isinstance(v, (list, tuple)) and len(v) <= 10000:
        return (type(v).__name__, [_plain(x, np, nd, depth + 1) for x in v])
    if isinstance(v, dict) and len(v) <= 1000:
        return ('dict', {repr(k): _plain(x, np, nd, depth + 1)
                         for k, x in v.items()})
    if isinstance(v, np.dtype):
        return ('dtype', str(v))
    return None


class _Wrap:
    """A NumPy generator / RandomState whose results are ndtile arrays."""

    def __init__(self, obj, np, nd):
        self._obj, self._np, self._nd = obj, np, nd

    def __getattr__(self, name):
        attr = getattr(self._obj, name)
        if not callable(attr):
            return attr
        return _wrap_fn(attr, self._np, self._nd)


def _wrap_fn(fn, np, nd, inplace=False):
    def to_np(a):
        if isinstance(a, nd.ndarray):
            return np.array(a)
        if isinstance(a, _Wrap):            # default_rng(rng): NumPy's own
            return a._obj
        if isinstance(a, (list, tuple)):
            return type(a)(to_np(x) for x in a)
        return a

    def wrapped(*args, **kw):
        nargs = [to_np(a) for a in args]
        nkw = {k: to_np(v) for k, v in kw.items()}
        r = fn(*nargs, **nkw)
        if inplace and args and isinstance(args[0], nd.ndarray):
            args[0][...] = nd.asarray(nargs[0])
        if isinstance(r, np.ndarray) and r.dtype.kind in 'biufc?':
            return nd.asarray(r)
        if isinstance(r, (np.random.Generator, np.random.mtrand.RandomState)):
            return _Wrap(r, np, nd)
        return r
    wrapped.__name__ = getattr(fn, '__name__', 'wrapped')
    return wrapped


def _patch_random(np, nd, classes=True):
    """ndtile.random's functions draw NumPy's numbers (ndtile arrays of
    them); classes=False keeps ndtile's classes and default_rng (a project's
    `isinstance(rng, np.random.Generator)`, its annotations) and so patches
    the functions of NumPy's global RandomState (seed, rand, randn, ...)."""
    for name in dir(np.random):
        if name.startswith('_'):
            continue
        attr = getattr(np.random, name)
        if not callable(attr) or not hasattr(nd.random, name):
            continue
        if not classes and (isinstance(attr, type) or name == 'default_rng'):
            continue
        if name in ('default_rng', 'RandomState', 'Generator'):
            setattr(nd.random, name, _wrap_fn(attr, np, nd))
        else:
            setattr(nd.random, name,
                    _wrap_fn(attr, np, nd, inplace=name in ('shuffle',)))


class _LocalRewriter:
    """Imports the script's own modules (files beside it) with the same
    numpy -> ndtile rewrite."""

    def __init__(self, folder):
        self.folder = folder

    def find_spec(self, name, path=None, target=None):
        f = os.path.join(self.folder, name.replace('.', os.sep) + '.py')
        if os.path.exists(f):
            return importlib.util.spec_from_file_location(name, f, loader=self)
        return None

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        code = to_ndtile(open(module.__file__, encoding='utf-8').read())
        exec(compile(code, module.__file__, 'exec'), module.__dict__)


# expressions whose value is a memory address, an id or the time (differs
# run to run)
_ADDRESS = (r"__array_interface__|\.ctypes\.data\b|\bid\(|"
            r"datetime64\(\s*['\"](now|today)\b|\bnow\(|\btoday\(|\btime\.time\(")


def _cell_code(cell, filename):
    """cell compiled; a last expression statement is displayed (as a
    notebook does)."""
    tree = ast.parse(cell, filename)
    if tree.body and isinstance(tree.body[-1], ast.Expr) and \
            not cell.startswith('#nodisplay') and \
            not re.search(_ADDRESS, ast.unparse(tree.body[-1])):
        last = tree.body[-1]
        call = ast.Expr(ast.Call(ast.Name('__ndtile_display__', ast.Load()),
                                 [last.value], []))
        tree.body[-1] = ast.copy_location(call, last)
        ast.fix_missing_locations(tree)
    return compile(tree, filename, 'exec')


def _display(v):
    if v is not None and not callable(v) and type(v).__module__.split('.')[0] \
            not in ('matplotlib',):
        print(repr(v))


def _seed_unseeded(np):
    """default_rng() and RandomState() without a seed take SEED (both
    processes), so that unseeded scripts are reproducible."""
    def seeded(fn):
        def f(seed=None, *a, **k):
            return fn(SEED if seed is None else seed, *a, **k)
        return f
    np.random.default_rng = seeded(np.random.default_rng)

    class RandomState(np.random.RandomState):
        # a class still (NumPy's default_rng tests isinstance(seed, it))
        def __init__(self, seed=None):
            super().__init__(SEED if seed is None else seed)
    np.random.RandomState = RandomState


def _zero_empty(mod):
    """empty / empty_like return zeros (both processes): their values are
    whatever the memory held, which no two runs share."""
    def zeroed(fn):
        def f(*a, **k):
            r = fn(*a, **k)
            try:
                r[...] = 0
            except Exception:
                pass
            return r
        return f
    for name in ('empty', 'empty_like'):
        setattr(mod, name, zeroed(getattr(mod, name)))


def _once_timeit():
    """timeit runs a statement once per repeat (both processes): how many
    loops a timing takes follows the speed, and the statement may draw
    random numbers or print."""
    import timeit
    tt, tr, clock = timeit.timeit, timeit.repeat, timeit.default_timer

    def once(stmt='pass', setup='pass', timer=clock, number=1, globals=None):
        return tt(stmt, setup, timer, 1, globals)

    def repeat(stmt='pass', setup='pass', timer=clock, repeat=5, number=1,
               globals=None):
        return tr(stmt, setup, timer, repeat, 1, globals)
    timeit.timeit, timeit.repeat = once, repeat


def worker(mode, script_path, result_path, cwd):
    # the worker's imports: matplotlib and NumPy, and ndtile only in its own
    # process
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    plt.show = lambda *a, **k: None
    plt.pause = lambda *a, **k: None
    import numpy as np
    nd = None
    if mode != 'numpy':
        import ndtile as nd
        sys.meta_path.insert(0, _LocalRewriter(cwd))
    _seed_unseeded(np)
    _zero_empty(np)
    _once_timeit()
    if nd is not None:
        _zero_empty(nd)
    if nd is not None and mode == 'ndtile':
        _patch_random(np, nd)
    np.random.seed(SEED)
    random.seed(SEED)
    builtins.help = lambda *a, **k: None     # docstrings differ by design
    warnings.simplefilter('ignore')
    code = open(script_path, encoding='utf-8').read()
    if mode != 'numpy':
        code = to_ndtile(code)
    os.chdir(cwd)
    sys.path.insert(0, cwd)
    sys.argv = [script_path]
    buf = io.StringIO()
    ns = {'__name__': '__main__', '__file__': script_path,
          '__ndtile_display__': _display}
    # the script's id() numbers objects in the order it first meets them (an
    # address otherwise, which no two runs share; the libraries keep theirs)
    ids = {}
    ns['id'] = lambda o: ids.setdefault(builtins.id(o), len(ids) + 1)
    excs = []
    real = sys.stdout
    sys.stdout = buf
    for i, cell in enumerate(code.split(CELL)):
        fname = f'{script_path}:cell{i}'
        linecache.cache[fname] = (len(cell), None, cell.splitlines(True), fname)
        quiet = cell.startswith('#nodisplay')   # its output may vary
        if quiet:
            sys.stdout = io.StringIO()
        try:
            exec(_cell_code(cell, fname), ns)
        except SystemExit:
            pass
        except BaseException as e:
            tb = traceback.extract_tb(e.__traceback__)
            line = next((f.lineno for f in reversed(tb)
                         if f.filename == fname), None)
            excs.append((i, type(e).__name__, str(e)[:300], line,
                         ''.join(traceback.format_exception(e)[-6:])[-1500:]))
            print(f'<cell {i} raised {type(e).__name__}>')
        finally:
            sys.stdout = buf
    sys.stdout = real
    plt.close('all')
    values = {}
    for k, v in list(ns.items()):
        if k.startswith('_'):
            continue
        try:
            p = _plain(v, np, nd)
        except Exception:
            p = None
        if p is not None:
            values[k] = p
    res = {'stdout': buf.getvalue(), 'excs': excs, 'values': values}
    try:
        data = pickle.dumps(res)
    except Exception:
        res['values'] = {}
        data = pickle.dumps(res)
    with open(result_path, 'wb') as f:
        f.write(data)

# ---------------------------------------------------------------- comparing

_NUM = re.compile(r'[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|nan|inf')


def _close(a, b, rtol=1e-6, atol=1e-9):
    if a == b or (math.isnan(a) and math.isnan(b)):
        return True
    return abs(a - b) <= atol + rtol * max(abs(a), abs(b))


def _norm_ws(s):
    return re.sub(r'\s+', ' ', s).strip()


def _no_addresses(s):
    """s without object addresses and timings (they differ run to run), and
    with the module of a NumPy or ndtile class dropped (`type(a)` shows
    `numpy.ndarray` or `ndtile._ndarray.ndarray`: deviations.md 16)."""
    s = re.sub(r' at 0x[0-9a-fA-F]+', ' at 0x?', s)
    s = re.sub(r"<class '(?:numpy|ndtile)\.(?:\w+\.)*(\w+)'>", r"<class '\1'>", s)
    return re.sub(r'(\d+ loops?, best of \d+: )?[\d.]+(e[-+]?\d+)? ?'
                  r'(ns|us|usec|µs|ms|msec|s|sec)'
                  r' per loop', 'T per loop', s)


def compare_text(a, b):
    a, b = _no_addresses(a), _no_addresses(b)
    if a == b:
        return None
    la, lb = a.splitlines(), b.splitlines()
    # the text between numbers, without spaces (an array's columns are
    # padded to its widest number, which may have a digit more or less)
    ta = [t.replace(' ', '') for t in _NUM.split(_norm_ws(a))]
    tb = [t.replace(' ', '') for t in _NUM.split(_norm_ws(b))]
    na, nb = _NUM.findall(_norm_ws(a)), _NUM.findall(_norm_ws(b))
    if ta == tb and len(na) == len(nb) and all(
            _close(float(x), float(y)) for x, y in zip(na, nb)):
        return None
    for i, (x, y) in enumerate(zip(la, lb)):
        if x != y:
            return f'stdout line {i + 1}: numpy {x[:100]!r} ndtile {y[:100]!r}'
    return f'stdout: numpy {len(la)} lines, ndtile {len(lb)} lines'


def compare_value(a, b, np):
    if a is None or b is None:
        return None
    if a[0] != b[0]:
        if {a[0], b[0]} <= {'array', 'py'}:   # 0-d array vs Python number
            a = ('array', np.asarray(a[1])) if a[0] == 'py' else a
            b = ('array', np.asarray(b[1])) if b[0] == 'py' else b
            if a[1].ndim or b[1].ndim:
                return f'kind {a[0]} vs {b[0]}'
            return compare_value(a, b, np)
        return f'kind {a[0]} vs {b[0]}'
    kind, x, y = a[0], a[1], b[1]
    if kind == 'array':
        if x.shape != y.shape:
            return f'shape {x.shape} vs {y.shape}'
        if x.dtype != y.dtype:
            return f'dtype {x.dtype} vs {y.dtype}'
        if x.dtype.kind in 'fc':
            ok = np.allclose(x, y, rtol=1e-6, atol=1e-9, equal_nan=True) if \
                x.size else True
        elif x.dtype.kind == 'O':
            ok = True
        else:
            try:
                ok = bool(np.array_equal(x, y))
            except Exception:
                ok = repr(x) == repr(y)
        return None if ok else f'values {str(x)[:80]!r} vs {str(y)[:80]!r}'
    if kind == 'py':
        if isinstance(x, float) and isinstance(y, float):
            return None if _close(x, y) else f'{x!r} vs {y!r}'
        return None if _eq(x, y) else f'{x!r} vs {y!r}'[:160]
    if kind in ('list', 'tuple'):
        if len(x) != len(y):
            return f'len {len(x)} vs {len(y)}'
        for i, (p, q) in enumerate(zip(x, y)):
            d = compare_value(p, q, np)
            if d:
                return f'[{i}] {d}'
        return None
    if kind == 'dict':
        if x.keys() != y.keys():
            return 'dict keys'
        for k in x:
            d = compare_value(x[k], y[k], np)
            if d:
                return f'[{k}] {d}'
        return None
    return None if _eq(x, y) else f'{x!r} vs {y!r}'[:160]


def _eq(x, y):
    """x == y as a bool; by repr where == gives no bool (an object that
    holds arrays)."""
    try:
        return bool(x == y)
    except Exception:
        return repr(x) == repr(y)


def compare(rn, rt, np, native_random):
    en = {e[0]: e for e in rn['excs']}
    for e in rt['excs']:
        if e[0] not in en or en[e[0]][1] != e[1]:
            return 'raised', 'cell %d: %s: %s (line %s)' % e[:4]
    if native_random:
        return 'same', ''
    et = {e[0] for e in rt['excs']}
    for e in rn['excs']:
        if e[0] not in et:
            return 'differs', 'cell %d: numpy raised %s: %s, ndtile did not' % e[:3]
    d = compare_text(rn['stdout'], rt['stdout'])
    if d:
        return 'differs', d
    for k, v in rn['values'].items():
        if k in rt['values']:
            d = compare_value(v, rt['values'][k], np)
            if d:
                return 'differs', f'{k}: {d}'
    return 'same', ''


def run_one(mode, script, cwd, timeout, tmp):
    res_path = os.path.join(tmp, mode + '.pkl')
    if os.path.exists(res_path):
        os.unlink(res_path)
    env = dict(os.environ, MPLBACKEND='Agg', PYTHONHASHSEED='0')
    t0 = time.time()
    try:
        p = subprocess.run([sys.executable, os.path.abspath(__file__),
                            '--worker', mode, script, res_path, cwd],
                           env=env, timeout=timeout, capture_output=True,
                           text=True)
    except subprocess.TimeoutExpired:
        return None, time.time() - t0
    if not os.path.exists(res_path):
        return {'stdout': '', 'values': {},
                'excs': [(0, 'crash', f'rc {p.returncode}: {p.stderr[-300:]}',
                          None, '')]}, \
            time.time() - t0
    with open(res_path, 'rb') as f:
        return pickle.load(f), time.time() - t0


def main():
    if len(sys.argv) > 1 and sys.argv[1] == '--worker':
        worker(*sys.argv[2:6])
        return
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('src')
    ap.add_argument('--only', default='')
    ap.add_argument('--timeout', type=float, default=120)
    ap.add_argument('--out', default='/tmp/ndtile-scripts')
    ap.add_argument('--native-random', action='store_true')
    ap.add_argument('-v', '--verbose', action='store_true')
    args = ap.parse_args()
    import numpy as np
    os.makedirs(args.out, exist_ok=True)
    scripts = [s for s in collect(args.src) if re.search(args.only, s[0])]
    if not scripts:
        sys.exit(f'no scripts found under {args.src}')
    counts, report = {}, []
    nd_mode = 'ndtile-native' if args.native_random else 'ndtile'
    for name, code, cwd in scripts:
        source = name.split('/')[0]
        c = counts.setdefault(source, {})
        if code.count(CELL) > 1:
            code = drop_cells(code)
        why = skip_reason(code, cwd)
        detail = ''
        with tempfile.TemporaryDirectory() as tmp:
            script = os.path.join(tmp, name.replace('/', '_') + '.py')
            with open(script, 'w', encoding='utf-8') as f:
                f.write(code)
            if why:
                status = 'skip'
            else:
                rn, tn = run_one('numpy', script, cwd, args.timeout, tmp)
                if rn is None:
                    status, why = 'skip', 'NumPy timed out'
                elif code.count(CELL) <= 1 and any(e[1] in ('ModuleNotFoundError', 'ImportError',
                                  'crash', 'FileNotFoundError')
                         for e in rn['excs']):
                    e = next(e for e in rn['excs'] if e[1] in (
                        'ModuleNotFoundError', 'ImportError', 'crash',
                        'FileNotFoundError'))
                    status, why = 'skip', 'NumPy: %s: %s' % e[1:3]
                else:
                    rt, tt = run_one(nd_mode, script, cwd,
                                     max(args.timeout, 10 * tn + 30), tmp)
                    if rt is None:
                        status, detail = 'timeout', f'numpy {tn:.1f}s'
                    else:
                        status, detail = compare(rn, rt, np,
                                                 args.native_random)
                        if status == 'same' and rn['excs']:
                            # what ran not at all (names of a dropped cell)
                            detail = '(%d of %d cells raised in both)' % (
                                len(rn['excs']), code.count(CELL) + 1)
                        if status != 'same':
                            log = os.path.join(args.out, name.replace('/', '_')
                                               + '.txt')
                            with open(log, 'w') as f:
                                f.write(f'{status}: {detail}\n')
                                for e in rt['excs']:
                                    f.write(f'ndtile cell {e[0]}:\n{e[4]}\n')
                                f.write('--- numpy stdout\n' + rn['stdout'])
                                f.write('--- ndtile stdout\n' + rt['stdout'])
        c[status] = c.get(status, 0) + 1
        line = f'{status:8s} {name}'
        if status == 'skip':
            line += f'  ({why})'
        elif detail:
            line += f'  {detail}'
        report.append(line)
        if args.verbose or status not in ('same', 'skip'):
            print(line, flush=True)
    with open(os.path.join(args.out, 'report.txt'), 'w') as f:
        f.write('\n'.join(report) + '\n')
    with open(os.path.join(args.out, 'counts.json'), 'w') as f:
        json.dump(counts, f, indent=1)
    print()
    for source, c in counts.items():
        print(f'{source}: ' + ', '.join(f'{k} {v}' for k, v in sorted(c.items())))
    print(f'report: {os.path.join(args.out, "report.txt")}')


if __name__ == '__main__':
    main()
