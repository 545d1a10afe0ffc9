"""The import structure of the library: no circles, and the layers of DESIGN §3.

``errors ← cards ← rng ← core ← games ← serde ← (testing, bots, store, rl) ← (web, cli)``:
a module may import its own layer and the layers to its left, never one to its right.

How imports are read (decisions, also in docs/decisions.md):

* Every ``import`` / ``from … import`` of a ``cardkit`` module found anywhere in a module's
  source counts, function-level imports included: a deferred import is still a
  dependency, and hiding a circle inside a function is how circles are usually kept.
* Imports under ``if TYPE_CHECKING:`` never run. They are exempt from the circle check
  (annotations may name each other) but not from the layer order: a type-only import of
  an upper layer is still an arrow up in the design.
* ``from pkg import name`` is an import of ``pkg.name`` when that is a module, else of
  ``pkg``. The implicit import of parent packages is not an edge (it is how Python runs
  packages, not a choice of the module), and neither are the registry's lazy, string-named
  imports of the built-in games (``cardkit.games._BUILTIN_GAMES``).
* The root package ``cardkit`` is the public facade: it imports its names lazily, on first
  use. Its layer is the highest layer it re-exports from (so ``core`` may not
  ``import cardkit``, while ``store`` and ``cli`` may).
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

LONG = os.environ.get("CARDKIT_LONG") == "1"
SRC = Path(__file__).resolve().parent.parent / "src"
PACKAGE = SRC / "cardkit"

# Left to right: a module may import its own layer and the ones before it. A module is
# placed by the longest prefix that matches its dotted name.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    # parallel is a stdlib-only helper (process pools) that imports nothing of cardkit;
    # cluster opens Dask executors for it (Dask imported on use) and raises ConfigError
    ("errors", ("cardkit.errors", "cardkit.parallel", "cardkit.cluster")),
    # the game kernels: restricted int-coded Python (compiled by mypyc) importing nothing of
    # cardkit but each other; the games' bridges (games/<game>/kernel.py) sit above them.
    # _kernel_build (stdlib only) builds them and keeps the build record their loader reads.
    ("kernels", ("cardkit.kernels", "cardkit._kernel_build")),
    # render draws cards as text (used by the games' describe and by the CLI)
    ("cards", ("cardkit.cards", "cardkit.render")),
    ("rng", ("cardkit.rng",)),
    ("core", ("cardkit.core",)),
    ("games", ("cardkit.games",)),
    # api ties the registry to the engine (new_game, replay by name): above the games
    ("serde", ("cardkit.serde", "cardkit.api")),
    ("tools", ("cardkit.testing", "cardkit.bots", "cardkit.store", "cardkit.rl")),
    ("apps", ("cardkit.web", "cardkit.cli")),
)


def _modules() -> dict[str, tuple[Path, bool]]:
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts = parts[:-1]
        out[".".join(parts)] = (path, is_package)
    return out


MODULES = _modules()


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _owner(name: str) -> str | None:
    """The module that ``name`` (a module or a module's attribute) belongs to."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _imports(module: str) -> tuple[set[str], set[str]]:
    """(run-time imports, type-checking-only imports) of ``module``: cardkit modules."""
    path, is_package = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    runtime: set[str] = set()
    typing_only: set[str] = set()

    def targets(node: ast.Import | ast.ImportFrom) -> set[str]:
        found: set[str] = set()
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "cardkit" or alias.name.startswith("cardkit."):
                    found.add(_owner(alias.name) or alias.name)
            return found
        if node.level:
            base = module.split(".") if is_package else module.split(".")[:-1]
            base = base[: len(base) - (node.level - 1)]
            name = ".".join(base + ([node.module] if node.module else []))
        else:
            name = node.module or ""
        if name != "cardkit" and not name.startswith("cardkit."):
            return found
        for alias in node.names:
            full = f"{name}.{alias.name}"
            found.add(full if full in MODULES else (_owner(name) or name))
        return found

    def visit(node: ast.AST, type_only: bool) -> None:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            (typing_only if type_only else runtime).update(targets(node))
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.body:
                visit(child, True)
            for child in node.orelse:
                visit(child, type_only)
            return
        for child in ast.iter_child_nodes(node):
            visit(child, type_only)

    visit(tree, False)
    runtime.discard(module)
    typing_only.discard(module)
    return runtime, typing_only - runtime


IMPORTS = {m: _imports(m) for m in MODULES}


def _layer_of(module: str) -> int | None:
    best: tuple[int, int] | None = None
    for index, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if module == prefix or module.startswith(prefix + "."):
                if best is None or len(prefix) > best[1]:
                    best = (index, len(prefix))
    return None if best is None else best[0]


def _layer(module: str) -> int:
    if module == "cardkit":  # the facade: as high as what it re-exports
        runtime, typing_only = IMPORTS["cardkit"]
        return max(_layer(m) for m in runtime | typing_only if m != "cardkit")
    layer = _layer_of(module)
    assert layer is not None, f"{module} has no layer: add it to LAYERS"
    return layer


def _cycles(edges: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []
    counter = 0
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(frozenset(component))
    return found


def test_the_reader_sees_imports_of_every_kind() -> None:
    # The checks below are only as good as the import reader: it must see function-level
    # and relative imports and tell type-checking imports apart.
    runtime, typing_only = IMPORTS["cardkit.api"]
    assert "cardkit.games" in runtime and "cardkit.core.game" in runtime
    assert "cardkit.games.wizard.actions" in typing_only
    runtime, _ = IMPORTS["cardkit.games.cutthroat_spades.rules"]
    assert "cardkit.games.cutthroat_spades.describe" in runtime  # imported inside a method
    assert len(MODULES) > 100


def test_no_import_circles() -> None:
    edges = {m: {t for t in IMPORTS[m][0] if t in MODULES} for m in MODULES}
    cycles = [sorted(c) for c in _cycles(edges)]
    assert cycles == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    found = _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}})
    assert found == [frozenset({"a", "b", "c"})]


