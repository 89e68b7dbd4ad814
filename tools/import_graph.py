#!/usr/bin/env python3
"""The import structure of the ndtile Python package, read from its source.

    python3 tools/import_graph.py [--root python/ndtile] [--quiet]

Parses every module of the package with `ast` (nothing is imported, so it
runs without a build) and prints

  * the module-level import graph between ndtile modules (what each module
    imports while it is being imported: the statements outside functions,
    including those under module-level `if`/`try` and in class bodies);
  * its cycles (strongly connected components of more than one module, each
    with one cycle through it);
  * every import statement inside a function (file:line, the function, what
    it imports, and whether a comment on that line or the line above says why).

tests/python/test_layout.py calls analyse() and asserts that the graph has
no cycle and that the imports inside functions are exactly its allow-list of
deliberately lazy ones.
"""
import argparse
import ast
import os
import sys

# Modules of the package that have no .py source here: the C extension and
# the file meson writes from _version.py.in.
_EXTRA = ('_core', '_version')


def _modules(root, package):
    """{module name: path} for every .py file under root."""
    mods = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(('.', '__pycache__')))
        rel = os.path.relpath(dirpath, root)
        parts = [package] + ([] if rel == '.' else rel.split(os.sep))
        for f in sorted(filenames):
            if not f.endswith('.py'):
                continue
            stem = f[:-3]
            name = '.'.join(parts if stem == '__init__' else parts + [stem])
            mods[name] = os.path.join(dirpath, f)
    return mods


def _is_package(path):
    return os.path.basename(path) == '__init__.py'


def _resolve(node, modname, is_pkg, known):
    """The ndtile modules an import statement makes Python import, as a list
    of (module, imported text)."""
    out = []
    if isinstance(node, ast.Import):
        for a in node.names:
            name = a.name
            # `import ndtile.linalg` imports the longest known prefix
            while name and name not in known:
                name = name.rpartition('.')[0]
            if name:
                out.append((name, a.name))
            else:
                out.append((None, a.name))
        return out
    # from X import names
    if node.level:
        base = modname.split('.')
        if not is_pkg:
            base = base[:-1]
        base = base[:len(base) - (node.level - 1)]
        pkg = '.'.join(base + ([node.module] if node.module else []))
    else:
        pkg = node.module or ''
    text = '.' * node.level + (node.module or '')
    if pkg not in known:
        return [(None, text)]
    for a in node.names:
        sub = pkg + '.' + a.name
        if sub in known:               # a submodule: that module
            out.append((sub, text + ' import ' + a.name))
        else:                          # a name of pkg's namespace
            out.append((pkg, text + ' import ' + a.name))
    return out


class _Walker(ast.NodeVisitor):
    def __init__(self):
        self.top = []        # import nodes run at import time
        self.inner = []      # (function qualname, import node)
        self._stack = []

    def _func(self, node):
        self._stack.append(node.name)
        self.generic_visit(node)
        self._stack.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = _func

    def visit_Lambda(self, node):
        self._stack.append('<lambda>')
        self.generic_visit(node)
        self._stack.pop()

    def visit_ClassDef(self, node):
        # a class body runs at import time: its imports are module-level,
        # its methods' are not (their names are recorded as Class.method)
        if self._stack:
            self._stack.append(node.name)
            self.generic_visit(node)
            self._stack.pop()
        else:
            saved = self._stack
            self._class = node.name
            for child in node.body:
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    self._stack = [node.name]
                    self._func(child)
                    self._stack = saved
                else:
                    self.visit(child)

    def _imp(self, node):
        if self._stack:
            self.inner.append(('.'.join(self._stack), node))
        else:
            self.top.append(node)

    visit_Import = visit_ImportFrom = _imp


def _has_comment(lines, lineno):
    """A comment on the import's line or on the line above it."""
    here = lines[lineno - 1] if lineno - 1 < len(lines) else ''
    above = lines[lineno - 2].strip() if lineno >= 2 else ''
    return '#' in here or above.startswith('#')


def _sccs(graph):
    """Tarjan's strongly connected components (iterative), sorted."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    out.append(sorted(comp))
    return sorted(out)


def _one_cycle(graph, comp):
    """A shortest cycle through comp's first module (breadth-first)."""
    members = set(comp)
    start = comp[0]
    prev = {start: None}
    queue = [start]
    while queue:
        v = queue.pop(0)
        for w in sorted(graph[v]):
            if w not in members:
                continue
            if w == start:
                path = [v]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                return list(reversed(path)) + [start]
            if w not in prev:
                prev[w] = v
                queue.append(w)
    return comp


