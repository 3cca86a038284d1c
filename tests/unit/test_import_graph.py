"""No import cycles between websearch_core's modules.

A cycle makes a module's behaviour depend on which of its partners happened to be
imported first (a half-initialised module, a name not defined yet), which shows up only in
some entry points. The graph is read from the source: every module-level import of a
``websearch_core`` module is an edge; imports under ``if TYPE_CHECKING:`` (never run) and
inside functions (run after every module has loaded) are not. Importing ``a.b.c`` also
runs the ``__init__`` of its package ``a.b``, so that is an edge too (the root package is
left out: it is loaded before anything and exports lazily).

Counting lazy and type-only imports as well, there is no cycle either: a cycle closed only
by a function-level or ``TYPE_CHECKING`` import still means two modules that cannot be
understood, typed or moved apart (the request loop sees a provider through
:mod:`websearch_core.provider_types`, the settings check ids against
:mod:`websearch_core.provider_ids`, page fetching types the client by the method it uses).
"""

import ast
import graphlib
from collections.abc import Iterator
from pathlib import Path

import websearch_core

PACKAGE_DIR = Path(websearch_core.__file__).parent
PACKAGE = "websearch_core"


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE_DIR.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(path): path for path in sorted(PACKAGE_DIR.rglob("*.py"))}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _module_level_imports(body: list[ast.stmt]) -> Iterator[ast.Import | ast.ImportFrom]:
    """Imports that run when the module loads: not in functions, not under TYPE_CHECKING."""
    for node in body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        elif isinstance(node, ast.If):
            if not _is_type_checking(node.test):
                yield from _module_level_imports(node.body)
            yield from _module_level_imports(node.orelse)
        elif isinstance(node, ast.Try):
            for block in (node.body, node.orelse, node.finalbody):
                yield from _module_level_imports(block)
            for handler in node.handlers:
                yield from _module_level_imports(handler.body)
        elif isinstance(node, ast.With | ast.ClassDef):
            yield from _module_level_imports(node.body)


def _targets(name: str, node: ast.Import | ast.ImportFrom, modules: dict[str, Path]) -> set[str]:
    """The package modules an import statement in module ``name`` loads."""
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names if alias.name in modules}
    if node.level:
        is_package = modules[name].name == "__init__.py"
        base = name.split(".")
        base = base if is_package else base[:-1]
        base = base[: len(base) - (node.level - 1)]
        source = ".".join([*base, node.module] if node.module else base)
    else:
        source = node.module or ""
    found = set()
    for alias in node.names:
        submodule = f"{source}.{alias.name}"
        # ``from . import x`` loads the submodule x; ``from .x import y`` loads .x.
        found.add(submodule if submodule in modules else source)
    return {module for module in found if module in modules}


def _every_import(tree: ast.Module) -> Iterator[ast.Import | ast.ImportFrom]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node


def _with_packages(name: str, targets: set[str], modules: dict[str, Path]) -> set[str]:
    """``targets`` plus the subpackages whose ``__init__`` importing them runs first."""
    found = set(targets)
    for target in targets:
        parts = target.split(".")
        for end in range(2, len(parts)):
            package = ".".join(parts[:end])
            if package in modules and not name.startswith(package + "."):
                found.add(package)
    return found


def import_graph(
    *, load_time_only: bool = True, with_packages: bool = False
) -> dict[str, set[str]]:
    """Module name to the package modules it imports (at load time, or anywhere).

    With ``with_packages``, importing a submodule also counts as importing each package
    above it (below the root), whose ``__init__`` Python runs first.
    """
    modules = _modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        imports = _module_level_imports(tree.body) if load_time_only else _every_import(tree)
        edges: set[str] = set()
        for node in imports:
            edges |= _targets(name, node, modules)
        if with_packages:
            edges = _with_packages(name, edges, modules)
        edges.discard(name)
        graph[name] = edges
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import cycle (first module repeated at the end), or ``[]`` when there is none."""
    try:
        graphlib.TopologicalSorter(graph).prepare()
    except graphlib.CycleError as error:
        return list(error.args[1])
    return []


def test_the_graph_is_read_from_real_imports() -> None:
    graph = import_graph()
    # Spot checks that the walk sees relative, nested-package and ``from . import`` edges.
    assert "websearch_core.orchestration.attempt" in graph["websearch_core.orchestration"]
    assert "websearch_core.providers.base" in graph["websearch_core.orchestration.ledger"]
    assert "websearch_core.state.base" in graph["websearch_core.state.sqlite"]
    assert "websearch_core.orchestration.fanout" in graph["websearch_core.providers.public"]


def test_the_cycle_finder_names_the_modules_of_a_cycle() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) == []
    cycle = find_cycle({"a": {"b"}, "b": {"a"}, "c": {"a"}})
    assert cycle[0] == cycle[-1] and set(cycle) == {"a", "b"}


def test_the_walk_skips_type_checking_and_function_level_imports() -> None:
    source = (
        "from typing import TYPE_CHECKING\n"
        "from .a import x\n"
        "if TYPE_CHECKING:\n"
        "    from .b import y\n"
        "def f():\n"
        "    from .c import z\n"
        "try:\n"
        "    from .d import w\n"
        "except ImportError:\n"
        "    pass\n"
    )
    tree = ast.parse(source)
    modules = {name: Path(f"{name}.py") for name in ("p.m", "p.a", "p.b", "p.c", "p.d")}
    modules["p"] = Path("__init__.py")
    found: set[str] = set()
    for node in _module_level_imports(tree.body):
        found |= _targets("p.m", node, modules)
    assert found == {"p.a", "p.d"}


def test_importing_a_submodule_counts_its_package() -> None:
    modules = {name: Path(f"{name}.py") for name in ("p", "p.q.r", "p.s")}
    modules["p.q"] = Path("__init__.py")
    assert _with_packages("p.s", {"p.q.r"}, modules) == {"p.q.r", "p.q"}
    assert _with_packages("p.q.t", {"p.q.r"}, modules) == {"p.q.r"}  # already inside p.q
    graph = import_graph(with_packages=True)
    assert "websearch_core.providers" in graph["websearch_core.orchestration.ledger"]


def test_websearch_core_has_no_import_cycles() -> None:
    cycle = find_cycle(import_graph(with_packages=True))
    assert cycle == [], "import cycle: " + " -> ".join(cycle)


def test_no_cycle_even_counting_lazy_and_type_only_imports() -> None:
    cycle = find_cycle(import_graph(load_time_only=False))
    assert cycle == [], "import cycle (lazy or type-only): " + " -> ".join(cycle)


DECOUPLED = ("websearch_core.browser", "websearch_core.orchestration", "websearch_core.state")
"""Layers that must not depend back on what uses them, not even lazily or for types: the
browser knows nothing of providers, orchestration is above the providers it runs (the
registry loads providers by name), and the state backends sit under their interface."""


def test_lower_layers_are_in_no_cycle_even_counting_lazy_and_type_only_imports() -> None:
    graph = import_graph(load_time_only=False)
    within = {name for name in graph if name.startswith(DECOUPLED)}
    # Every cycle through one of these modules, even one closed only by a function-level
    # or TYPE_CHECKING import, shows up as a cycle of the subgraph reachable from it.
    for start in sorted(within):
        reachable = {start}
        frontier = [start]
        while frontier:
            for target in graph[frontier.pop()]:
                if target not in reachable:
                    reachable.add(target)
                    frontier.append(target)
        assert not any(start in graph[module] for module in reachable), (
            f"{start} is imported back by a module it imports (lazily or for types)"
        )
