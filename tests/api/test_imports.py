"""No import circles in `api/`, `webui/` and `bench/`, nor among the page's scripts (`webui/static/js`).

Each Python module is parsed with `ast` and every import it makes, at its top or inside a function, is an edge
of the graph of modules: `from . import store` and `from .store import X` both lead to `api.store`. A circle
(two modules that need each other, however far round) is named with the path that closes it: the cure is
the helper that sits in the wrong module, moved to where both can import it.
"""

import ast
import re
from pathlib import Path

import pytest

ROOT = next(folder for folder in Path(__file__).resolve().parents if (folder / "pyproject.toml").exists())
PACKAGES = ("api", "webui", "bench")
SCRIPTS = ROOT / "webui" / "static" / "js"
JS_IMPORT = re.compile(r"""\b(?:import|export)\s*(?:[\w*{}\s,$]+?\s*from\s*)?\(?\s*["'](\.{1,2}/[^"']+)["']""")


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def python_modules(root: Path = ROOT, packages=PACKAGES) -> dict[str, Path]:
    return {module_name(path, root): path for package in packages for path in sorted((root / package).rglob("*.py"))}


def imported(name: str, path: Path, source: str, known: set[str]) -> set[str]:
    """The modules of `known` that the module `name` (at `path`) imports anywhere in `source`."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1] if node.level > 1 else base
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            # `from package import name`: the submodule when `name` is one, else the module itself
            targets = [f"{module}.{alias.name}" if f"{module}.{alias.name}" in known else module
                       for alias in node.names]
        else:
            continue
        found |= {target for target in targets if target in known and target != name}
    return found


def python_graph(root: Path = ROOT, packages=PACKAGES) -> dict[str, set[str]]:
    modules = python_modules(root, packages)
    return {name: imported(name, path, path.read_text(encoding="utf-8"), set(modules))
            for name, path in modules.items()}


def script_graph(folder: Path = SCRIPTS) -> dict[str, set[str]]:
    """The page's modules (their paths under `folder`) and the ones each imports (`import ... from "./x.js"`,
    `export ... from "./x.js"`, `import("./x.js")`)."""
    graph = {}
    for path in sorted(folder.rglob("*.js")):
        text = path.read_text(encoding="utf-8")
        graph[path.relative_to(folder).as_posix()] = {
            (path.parent / target).resolve().relative_to(folder.resolve()).as_posix()
            for target in JS_IMPORT.findall(text)}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Each group of modules that import each other (a strongly connected component of the graph, Tarjan's),
    as one circle through it: a path from its first module back to it."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.add(member)
                if member == node:
                    break
            if len(group) > 1 or node in graph.get(node, ()):
                groups.append(group)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return [circle_through(graph, group) for group in sorted(groups, key=min)]


def circle_through(graph: dict[str, set[str]], group: set[str]) -> list[str]:
    """The shortest path from the group's first module back to it, within the group (breadth first)."""
    start = min(group)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for target in sorted(graph[node] & group):
                if target == start:
                    return [*paths[node], start]
                if target not in paths:
                    paths[target] = [*paths[node], target]
                    following.append(target)
        frontier = following
    raise AssertionError(f"no circle through {sorted(group)}")  # pragma: no cover - a group has one


def described(found: list[list[str]]) -> str:
    return "\n".join(" -> ".join(circle) for circle in found)


def test_the_graph_holds_every_module_and_its_imports():
    graph = python_graph()
    assert {"api.store", "api.views", "webui.ca", "bench.load", "bench.capacity"} <= set(graph)
    assert {"api.bodies", "api.matches"} <= graph["api.views"]
    assert len(graph) >= 40
    scripts = script_graph()
    assert {"main.js", "table.js", "hands.js", "games/ranks.js"} <= set(scripts)
    assert "games/ranks.js" in scripts["play.js"]


def test_no_circles_among_the_python_modules():
    found = circles(python_graph())
    assert not found, "import circles (move the helper both need where both can import it):\n" + described(found)


def test_no_circles_among_the_page_scripts():
    found = circles(script_graph())
    assert not found, "import circles among webui/static/js:\n" + described(found)


@pytest.fixture
def tree(tmp_path):
    def make(files: dict[str, str]) -> Path:
        for name, source in files.items():
            (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / name).write_text(source, encoding="utf-8")
        return tmp_path

    return make


def test_the_check_sees_a_circle_through_a_function_level_import(tree):
    root = tree({
        "pkg/__init__.py": "",
        "pkg/a.py": "from . import b\n",
        "pkg/b.py": "def later():\n    from .c import thing\n",
        "pkg/c.py": "from pkg.a import other\n",
        "pkg/d.py": "from .a import x\n",
    })
    graph = python_graph(root, ("pkg",))
    assert graph["pkg.b"] == {"pkg.c"}
    assert circles(graph) == [["pkg.a", "pkg.b", "pkg.c", "pkg.a"]]


def test_the_check_resolves_packages_and_parent_imports(tree):
    root = tree({
        "pkg/__init__.py": "from .sub import thing\n",
        "pkg/sub/__init__.py": "from .base import X\nfrom . import inner\n",
        "pkg/sub/base.py": "import os\nfrom ..other import y\n",
        "pkg/sub/inner.py": "from pkg.sub import base\n",
        "pkg/other.py": "import json\n",
    })
    graph = python_graph(root, ("pkg",))
    assert graph == {
        "pkg": {"pkg.sub"},
        "pkg.sub": {"pkg.sub.base", "pkg.sub.inner"},
        "pkg.sub.base": {"pkg.other"},
        "pkg.sub.inner": {"pkg.sub.base"},
        "pkg.other": set(),
    }
    assert circles(graph) == []
    graph["pkg.sub.base"].add("pkg.sub")
    assert circles(graph) == [["pkg.sub", "pkg.sub.base", "pkg.sub"]]


def test_the_check_sees_a_circle_among_scripts(tree):
    folder = tree({
        "a.js": 'import { b } from "./b.js";\nimport {\n  c,\n  d,\n} from "./games/c.js";\n',
        "b.js": 'import "./a.js";\n',
        "games/c.js": 'import { x } from "../a.js";\nconst later = () => import("./d.js");\n',
        "games/d.js": 'export const d = "./a.js"; // import { nothing } from elsewhere\nexport { e } from "./e.js";\n',
        "games/e.js": "export const e = 2;\n",
    })
    graph = script_graph(folder)
    assert graph == {"a.js": {"b.js", "games/c.js"}, "b.js": {"a.js"}, "games/c.js": {"a.js", "games/d.js"},
                     "games/d.js": {"games/e.js"}, "games/e.js": set()}
    assert circles(graph) == [["a.js", "b.js", "a.js"]]
