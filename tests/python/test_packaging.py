"""The package as users install it: metadata, one version string, py.typed,
type stubs that cover the public names, the LICENSE file."""
import ast
import importlib.metadata as md
import os
import re

import ndtile as nt

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PKG = os.path.dirname(os.path.abspath(nt.__file__))        # the installed package


def _read(*parts):
    with open(os.path.join(ROOT, *parts)) as f:
        return f.read()


def _meson_version():
    m = re.search(r"project\('ndtile'.*?version:\s*'([^']+)'", _read('meson.build'), re.S)
    assert m, "meson.build has no project version"
    return m.group(1)


def test_one_version_string():
    v = _meson_version()
    assert re.fullmatch(r"\d+\.\d+\.\d+(\.dev\d+|rc\d+)?", v)
    assert nt.__version__ == v
    assert md.version('ndtile') == v
    # pyproject takes it from meson (no second copy to forget)
    py = _read('pyproject.toml')
    assert re.search(r'^dynamic\s*=\s*\["version"\]', py, re.M)
    assert not re.search(r'^version\s*=', py, re.M)
    assert not re.search(r"__version__\s*=\s*['\"]", _read('python', 'ndtile', '__init__.py'))


def test_launcher_reports_the_same_version():
    from ndtile import _launch
    assert _launch._version() == nt.__version__


def test_metadata_is_complete():
    meta = md.metadata('ndtile')
    assert meta['Name'] == 'ndtile'
    assert meta['Requires-Python'] == '>=3.10'
    assert meta.get('License-Expression') == 'BSD-3-Clause' or 'BSD' in (meta.get('License') or '')
    assert meta['Summary']
    # the README is the long description
    assert 'import ndtile as np' in (meta.get_payload() or '')
    urls = dict(u.split(', ', 1) for u in meta.get_all('Project-URL'))
    assert {'Homepage', 'Documentation', 'Source', 'Issues'} <= set(urls)
    classifiers = meta.get_all('Classifier')
    for minor in (10, 11, 12, 13):
        assert f'Programming Language :: Python :: 3.{minor}' in classifiers
    assert 'Typing :: Typed' in classifiers
    assert any(r.startswith('numpy') for r in meta.get_all('Requires-Dist'))


def test_license_file():
    text = _read('LICENSE')
    assert 'BSD 3-Clause License' in text and 'Neither the name of the copyright holder' in text
    files = [str(f) for f in md.files('ndtile')]
    assert any(f.endswith('LICENSE') for f in files), "LICENSE is not in the installed metadata"


def test_py_typed_and_stub_installed():
    assert os.path.exists(os.path.join(PKG, 'py.typed'))
    assert os.path.exists(os.path.join(PKG, '__init__.pyi'))


def _stub_names():
    tree = ast.parse(_read('python', 'ndtile', '__init__.pyi'))
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            names.add(node.target.id)
        elif isinstance(node, ast.ImportFrom):
            names.update(a.asname or a.name for a in node.names)
    return names


def test_stub_covers_every_public_name():
    public = {n for n in dir(nt) if not n.startswith('_')}
    missing = public - _stub_names()
    assert not missing, f"not in __init__.pyi (run tools/gen_stubs.py): {sorted(missing)}"
    assert '__version__' in _stub_names()


def test_stub_signatures_match_the_functions():
    # every ndtile-defined function: the stub lists its own parameters
    import inspect
    tree = ast.parse(_read('python', 'ndtile', '__init__.pyi'))
    checked, bad = 0, []
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef) or node.name == '__getattr__':
            continue
        obj = getattr(nt, node.name)
        if not (getattr(obj, '__module__', '') or '').startswith('ndtile'):
            continue
        try:
            sig = inspect.signature(obj)
        except (TypeError, ValueError):
            continue
        a = node.args
        stub = sorted(x.arg for x in a.posonlyargs + a.args + a.kwonlyargs +
                      [x for x in (a.vararg, a.kwarg) if x is not None])
        if stub != sorted(sig.parameters):
            bad.append(node.name)
        checked += 1
    assert not bad, f"stale signatures in __init__.pyi (run tools/gen_stubs.py): {bad}"
    assert checked > 200, checked


def test_meson_installs_the_new_files():
    build = _read('python', 'meson.build')
    for f in ('_docs.py', '__init__.pyi', 'py.typed', '_version.py.in'):
        assert f in build, f


def test_guide_lists_every_setting():
    # every NDTILE_* variable the runtime or the package reads is in the
    # user guide's settings page
    names = set(nt._core.setting_names())
    for folder in (os.path.join(ROOT, 'src'), os.path.join(ROOT, 'python', 'ndtile')):
        for dirpath, _, files in os.walk(folder):
            for f in files:
                if f.endswith(('.c', '.h', '.py')):
                    with open(os.path.join(dirpath, f), errors='replace') as fh:
                        names |= set(re.findall(r'\bNDTILE_[A-Z][A-Z0-9_]*[A-Z0-9]\b', fh.read()))
    page = _read('docs', 'guide', 'settings.md')
    missing = sorted(n for n in names if f'`{n}`' not in page)
    assert not missing, f"not in docs/guide/settings.md: {missing}"


def test_readme_quick_start_runs():
    # the README's Python quick start, as written, at default settings
    import subprocess
    import sys
    text = _read('README.md')
    assert text.index('make run') < text.index('## Quick start')       # the two commands first
    code = re.search(r'```python\n(import ndtile as np\n.*?)```', text, re.S).group(1)
    env = {k: v for k, v in os.environ.items() if not k.startswith('NDTILE_')}
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True,
                         timeout=600, env=env, cwd=os.path.dirname(ROOT))
    assert out.returncode == 0, out.stderr
    assert 'mean 1.166667' in out.stdout and 'worker threads' in out.stdout, out.stdout