def test_every_module_has_a_layer() -> None:
    assert [m for m in MODULES if m != "cardkit" and _layer_of(m) is None] == []


def test_imports_follow_the_layers() -> None:
    wrong = []
    for module in MODULES:
        if module == "cardkit":
            continue
        runtime, typing_only = IMPORTS[module]
        for target in sorted(runtime | typing_only):
            if target in MODULES and _layer(target) > _layer(module):
                wrong.append(
                    f"{module} ({LAYERS[_layer(module)][0]}) imports {target} "
                    f"({LAYERS[_layer(target)][0]})"
                )
    assert wrong == []


def _game_of(module: str) -> str | None:
    """The game package ``module`` belongs to (``wizard`` for ``cardkit.games.wizard.rules``);
    None outside one. A game is a package under ``cardkit.games``; the modules beside them
    (the registry, ``notation``, ``guards``) are shared by the games, not games."""
    parts = module.split(".")
    if len(parts) < 3 or parts[:2] != ["cardkit", "games"]:
        return None
    package = ".".join(parts[:3])
    return parts[2] if MODULES.get(package, (None, False))[1] else None


def test_a_game_never_imports_another_game() -> None:
    wrong = []
    for module in MODULES:
        game = _game_of(module)
        if game is None:
            continue
        runtime, typing_only = IMPORTS[module]
        for target in runtime | typing_only:
            other = _game_of(target)
            if other is not None and other != game:
                wrong.append(f"{module} imports {target}")
    assert wrong == []
    assert _game_of("cardkit.games.wizard.rules") == "wizard"
    assert _game_of("cardkit.games.notation") is None and _game_of("cardkit.games") is None


# Modules whose third-party dependencies are optional extras: importing one alone may fail
# only for want of that dependency.
_IMPORT_ALONE = """
import importlib, sys
failed = []
for name in sys.argv[1:]:
    for loaded in [m for m in sys.modules if m == "cardkit" or m.startswith("cardkit.")]:
        del sys.modules[loaded]
    try:
        importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] == "cardkit":
            failed.append(f"{name}: {exc!r}")
    except Exception as exc:
        failed.append(f"{name}: {exc!r}")
print("\\n".join(failed))
"""


def _import_alone(modules: list[str]) -> None:
    # Each module first, in a fresh set of cardkit modules: an import circle that works in
    # one order of first imports and breaks in another shows up here.
    result = subprocess.run(
        [sys.executable, "-c", _IMPORT_ALONE, *modules],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "PYTHONPATH": str(SRC)},
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == ""


# The default slice: the modules of the circles untangled in issue 24 and the arrow up
# (each game's start.py), and the layers' entry points. All modules: CARDKIT_LONG=1.
_ALONE_SLICE = [
    "cardkit", "cardkit.api", "cardkit.core.game", "cardkit.core.log", "cardkit.core.knowledge",
    "cardkit.core.seat", "cardkit.core.start", "cardkit.games",
    "cardkit.games.cutthroat_spades.action_space", "cardkit.games.cutthroat_spades.layout",
    "cardkit.games.cutthroat_spades.rules",
    *(f"cardkit.games.{g}.start" for g in ("crazy_eights", "cutthroat_spades", "spacc_u_mazz", "wizard")),
]  # fmt: skip


def test_modules_of_the_former_circles_import_alone() -> None:
    assert set(_ALONE_SLICE) <= set(MODULES)
    _import_alone(_ALONE_SLICE)


@pytest.mark.slow
@pytest.mark.skipif(not LONG, reason="long run: CARDKIT_LONG=1")
def test_every_module_imports_alone() -> None:
    _import_alone(sorted(MODULES))


@pytest.mark.parametrize("game", ["crazy_eights", "cutthroat_spades", "spacc_u_mazz", "wizard"])
def test_a_games_typed_start_stays_below_the_api(game: str) -> None:
    runtime, typing_only = IMPORTS[f"cardkit.games.{game}.start"]
    assert "cardkit.api" not in runtime | typing_only
