"""No import circle in firmware/ or host/: no two modules import each other,
directly or through others. Every import counts, at module level or inside
a function (a lazy import is still a dependency), relative or absolute.

Why: the board loads modules one at a time into a small heap and the
logstore's parts are ordered to import only downwards (its __init__); a
circle makes the import order decide which half sees the other
half-initialised, on MicroPython and CPython alike."""

import ast
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Top-level folders whose contents are importable under these roots: the
# board's flash (firmware/) and the host's package (pyproject.toml's
# package-dir maps host/apixagon_host to apixagon_host).
SOURCES = ("firmware", "host")
SKIP = {os.path.join("firmware", "manifest.py")}  # a freeze manifest, not a module


def modules():
    """{dotted name: (path, is_package)} for every module of ours."""
    found = {}
    for src in SOURCES:
        base = os.path.join(ROOT, src)
        for d, dirs, files in os.walk(base):
            dirs[:] = [x for x in dirs if x != "__pycache__"]
            for f in files:
                if not f.endswith(".py"):
                    continue
                path = os.path.join(d, f)
                if os.path.relpath(path, ROOT) in SKIP:
                    continue
                parts = os.path.relpath(path, base)[:-3].split(os.sep)
                pkg = parts[-1] == "__init__"
                if pkg:
                    parts = parts[:-1]
                found[".".join(parts)] = (path, pkg)
    return found


def imports_of(name, path, is_package, known):
    """The modules of ours that module `name` imports, anywhere in it."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    here = name if is_package else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                target = a.name
                while target and target not in known:
                    target = target.rpartition(".")[0]
                if target:
                    out.add(target)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here.split(".") if here else []
                base = base[: len(base) - (node.level - 1)]
                pkg = ".".join(base + ([node.module] if node.module else []))
            else:
                pkg = node.module
            for a in node.names:
                sub = pkg + "." + a.name if pkg else a.name
                if sub in known:
                    out.add(sub)  # `from pkg import module`
                elif pkg in known:
                    out.add(pkg)  # `from module import name`
    out.discard(name)
    return out


def graph():
    known = modules()
    return {n: imports_of(n, p, pkg, known) for n, (p, pkg) in known.items()}


def circles(g):
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(g.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return out


def test_the_graph_sees_our_modules():
    g = graph()
    assert "apixagon.game" in g and "smartboard.board" in g and "apixagon_host.cli" in g
    assert "apixagon.game" in g["smartboard.board"] or any(
        "apixagon" in m for m in g["smartboard.board"]
    )


def test_the_checker_finds_a_circle():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_import_circle():
    g = graph()
    found = circles(g)
    why = []
    for comp in found:
        edges = ["%s -> %s" % (a, b) for a in comp for b in sorted(g[a]) if b in comp]
        why.append("; ".join(edges))
    assert not found, "import circles: " + " | ".join(why)
