"""numpy -> ndtile import rewriting, shared by the tools that run NumPy code
against ndtile (numpy_tests.py, run_scripts.py, project_tests.py).

    rewrite(text, only=None, plain_numpy=True, pre=())

rewrites, at the start of a line (any indentation):

    import numpy as X             -> import ndtile as X
    import numpy                  -> import ndtile as numpy      (plain_numpy)
    import numpy.sub              -> import ndtile.sub + import ndtile as numpy
                                                                 (plain_numpy)
    import numpy.sub as X         -> import ndtile.sub as X
    from numpy import ...         -> from ndtile import ...
    from numpy.sub import ...     -> from ndtile.sub import ...

A submodule is rewritten only where ndtile has it: `only` (a collection of
dotted submodule names, '' for numpy itself) when given, else any public
submodule that `ndtile.sub` imports as (ndtile's own: linalg, fft, random,
testing, lib.stride_tricks, ...; or NumPy's own module under ndtile's name:
ma, polynomial, exceptions, typing, ...). NumPy's private modules
(`numpy._core...`, `numpy.lib._function_base_impl`) stay NumPy's: a program
that imports them tests NumPy's internals. `import numpy.sub` binds the name
`numpy`, so its rewrite binds it to ndtile again (a later `import
numpy.testing` would otherwise put NumPy back under the name the program
already uses for ndtile). `plain_numpy=False` leaves `numpy` NumPy's (a tool
whose own rewrites refer to NumPy's internals as `numpy._core`). `pre`: the
calling tool's own (regex, replacement) pairs, applied first.
"""
import functools
import importlib.util
import re

_END = r'(?=[ \t]*(?:#.*)?$)'        # the statement ends (a comment may follow)
_ALIAS = re.compile(r'^([ \t]*)import numpy as (\w+)' + _END, re.M)
_PLAIN = re.compile(r'^([ \t]*)import numpy' + _END, re.M)
_SUB_PLAIN = re.compile(r'^([ \t]*)import numpy\.([\w.]+)' + _END, re.M)
_SUB_AS = re.compile(r'^([ \t]*)import numpy\.([\w.]+) as (\w+)', re.M)
_FROM = re.compile(r'^([ \t]*)from numpy(\.[\w.]+)? import\b', re.M)


@functools.lru_cache(maxsize=None)
def ndtile_has(sub):
    """Whether `ndtile.<sub>` imports ('' is ndtile itself); never for a
    private module."""
    if sub == '':
        return True
    if any(p.startswith('_') for p in sub.split('.')):
        return False
    try:
        return importlib.util.find_spec('ndtile.' + sub) is not None
    except (ImportError, ValueError, AttributeError):
        return False


def rewrite(text, only=None, plain_numpy=True, pre=()):
    """text with its numpy imports taking ndtile (module docstring)."""
    def ok(sub):
        return sub in only if only is not None else ndtile_has(sub)

    def sub_plain(m):
        ind, sub = m.groups()
        if not (plain_numpy and ok(sub)):
            return m.group(0)
        return f'{ind}import ndtile.{sub}\n{ind}import ndtile as numpy'

    def sub_as(m):
        ind, sub, name = m.groups()
        return f'{ind}import ndtile.{sub} as {name}' if ok(sub) else m.group(0)

    def from_(m):
        ind, sub = m.group(1), (m.group(2) or '.')[1:]
        return f'{ind}from ndtile{m.group(2) or ""} import' if ok(sub) else m.group(0)

    for rx, rep in pre:
        text = rx.sub(rep, text)
    if ok(''):
        text = _ALIAS.sub(r'\1import ndtile as \2', text)
        if plain_numpy:
            text = _PLAIN.sub(r'\1import ndtile as numpy', text)
    text = _SUB_PLAIN.sub(sub_plain, text)
    text = _SUB_AS.sub(sub_as, text)
    return _FROM.sub(from_, text)
