"""The game kernels' sides of the whole-game race: compiled and interpreted, in one process.

A kernel module compiled by mypyc (a ``.so`` next to its ``.py``) shadows its source, so
``import cardkit.kernels.crazy_eights`` gives the compiled build when one is importable
and the source otherwise. To race both builds in the same process, interleaved, the
interpreted side is loaded **from the source files** under other module names
(``importlib.util.spec_from_file_location``): ``_base.py``, ``random_play.py``, the
game's kernel and its bridge, with ``sys.modules`` and the ``cardkit.kernels`` package's
attributes pointing the kernel's and the bridge's own imports (``from
cardkit.kernels._base import ...``, ``from cardkit.kernels import wizard``) at the
source-loaded modules while they load.
The bridge loaded that way builds interpreted kernels; the ordinary bridge builds
whatever the import gave. Nothing else of cardkit is loaded twice.

A side plays whole games inside the kernel: uniformly random legal actions and random
chance (``chance_random``) from a ``KRng`` seeded with the game's seed, one Python call
per game, as OpenSpiel's ``evaluate_bots`` plays whole games in C++ with one call per
game. The loop is the game kernel's own whole-game loop where it has one (:data:`LOOPS`:
they skip building the legal list or inline the draws), else the generic
``cardkit.kernels.random_play.random_game`` (``actor``/``legal``/``apply``); the side's
label names it. Only player actions are counted.
"""

from __future__ import annotations

import importlib.util
import os
import random
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, Callable

import cardkit
from cardkit.kernels.bridge import bridge_for

from harness import Workload, units

__all__ = ["build_note", "compiled_importable", "kernel_workload", "kernel_same_game", "has_kernel"]

_SRC = Path(cardkit.__file__).resolve().parent.parent
_PURE_PREFIX = "_cardkit_pure."


def _compiled(module: ModuleType) -> bool:
    return not str(getattr(module, "__file__", "")).endswith(".py")


def compiled_importable() -> bool:
    """Whether ``import cardkit.kernels._base`` gives a compiled module."""
    import cardkit.kernels._base as base

    return _compiled(base)


def build_note() -> str:
    """One line: which kernel builds this run measures, and from where."""
    import cardkit.kernels
    import cardkit.kernels._base as base

    switch = os.environ.get("CARDKIT_KERNELS")
    env = f"; CARDKIT_KERNELS={switch}" if switch else ""
    reason = getattr(cardkit.kernels, "BUILD_REASON", None)
    if reason:  # the loader's own account (cardkit --version prints the build too)
        env += f"; loader: kernels {getattr(cardkit.kernels, 'BUILD', '?')} ({reason})"
    if _compiled(base):
        return (f"kernels: compiled build importable ({Path(str(base.__file__)).name}) and measured as 'kernel "
                f"compiled'; 'kernel interpreted' = the same sources loaded as plain Python{env}")
    return (f"kernels: no compiled build importable (pure sources only): 'kernel compiled' not measured; "
            f"'kernel interpreted' = the sources as plain Python{env}")


def has_kernel(game: str, players: int, options: dict[str, Any]) -> bool:
    """Whether the game has a kernel for this configuration on this branch."""
    rules = cardkit.get_rules(game)
    return bridge_for(rules, rules.config(players, **options)) is not None


def _load_source(name: str) -> ModuleType:
    """Module ``name`` (``cardkit.x.y``) executed from its ``.py`` under a private name."""
    path = _SRC / (name.replace(".", "/") + ".py")
    spec = importlib.util.spec_from_file_location(_PURE_PREFIX + name, path)
    assert spec is not None and spec.loader is not None, path
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


LOOPS: dict[str, tuple[str, str, bool]] = {
    "crazy-eights": ("method", "random_playout", True),
    "wizard": ("method", "play_random", False),
    "cutthroat-spades": ("method", "play_random", True),
    "spacc-u-mazz": ("function", "random_playout", False),
}
"""A game's own whole-game loop: (a kernel method or a kernel-module function, its name,
whether it takes a step limit)."""

_LIMIT = 1_000_000


