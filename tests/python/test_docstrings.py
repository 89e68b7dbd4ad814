"""Every public function of ndtile has a docstring; where ndtile stands in
for a NumPy function, the docstring is NumPy's own with ndtile's note in
front (python/ndtile/_docs.py)."""
import inspect
import re
import subprocess
import sys
import types

import numpy as np
import pytest

import ndtile as nt
from ndtile import _docs

MODULES = [('', nt, np), ('linalg', nt.linalg, np.linalg), ('fft', nt.fft, np.fft),
           ('random', nt.random, np.random),
           ('lib.stride_tricks', nt.lib.stride_tricks, np.lib.stride_tricks)]


def _public(mod):
    return sorted(n for n in dir(mod) if not n.startswith('_'))


def _callables(mod):
    """(name, object) of mod's public functions and ufuncs (dir(), so names
    ndtile leaves to NumPy are made as the user would get them)."""
    out = []
    for name in _public(mod):
        obj = getattr(mod, name)
        if callable(obj) and not isinstance(obj, (type, types.ModuleType)):
            out.append((name, obj))
    return out


def _norm(text):
    return ' '.join(text.split())


def _summary(doc):
    """The first paragraph of doc that is not a signature line."""
    for para in inspect.cleandoc(doc).split('\n\n'):
        if para.strip() and not re.match(r'[\w.]+\(', para.strip()):
            return _norm(para)
    return _norm(doc)


def _is_numpys_own(obj, npobj):
    base = getattr(obj, '__func__', obj)
    return obj is npobj or base is getattr(npobj, '__func__', npobj)


@pytest.mark.parametrize('prefix,mod,npmod', MODULES, ids=[m[0] or 'ndtile' for m in MODULES])
def test_every_public_function_has_a_docstring(prefix, mod, npmod):
    missing = [name for name, obj in _callables(mod) if not (inspect.getdoc(obj) or '').strip()]
    assert not missing, f"no docstring: {missing}"


@pytest.mark.parametrize('prefix,mod,npmod', MODULES, ids=[m[0] or 'ndtile' for m in MODULES])
def test_numpy_backed_functions_carry_numpys_docstring_and_the_note(prefix, mod, npmod):
    checked, bad = 0, []
    for name, obj in _callables(mod):
        npobj = getattr(npmod, name, None)
        if npobj is None or _is_numpys_own(obj, npobj) or not getattr(npobj, '__doc__', None):
            continue
        doc = obj.__doc__
        # NumPy's summary (its first paragraph; the whole text can differ:
        # an alias, amax is max, carries the docstring of the name it has,
        # and a method shared by Generator and RandomState carries
        # Generator's)
        ref = getattr(npmod, getattr(obj, '__name__', name), npobj) or npobj
        refs = [npobj, ref]
        if prefix == 'random':   # one method serves both classes
            refs += [getattr(c, name, None) for c in (np.random.RandomState, np.random.Generator)]
        summaries = {_summary(r.__doc__) for r in refs if getattr(r, '__doc__', None)}
        if not doc.startswith(_docs.MARK) or not any(
                s and s in _norm(doc) for s in summaries):
            bad.append(name)
        checked += 1
    assert not bad, f"without the note or NumPy's docstring: {bad}"
    assert checked >= {'': 350, 'random': 40, 'linalg': 25, 'fft': 15}.get(prefix, 2)


def test_the_note_says_how_it_runs():
    assert _norm(nt.sum.__doc__).startswith(_docs.NATIVE)
    assert "Deviation from NumPy" in nt.sum.__doc__           # reduction order
    assert _norm(nt.add.__doc__).startswith(_docs.UFUNC)
    assert "last bit" in nt.exp.__doc__                       # SLEEF loops
    fb = nt.apply_over_axes                                   # a fallback (made lazily)
    assert getattr(fb, '__ndtile_fallback__', False)
    assert _norm(fb.__doc__).startswith(_docs.FALLBACK)
    assert _norm(nt.linalg.solve.__doc__).startswith(_docs.NATIVE)
    # ndtile's own remark on its implementation stays, inside the note
    assert "stable sort for every kind" in _norm(nt.sort.__doc__).split(_summary(np.sort.__doc__))[0]


def test_ndarray_methods_and_random_classes():
    bad = []
    for cls, npcls in ((nt.ndarray, np.ndarray), (nt.random.Generator, np.random.Generator),
                       (nt.random.RandomState, np.random.RandomState)):
        for name in dir(cls):
            if name.startswith('_') or not hasattr(npcls, name):
                continue
            attr = inspect.getattr_static(cls, name)
            if not (getattr(attr, '__doc__', None) or '').strip():
                bad.append(f"{cls.__name__}.{name}")
            elif (callable(attr) or isinstance(attr, property)) and \
                    getattr(getattr(npcls, name), '__doc__', None) and \
                    not _is_numpys_own(attr, inspect.getattr_static(npcls, name)) and \
                    not attr.__doc__.startswith(_docs.MARK):
                bad.append(f"{cls.__name__}.{name} (no note)")
    assert not bad, bad


def test_numpys_own_objects_are_left_alone():
    # passthrough functions are NumPy's objects: writing their doc would
    # change NumPy's
    assert nt.set_printoptions is np.set_printoptions
    assert not np.set_printoptions.__doc__.startswith(_docs.MARK)
    assert not np.sum.__doc__.startswith(_docs.MARK)
    assert not np.add.__doc__.startswith(_docs.MARK)


def test_help_shows_the_note():
    out = subprocess.run([sys.executable, '-c', 'import ndtile, pydoc; '
                          'print(pydoc.render_doc(ndtile.mean, renderer=pydoc.plaintext))'],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert 'ndtile: runs natively' in out.stdout and 'Compute the arithmetic mean' in out.stdout


def test_compose_keeps_one_indentation():
    npdoc = "\n    Summary line.\n\n    Parameters\n    ----------\n    a : int\n"
    doc = _docs.compose(_docs.NATIVE, npdoc, own="ndtile's remark.", name='sum')
    clean = inspect.cleandoc(doc)
    assert clean.startswith("ndtile: runs natively")
    assert "\nSummary line.\n\nParameters\n----------\na : int" in clean
    assert "ndtile's remark." in clean and "Deviation from NumPy" in clean
    assert _docs.compose(_docs.NATIVE, None) == _docs.NATIVE


def test_the_walk_is_cheap_at_import():
    # _docs.apply timed inside a real import (of a 150-200 ms import)
    code = r'''
import importlib.util, os, sys, time
spec = importlib.util.find_spec('ndtile')
path = os.path.join(os.path.dirname(spec.origin), '_docs.py')
mod = type(sys)('ndtile._docs'); mod.__file__ = path
exec(compile(open(path).read(), path, 'exec'), mod.__dict__)
real, spent = mod.apply, []
def timed(pkg):
    t = time.perf_counter(); real(pkg); spent.append(time.perf_counter() - t)
mod.apply = timed
sys.modules['ndtile._docs'] = mod
t = time.perf_counter()
import ndtile
print(spent[0])
'''
    spent = []
    for _ in range(3):      # the least of three: other processes' load only adds
        out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True,
                             timeout=120)
        assert out.returncode == 0, out.stderr
        spent.append(float(out.stdout))
    # 2-4 ms on a quiet machine, ~7 ms at a load of 12 on 2 cores; a walk
    # that made fallbacks or imported NumPy's lazy submodules costs 100+ ms
    assert min(spent) < 0.05, spent
