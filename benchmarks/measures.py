"""The single measures of the performance targets that are not throughput races.

Serde against the standard library on one long log, the per-seat query for the newest
entry of a long game, start-up costs in fresh interpreters, and memory per log entry.
Each function returns plain numbers; ``run.py`` prints them next to their targets.
"""

from __future__ import annotations

import gc
import json
import os
import random
import subprocess
import sys
import time
import tracemalloc
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import cardkit

from workloads import Config, play_game

__all__ = [
    "SerdeCost",
    "serde_cost",
    "long_log_game",
    "newest_entry_costs",
    "StartupCost",
    "startup_cost",
    "memory_per_entry",
    "play_cost",
    "undo_cost",
]


def _best_cpu(call: Callable[[], object], repeats: int) -> float:
    """The smallest CPU time (seconds) of ``repeats`` calls."""
    best = float("inf")
    for _ in range(repeats):
        gc.collect()
        start = time.process_time()
        call()
        best = min(best, time.process_time() - start)
    return best


def long_log_game(config: Config, entries: int) -> cardkit.Game:
    """A random game of ``config`` (long options) whose log holds ``entries`` entries.

    The game is cut once the log reaches ``entries``; one play can add a chance entry
    too, so the count may exceed it by a few (callers print the exact count).
    """
    return play_game(config, 7, config.long_options, max_entries=entries)


@dataclass(frozen=True)
class SerdeCost:
    """Best CPU seconds of cardkit's and the standard library's JSON on the same log text."""

    entries: int
    chars: int
    loads: float
    json_loads: float
    dumps: float
    json_dumps: float


def serde_cost(game: cardkit.Game, repeats: int) -> SerdeCost:
    """``cardkit.loads`` vs ``json.loads`` of the same text; ``cardkit.dumps`` of the log vs
    ``json.dumps`` of the parsed JSON (the same data as plain dicts and lists). Best CPU
    time of ``repeats`` interleaved rounds."""
    log = game.log
    text = cardkit.dumps(log)
    data = json.loads(text)
    loaded = cardkit.loads(text)
    assert len(loaded.entries) == len(log.entries)
    calls: dict[str, Callable[[], object]] = {
        "loads": lambda: cardkit.loads(text),
        "json_loads": lambda: json.loads(text),
        "dumps": lambda: cardkit.dumps(log),
        "json_dumps": lambda: json.dumps(data),
    }
    # interleaved (loads, json.loads, dumps, json.dumps, loads, ...): a burst of load on
    # the machine then slows both sides of a ratio, not one
    best = {name: float("inf") for name in calls}
    for _ in range(repeats):
        for name, call in calls.items():
            best[name] = min(best[name], _best_cpu(call, 1))
    return SerdeCost(entries=len(log.entries), chars=len(text), **best)


def newest_entry_costs(game: cardkit.Game, seat: int, repeats: int) -> tuple[float, float | None]:
    """Best CPU seconds per call of what a streaming host can call after each move.

    First ``game.events_for(seat)`` (the whole game's events: the only way before
    ``entries_for``), then ``game.entries_for(seat, after=newest - 1)`` (checked to return
    exactly the newest entry), or None where ``Game`` has no ``entries_for``.
    """
    events_for = _best_cpu(lambda: game.events_for(seat), repeats)
    last = game.last_entry
    if not hasattr(game, "entries_for") or last is None:
        return events_for, None
    entries_for: Callable[..., tuple[Any, ...]] = getattr(game, "entries_for")
    got = entries_for(seat, after=last.seq - 1)
    assert len(got) == 1 and got[0].seq == last.seq, "entries_for did not return the newest entry"
    calls = 200
    total = _best_cpu(lambda: [entries_for(seat, after=last.seq - 1) for _ in range(calls)], repeats)
    return events_for, total / calls


@dataclass(frozen=True)
class StartupCost:
    """Best wall seconds, measured inside fresh interpreters, of each start-up step."""

    attrs: float
    cardkit: float
    cli_games: float
    pyspiel: float | None


_IMPORT = "import time\nt = time.perf_counter()\n{body}\nprint(repr(time.perf_counter() - t))\n"
_CLI_GAMES = (
    "import contextlib, io\nfrom cardkit.cli.main import main\n"
    "with contextlib.redirect_stdout(io.StringIO()):\n    status = main(['games'])\nassert status == 0"
)


def _fresh(body: str) -> float:
    src = str(Path(cardkit.__file__).resolve().parent.parent)  # the cardkit being measured
    env = dict(os.environ, PYTHONPATH=src + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = subprocess.run(
        [sys.executable, "-c", _IMPORT.format(body=body)],
        env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    return float(out.stdout.strip().splitlines()[-1])


def startup_cost(repeats: int, with_pyspiel: bool) -> StartupCost:
    """``import attrs``, ``import cardkit`` and ``cardkit games`` (in-process:
    ``cardkit.cli.main.main(["games"])``, output discarded), each in a fresh interpreter,
    interleaved, best of ``repeats``; the interpreter's own start-up is not included."""
    best = {"attrs": float("inf"), "cardkit": float("inf"), "cli": float("inf"), "pyspiel": float("inf")}
    bodies = {"attrs": "import attrs", "cardkit": "import cardkit", "cli": _CLI_GAMES}
    if with_pyspiel:
        bodies["pyspiel"] = "import pyspiel"
    for _ in range(repeats):
        for key, body in bodies.items():
            best[key] = min(best[key], _fresh(body))
    return StartupCost(best["attrs"], best["cardkit"], best["cli"], best["pyspiel"] if with_pyspiel else None)


def memory_per_entry(config: Config, entries: int) -> tuple[float, int]:
    """Bytes that a ``Game`` of about ``entries`` log entries keeps alive, per entry.

    This is the game's *retained size* (as heap profilers define it): the memory freed
    when the game is dropped. tracemalloc traces the game being played, then the game is
    deleted and the difference in traced memory is what it alone held: its states,
    snapshots, log nodes, entries and events. Process-wide caches that every game shares
    (checked actions, configs, Spacc 'u Mazz's play combinations; each bounded) stay
    allocated and are not charged to this game's entries. Counting everything still
    allocated after the game instead made the figure depend on which measures had run
    before in the same process (Wizard: 383 B after some, 437 B after others, from one
    557-entry game; Spacc 'u Mazz 2p: 346 B or 493 B).
    """
    gc.collect()
    tracemalloc.start()
    try:
        game = long_log_game(config, entries)
        gc.collect()
        held = tracemalloc.get_traced_memory()[0]
        last = game.last_entry
        count = 0 if last is None else last.seq + 1
        del game, last
        gc.collect()
        freed = held - tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    return freed / max(1, count), count


def play_cost(config: Config, at: int, sample: int = 300) -> float:
    """Best CPU seconds per ``Game.play``, ``at`` player actions into a long game."""
    game = play_game(config, 5, config.long_options, max_actions=at)
    moves = []
    probe = game
    rnd = random.Random(at).random
    for _ in range(sample):
        legal = probe.legal_actions()
        if not legal:
            break
        action = legal[int(rnd() * len(legal))]
        moves.append(action)
        probe = probe.play(action)

    def replay_moves() -> None:
        g = game
        for action in moves:
            g = g.play(action)

    return _best_cpu(replay_moves, 3) / max(1, len(moves))


def undo_cost(game: cardkit.Game, steps: int) -> float:
    """Best CPU seconds of ``game.undo(steps)``."""
    calls = 20
    return _best_cpu(lambda: [game.undo(steps) for _ in range(calls)], 3) / calls