def _loop(game: str, start: Any, generic: Callable[..., int]) -> tuple[Callable[[Any, Any], int], str]:
    """``(play(kernel, rng) -> player actions, its name)`` for ``game``'s kernel ``start``."""
    kind, name, limited = LOOPS.get(game, ("", "", False))
    if kind == "method" and hasattr(type(start), name):
        if limited:
            return (lambda k, rng: int(getattr(k, name)(rng, _LIMIT))), f"kernel.{name}"
        return (lambda k, rng: int(getattr(k, name)(rng))), f"kernel.{name}"
    module = sys.modules[type(start).__module__]
    if kind == "function" and hasattr(module, name):
        function = getattr(module, name)
        return (lambda k, rng: int(function(k, rng))), name
    return (lambda k, rng: generic(k, rng, _LIMIT)), "random_game"


_pure_cache: dict[str, tuple[ModuleType, ModuleType, ModuleType]] = {}


def _pure_modules(bridge_module: str, kernel_module: str) -> tuple[ModuleType, ModuleType, ModuleType]:
    """``(base, random_play, bridge)`` loaded from source (see the module docs)."""
    key = bridge_module
    if key not in _pure_cache:
        import cardkit.kernels as package

        names = ("cardkit.kernels._base", "cardkit.kernels.random_play", kernel_module)
        saved = {name: sys.modules.get(name) for name in names}
        # `from cardkit.kernels import wizard` reads the package's attribute, not sys.modules
        attributes = {name: getattr(package, name.rpartition(".")[2], None) for name in names}
        try:
            loaded = {}
            for name in names:
                loaded[name] = _load_source(name)
                sys.modules[name] = loaded[name]  # what the next modules import
                setattr(package, name.rpartition(".")[2], loaded[name])
            bridge = _load_source(bridge_module)
        finally:
            for name, module in saved.items():
                if module is None:
                    sys.modules.pop(name, None)
                else:
                    sys.modules[name] = module
            for name, value in attributes.items():
                if value is None:
                    delattr(package, name.rpartition(".")[2])
                else:
                    setattr(package, name.rpartition(".")[2], value)
        _pure_cache[key] = (loaded[names[0]], loaded[names[1]], bridge)
    return _pure_cache[key]


def _sides(game: str, players: int, options: dict[str, Any], build: str) -> tuple[Any, Any, Callable[..., int]]:
    """``(start kernel, KRng class, random_game)`` of one build."""
    rules = cardkit.get_rules(game)
    config = rules.config(players, **options)
    bridge = bridge_for(rules, config)
    assert bridge is not None
    state = rules.initial_state(config)
    if build == "compiled":
        from cardkit.kernels._base import KRng
        from cardkit.kernels.random_play import random_game

        return bridge.kernel(state), KRng, random_game
    kernel_module = type(bridge.kernel(state)).__module__
    base, play, pure_bridge = _pure_modules(type(bridge).__module__, kernel_module)
    bridge_class = getattr(pure_bridge, type(bridge).__name__)
    start = bridge_class(config).kernel(state)
    assert not _compiled(sys.modules[type(start).__module__]), "the interpreted side must run the sources"
    return start, base.KRng, play.random_game


def kernel_workload(config: Any, build: str) -> Workload:
    """Whole random games inside the kernel, ``build`` ``compiled`` or ``interpreted``."""
    start, krng, random_game = _sides(config.game, config.players, config.options, build)
    play, name = _loop(config.game, start, random_game)

    def prepare(games: int, first: int = 1) -> Callable[[], object]:
        def body() -> object:
            total = 0
            for seed in range(first, first + games):
                total += play(start.copy(), krng(seed))
            return total

        return body

    key = "kc" if build == "compiled" else "kp"
    return Workload(f"{key} {config.label}", f"kernel {build}, {name}", "player actions", prepare, units)


def kernel_same_game(game: str, players: int, options: dict[str, Any], seed: int) -> int:
    """The player actions of game ``seed`` played on the kernel with the reducer side's
    policy (``legal[int(rnd() * len(legal))]``) and chance drawn from the seed as ``Game``
    draws it: equal to ``workloads.pure_playout`` when the kernel plays the same game."""
    from cardkit.bots.kernel_play import play_on_kernel

    rules = cardkit.get_rules(game)
    config = rules.config(players, **options)
    bridge = bridge_for(rules, config)
    assert bridge is not None
    rnd = random.Random(seed).random

    def choose(kernel: Any, seat: int) -> int:
        legal = kernel.legal()
        return int(legal[int(rnd() * len(legal))])

    played = play_on_kernel(bridge, rules, config, seed, choose, 10**9)
    assert played is not None, f"the {game} kernel cannot draw chance from a seed (no chance_cards)"
    return played.seat_actions
