"""The layout's properties, checked on the source: layers import only downward, no import cycles
(lazy imports count), the nevers, at most 12 modules at the top level, none over 450 lines."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "taskproto"

# Each layer may import its own layer and the ones below it (docs/architecture.md).
LAYERS: list[tuple[str, ...]] = [
    ("taskproto", "taskproto.errors", "taskproto.names", "taskproto.plainjson", "taskproto.bulk"),
    ("taskproto.git.files", "taskproto.layout"),
    ("taskproto.git", "taskproto.config"),
    ("taskproto.state", "taskproto.sessions"),
    ("taskproto.machine", "taskproto.classify"),
    ("taskproto.remote", "taskproto.clients", "taskproto.sandbox"),
    # the quick reads (task.json and the state tables on the standard library) and SessionStart's
    # offer built on them: the engine renews the offer after a change, so they sit below it
    (
        "taskproto.hooks.hookconfig",
        "taskproto.hooks.flags",
        "taskproto.hooks.tasks",
        "taskproto.hooks.agents.quiet",
        "taskproto.hooks.agents.offer",
        "taskproto.hooks.agents.offer_cache",
        "taskproto.hooks.agents.offer_known",
    ),
    ("taskproto.engine",),
    ("taskproto.ops", "taskproto.doctor"),
    ("taskproto.hooks", "taskproto.mcp", "taskproto.board", "taskproto.tui"),
    ("taskproto.cli", "taskproto.__main__"),
]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in PACKAGE.rglob("*.py")}


def imports(name: str) -> set[str]:
    """Every taskproto module `name` imports, at the top or inside a function, TYPE_CHECKING too."""
    path = MODULES[name]
    is_pkg = path.name == "__init__.py"
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                here = name.split(".") if is_pkg else name.split(".")[:-1]
                base = ".".join(here[: len(here) - node.level + 1] + ([base] if base else []))
            targets = [base] + [f"{base}.{a.name}" for a in node.names]
        for target in targets:
            while target and target not in MODULES:
                target = target.rpartition(".")[0]
            if target and target != name and not (is_pkg and target.startswith(name + ".")):
                found.add(target)
    return found


@functools.cache
def graph() -> dict[str, set[str]]:
    """Each module's imports: parsed when a test asks, not at collection, which every xdist
    worker does (a second of each worker's CPU)."""
    return {name: imports(name) for name in MODULES}


def layer(name: str) -> int:
    best = (-1, -1)  # (length of the longest matching prefix, layer)
    for rank, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            if (name == prefix or name.startswith(prefix + ".")) and len(prefix) > best[0]:
                best = (len(prefix), rank)
    assert best[1] >= 0, f"{name} belongs to no layer: add it to LAYERS and docs/architecture.md"
    return best[1]


def test_layers_import_only_downward() -> None:
    upward = [
        f"{m} (layer {layer(m)}) imports {t} (layer {layer(t)})"
        for m, targets in graph().items()
        for t in targets
        if layer(t) > layer(m)
    ]
    assert upward == []


def test_no_import_cycles() -> None:
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    cycles: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph()[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                cycles.append(sorted(group))

    for v in graph():
        if v not in index:
            visit(v)
    assert cycles == []


@pytest.mark.parametrize(
    ("importer", "never"),
    [
        ("taskproto.remote", "taskproto.engine"),
        ("taskproto.mcp", "taskproto.cli"),
        ("taskproto.hooks", "taskproto.cli"),
        ("taskproto.board", "taskproto.cli"),
        ("taskproto.tui", "taskproto.cli"),
        ("taskproto.machine", "taskproto.engine"),
        ("taskproto.state", "taskproto.engine"),
    ],
)
def test_the_nevers(importer: str, never: str) -> None:
    bad = [
        f"{m} imports {t}"
        for m, targets in graph().items()
        if m == importer or m.startswith(importer + ".")
        for t in targets
        if t == never or t.startswith(never + ".")
    ]
    assert bad == []


def test_builtin_definitions_do_no_io() -> None:
    io_modules = {"os", "pathlib", "subprocess", "shutil", "socket", "io", "tempfile"}
    for path in (PACKAGE / "machine" / "builtin").glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                assert not {a.name.split(".")[0] for a in node.names} & io_modules, path
            elif isinstance(node, ast.ImportFrom) and node.module:
                assert node.module.split(".")[0] not in io_modules, path
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id != "open", f"{path}:{node.lineno} opens a file"


def test_at_most_twelve_modules_at_the_top_and_none_too_long() -> None:
    top = [p.name for p in PACKAGE.glob("*.py") if p.name not in ("__init__.py", "__main__.py")]
    assert len(top) <= 12, top
    long = [
        f"{p}: {n}" for p in PACKAGE.rglob("*.py") if (n := len(p.read_text().splitlines())) > 450
    ]
    assert long == []
