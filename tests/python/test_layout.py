"""The Python package's import structure (tools/import_graph.py's analysis of
python/ndtile, read with ast): no import cycle among ndtile modules, and
imports inside functions only where they are deliberately lazy, each with a
comment saying why. A new cycle, or a new import inside a function, fails
here: import the module at the top of the file (a lower module must not
need a higher one; move the shared helper down instead), or add the lazy
import to LAZY below with its reason."""
import importlib.util
import os

import pytest

ROOT = os.path.join(os.path.dirname(__file__), '..', '..')


def _analysis():
    spec = importlib.util.spec_from_file_location(
        'import_graph', os.path.join(ROOT, 'tools', 'import_graph.py'))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod, mod.analyse(os.path.join(ROOT, 'python', 'ndtile'))


# (module, function, what it imports): the imports inside functions that are
# meant to be there.
LAZY = {
    # the package's own functions: a module-level os/sys would be ndtile.os
    ('ndtile', '_sync_at_exit', 'sys'),
    ('ndtile', '_check_settings', 'os'),
    ('ndtile', '_check_settings', 'sys'),
    # ctypes only when ndarray.ctypes is used
    ('ndtile._convert', '_ctypes.__init__', 'ctypes'),
    # the launcher (`ndtile --ranks N`) runs without the built core, and
    # before any rank imports it
    ('ndtile._launch', '_tile_bytes', 'ndtile._core'),
    ('ndtile._launch', '_setting', 'ndtile._core'),
    ('ndtile._launch', '_version', 'ndtile'),
    ('ndtile._launch', '_version', 'importlib.metadata'),
    ('ndtile._launch', '_info_ndtile', 'ndtile._config'),
    ('ndtile._launch', '_info_ndtile', 'ndtile._core'),
    ('ndtile._launch', '_info_ndtile', 'ndtile'),
    ('ndtile._launch', 'main', 'ndtile._core'),
    # signal handling only under the launcher
    ('ndtile._ranks', 'setup', 'signal'),
    # h5py is optional
    ('ndtile.io', '_h5py', 'h5py'),
    # ndtile.lib.stride_tricks.broadcast_to & co. are the namespace's own
    # (dispatching) functions, looked up when first asked for
    ('ndtile.lib.stride_tricks', '__getattr__', 'ndtile'),
}


def test_no_import_cycle():
    mod, r = _analysis()
    assert r['cycles'] == [], r['cycle_paths']


def test_no_cycle_through_imports_inside_functions():
    # the imports inside functions, the allowed lazy ones left out: no cycle
    # hidden by deferring an import into a function
    mod, r = _analysis()
    full = {m: set(t) for m, t in r['graph'].items()}
    for i in r['inner']:
        if i['ndtile'] and (i['module'], i['function'], i['imports']) not in LAZY:
            full[i['module']].add(i['imports'])
    comps = [c for c in mod._sccs(full) if len(c) > 1 or c[0] in full[c[0]]]
    assert comps == []


def test_imports_inside_functions_are_the_lazy_ones():
    mod, r = _analysis()
    found = {(i['module'], i['function'], i['imports']) for i in r['inner']}
    assert found - LAZY == set(), 'new imports inside functions (move them to the top)'
    assert LAZY - found == set(), 'LAZY lists imports that are gone (remove them from LAZY)'


def test_lazy_imports_say_why():
    mod, r = _analysis()
    silent = [f"{i['path']}:{i['line']}" for i in r['inner'] if not i['comment']]
    assert silent == []


def test_the_bottom_module_imports_only_the_leaves():
    # _umath (the ufunc objects and the core-call helpers) sits under every
    # array-library module: it imports the core, NumPy, the standard library
    # and the leaf modules only
    mod, r = _analysis()
    assert r['graph']['ndtile._umath'] <= {
        'ndtile._core', 'ndtile._dtypes', 'ndtile._convert', 'ndtile._fallback',
        'ndtile._array_api', 'ndtile._order', 'ndtile._errstate'}


@pytest.mark.parametrize('src, expect', [
    ("from . import _b\n", {'pkg._b'}),
    ("def f():\n    from . import _b\n", set()),
])
def test_the_analysis_sees_cycles(tmp_path, src, expect):
    # the tool itself: a two-module cycle is found; one deferred into a
    # function is an import inside a function, and a cycle of the full graph
    mod, _ = _analysis()
    pkg = tmp_path / 'pkg'
    pkg.mkdir()
    (pkg / '__init__.py').write_text('')
    (pkg / '_a.py').write_text(src)
    (pkg / '_b.py').write_text('from . import _a\n')
    r = mod.analyse(str(pkg), package='pkg')
    assert r['graph']['pkg._a'] == expect
    if expect:
        assert r['cycles'] == [['pkg._a', 'pkg._b']]
    else:
        assert r['cycles'] == []
        assert [(i['module'], i['imports']) for i in r['inner']] == [('pkg._a', 'pkg._b')]
        assert r['full_cycles'] == [['pkg._a', 'pkg._b']]
