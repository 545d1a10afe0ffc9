"""What an object lets its holder reach, and whether that includes a host's secrets.

A bot receives a :class:`~cardkit.core.seat.SeatState`, a learning agent an observation and
an info dict. Python hides nothing: whatever those objects reference (a closure's cells, a
bound method's ``__self__``, a private slot) is one attribute access away. So "a bot cannot
read the true state" is checked here by walking every reference from the inputs, breadth
first (:func:`gc.get_referents`), and looking for the game, its full state, its log's
nodes and chance actions, and its seed.

What the walk does not enter, and why: modules and classes (a bot can import those anyway;
they are code, not this game's data), a function's globals and code (the same), and the
namespace dict of any loaded module. It does enter closures' cells, functions' defaults,
bound methods' ``__self__`` and ``__func__``, live weak references, instances' slots and
dicts, containers and frames.
"""

from __future__ import annotations

import gc
import sys
import types
import weakref
from collections import deque
from typing import Any, Iterable, Iterator

from cardkit.core.game import Game, _Line
from cardkit.core.rules import Shuffle
from cardkit.rng import Rng

__all__ = ["reachable", "secrets_reachable"]

_NOT_ENTERED = (types.ModuleType, type, types.CodeType)


def _children(obj: object, namespaces: set[int]) -> Iterator[tuple[str, object]]:
    """The objects ``obj`` references, each with a short label of how."""
    if isinstance(obj, _NOT_ENTERED) or id(obj) in namespaces:
        return
    if isinstance(obj, types.FunctionType):
        for i, cell in enumerate(obj.__closure__ or ()):
            try:
                yield f"{obj.__qualname__}.<cell {i}>", cell.cell_contents
            except ValueError:  # an empty cell
                pass
        yield "__defaults__", obj.__defaults__
        yield "__kwdefaults__", obj.__kwdefaults__
        yield "__dict__", obj.__dict__
        return
    if isinstance(obj, types.MethodType):
        yield "__self__", obj.__self__
        yield "__func__", obj.__func__
        return
    if isinstance(obj, (types.BuiltinMethodType, types.MethodWrapperType)):
        yield "__self__", obj.__self__
        return
    if isinstance(obj, weakref.ref):
        yield "<weakref target>", obj()
    for child in gc.get_referents(obj):
        yield type(child).__name__, child


def reachable(*roots: object, limit: int = 2_000_000) -> Iterator[tuple[object, str]]:
    """Every object reachable from ``roots`` (see the module docstring), each once, breadth
    first, with the path that reached it (a ``/``-separated string of labels).

    :class:`RuntimeError` past ``limit`` objects: a walk that is cut short proves nothing.
    """
    namespaces = {id(vars(m)) for m in list(sys.modules.values()) if hasattr(m, "__dict__")}
    seen: set[int] = set()
    keep: list[object] = []  # seen ids stay meaningful: every walked object is kept alive
    queue: deque[tuple[object, str]] = deque((root, f"root {i}") for i, root in enumerate(roots))
    while queue:
        obj, path = queue.popleft()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        keep.append(obj)
        if len(seen) > limit:
            raise RuntimeError(f"more than {limit} objects reachable: the walk was cut short")
        yield obj, path
        for label, child in _children(obj, namespaces):
            if id(child) not in seen:
                queue.append((child, f"{path}/{label}"))


def secrets_reachable(roots: Iterable[object], game: Game[Any, Any], limit: int = 2_000_000) -> list[str]:
    """What of ``game``'s host-side secrets is reachable from ``roots``: the game itself (or
    any other :class:`~cardkit.core.game.Game`), the full state or a state snapshot of its
    log, a log node, a chance ``Shuffle`` action, a :class:`~cardkit.rng.Rng`, or an ``int``
    equal to the seed. Each finding is described with the path that reaches it; ``[]``
    means none.
    """
    states = {id(game.state): "the true state"}
    nodes: set[int] = set()
    node = game._head
    while node is not None:
        nodes.add(id(node))
        if node[6] is not None:  # a snapshot: the state after that entry
            states[id(node[6])] = f"the state snapshot after entry {node[0]}"
        node = node[4]
    seed = game.seed
    found = []
    for obj, path in reachable(*roots, limit=limit):
        what = None
        if isinstance(obj, Game):
            what = "a Game"
        elif isinstance(obj, _Line):
            what = "a Game's shared line (it holds the seed)"
        elif id(obj) in states:
            what = states[id(obj)]
        elif id(obj) in nodes:
            what = "a node of the game's log"
        elif isinstance(obj, Shuffle):
            what = "a chance Shuffle action"
        elif isinstance(obj, Rng):
            what = "a random generator"
        elif type(obj) is int and obj == seed:
            what = "the seed"
        if what is not None:
            found.append(f"{what} at {path}")
    return found