def analyse(root=None, package='ndtile'):
    """The package's import structure: a dict with
    'graph'  {module: set of ndtile modules it imports at module level},
    'edges'  {(module, imported): [(path, line, text), ...]},
    'cycles' [sorted list of modules, ...] (components of more than one module,
             or one module importing itself),
    'inner'  [dict(path, line, module, function, imports, ndtile, comment)]
             for every module an import inside a function imports,
    'statements' the number of import statements inside functions,
    'full_graph', 'full_cycles' the same graph and cycles counting the imports
             inside functions too."""
    if root is None:
        root = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'python', package)
    root = os.path.normpath(root)
    mods = _modules(root, package)
    known = set(mods) | {package + '.' + e for e in _EXTRA}
    graph = {m: set() for m in known}
    edges = {}
    inner = []
    for name, path in sorted(mods.items()):
        with open(path, encoding='utf-8') as f:
            src = f.read()
        lines = src.splitlines()
        w = _Walker()
        w.visit(ast.parse(src, path))
        is_pkg = _is_package(path)
        rel = os.path.relpath(path, os.path.dirname(root))
        for node in w.top:
            for target, text in _resolve(node, name, is_pkg, known):
                if target is None or target == name:
                    continue
                graph[name].add(target)
                edges.setdefault((name, target), []).append((rel, node.lineno, text))
        for func, node in w.inner:
            for target, text in _resolve(node, name, is_pkg, known):
                inner.append(dict(path=rel, line=node.lineno, module=name, function=func,
                                  imports=target or text, ndtile=target is not None,
                                  comment=_has_comment(lines, node.lineno)))
    # all imports, those inside functions too: where a cycle is broken only
    # by deferring an import into a function, it is still a cycle here
    full = {m: set(t) for m, t in graph.items()}
    for i in inner:
        if i['ndtile'] and i['imports'] != i['module']:
            full[i['module']].add(i['imports'])

    def cycles(g):
        return [c for c in _sccs(g) if len(c) > 1 or c[0] in g[c[0]]]
    comps, fcomps = cycles(graph), cycles(full)
    return dict(graph=graph, edges=edges, cycles=comps, inner=inner,
                cycle_paths=[_one_cycle(graph, c) for c in comps],
                full_graph=full, full_cycles=fcomps,
                full_cycle_paths=[_one_cycle(full, c) for c in fcomps],
                statements=len({(i['path'], i['line']) for i in inner}))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--root', default=None, help='the package folder (python/ndtile)')
    ap.add_argument('--quiet', action='store_true', help='only the summary and cycles')
    args = ap.parse_args(argv)
    r = analyse(args.root)
    graph = r['graph']
    if not args.quiet:
        print('# module-level imports between ndtile modules')
        for m in sorted(graph):
            if graph[m]:
                print(f'{m} -> {", ".join(sorted(graph[m]))}')
    print(f'\n# cycles: {len(r["cycles"])}')
    for comp, path in zip(r['cycles'], r['cycle_paths']):
        print(f'{len(comp)} modules: {", ".join(comp)}')
        print('   e.g. ' + ' -> '.join(path))
    print(f'\n# cycles counting the imports inside functions: {len(r["full_cycles"])}')
    for comp, path in zip(r['full_cycles'], r['full_cycle_paths']):
        print(f'{len(comp)} modules: {", ".join(comp)}')
        print('   e.g. ' + ' -> '.join(path))
    inner = r['inner']
    if not args.quiet:
        print(f'\n# imports inside functions: {len(inner)}')
        for i in inner:
            mark = '' if i['comment'] else '   (no comment)'
            print(f'{i["path"]}:{i["line"]}: {i["function"]}: {i["imports"]}{mark}')
    n_nd = sum(1 for i in inner if i['ndtile'])
    print(f'\nsummary: {len(graph)} modules, {sum(map(len, graph.values()))} module-level edges, '
          f'{len(r["cycles"])} cycles (largest {max(map(len, r["cycles"]), default=0)} modules), '
          f'{len(r["full_cycles"])} counting imports inside functions '
          f'(largest {max(map(len, r["full_cycles"]), default=0)} modules), '
          f'{r["statements"]} import statements inside functions importing {len(inner)} modules '
          f'({n_nd} of ndtile modules, '
          f'{len(inner) - n_nd} of others; {sum(1 for i in inner if not i["comment"])} without a comment)')
    return 0


if __name__ == '__main__':
    sys.exit(main())
