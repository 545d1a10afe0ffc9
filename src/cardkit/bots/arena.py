"""Bot against bot: many games, seats rotated, win shares with 95% Wilson intervals.

Game ``g`` (0-based) seats bot ``(s + g) % N`` of the list at seat ``s``, so over a
multiple of ``N`` games every bot sits in every seat equally often. Each game's seed and
each seat's bot rng are derived from the arena seed and the game number only, so the
results do not depend on how many worker processes share the games.

A win counts 1, shared equally among tied winners; a game that reaches the step limit
without a result is *unfinished*: it counts in every bot's games but as a win for none.
A game stopped by an end guard of its own options (``max_turns``, ``max_hands``: see
:mod:`cardkit.games.guards`) has the result its rules give a stopped game and counts like
any other, but the report counts such *guard-ended* games apart, so that a table of
mostly stopped games does not read as a table of finished ones.
"""

from __future__ import annotations

import math
import random
from typing import Any, Mapping, Sequence

import attrs

from cardkit.api import new_game
from cardkit.bots.kernel_play import bot_ids, kernel_bridge, play_on_kernel, replay_as_game, use_kernel
from cardkit.bots.spec import make_bot
from cardkit.errors import ConfigError
from cardkit.games import get_rules
from cardkit.games.guards import ended_by_guard
from cardkit.parallel import map_ordered
from cardkit.rng import mix64

__all__ = ["GameOutcome", "BotSummary", "ArenaReport", "play_one", "run_arena", "wilson"]


@attrs.frozen
class GameOutcome:
    """One arena game: ``bots[s]`` is the index (in the bot list) of the bot at seat ``s``;
    ``finished`` is False when the step limit stopped it (no result); ``guard_ended`` is True
    when it has a result because an end guard of the game stopped it (see the module docs)."""

    number: int
    seed: int
    bots: tuple[int, ...]
    finished: bool
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    actions: int
    guard_ended: bool = False


@attrs.frozen
class BotSummary:
    """One bot of the list: games, win share and its 95% Wilson interval, mean score."""

    index: int
    spec: str
    games: int
    wins: float
    share: float
    low: float
    high: float
    mean_score: float


@attrs.frozen
class ArenaReport:
    """The whole run: settings, per-bot summaries, unfinished and guard-ended games."""

    game: str
    players: int
    options: Mapping[str, Any]
    seed: int
    games: int
    unfinished: int
    bots: tuple[BotSummary, ...]
    outcomes: tuple[GameOutcome, ...] = attrs.field(repr=False)
    guard_ended: int = 0

    def as_json(self) -> dict[str, Any]:
        """JSON-compatible form (``--json``)."""
        return {
            "game": self.game,
            "players": self.players,
            "options": dict(self.options),
            "seed": self.seed,
            "games": self.games,
            "unfinished": self.unfinished,
            "guard_ended": self.guard_ended,
            "bots": [attrs.asdict(b) for b in self.bots],
        }

    def table(self) -> str:
        """A plain-text table, one line per bot."""
        lines = [
            f"{self.game}, {self.players} players, {self.games} games, seed {self.seed}, "
            f"options {dict(self.options)}; seats rotated",
            f"{'bot':<16} {'games':>5} {'wins':>7} {'share':>6}  {'95% interval':<15} {'mean score':>10}",
        ]
        for b in self.bots:
            lines.append(
                f"{b.spec:<16} {b.games:>5} {b.wins:>7.1f} {b.share:>6.3f}  "
                f"[{b.low:.3f}, {b.high:.3f}]  {b.mean_score:>10.2f}"
            )
        lines.append(f"unfinished games: {self.unfinished}")
        guard = f"guard-ended games: {self.guard_ended}"
        if self.guard_ended:
            guard += " (stopped by an end guard of the game's options and scored as its rules score a stopped game; counted in the shares)"
        lines.append(guard)
        return "\n".join(lines)


def wilson(successes: float, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default); ``(0, 1)`` when n = 0."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= n else min(1.0, centre + half)
    return (low, high)


def _game_seed(seed: int, number: int) -> int:
    return mix64((seed * 0x9E3779B97F4A7C15 + number) & 0xFFFFFFFFFFFFFFFF)


def play_one(
    game_name: str,
    players: int,
    options: Mapping[str, Any],
    specs: Sequence[str],
    seed: int,
    number: int,
    max_actions: int = 5000,
    engine: str = "reducer",
) -> GameOutcome:
    """Play arena game ``number`` (seating and seeds as in the module docs).

    ``engine="kernel"`` plays it on the game's kernel (every bot must have ``choose_id``:
    see :mod:`cardkit.bots.kernel_play`), which gives the same game as the reference."""
    n = players
    seating = tuple((s + number) % n for s in range(n))
    bots = [make_bot(specs[i]) for i in seating]
    rngs = [random.Random(f"cardkit-arena:{seed}:{number}:{s}") for s in range(n)]
    game_seed = _game_seed(seed, number)
    if engine == "kernel":
        outcome = _on_kernel(game_name, n, options, bots, rngs, game_seed, number, seating, max_actions)
        if outcome is not None:
            return outcome
    game = new_game(game_name, players=n, seed=game_seed, **dict(options))
    actions = 0
    while not game.is_over and actions < max_actions:
        seat = game.to_act
        assert seat is not None and seat >= 0
        action = bots[seat].choose(game.seat_state(seat), rngs[seat])
        game = game.play(action, seat)
        actions += 1
    result = game.result
    if result is None:
        return GameOutcome(number, game_seed, seating, False, (), tuple(game.scores), actions)
    guard = ended_by_guard(game)
    return GameOutcome(number, game_seed, seating, True, result.winners, result.scores, actions, guard)


def _on_kernel(
    game_name: str,
    players: int,
    options: Mapping[str, Any],
    bots: Sequence[Any],
    rngs: Sequence[random.Random],
    game_seed: int,
    number: int,
    seating: tuple[int, ...],
    max_actions: int,
) -> GameOutcome | None:
    rules = get_rules(game_name)
    config = rules.config(players, **dict(options))
    bridge = kernel_bridge(rules, config)
    if bridge is None:
        return None
    played = play_on_kernel(bridge, rules, config, game_seed, bot_ids(bots, rngs), max_actions)
    if played is None:
        return None
    if not played.over:
        return GameOutcome(number, game_seed, seating, False, (), played.scores, played.seat_actions)
    guard = played.guard_ended
    if guard is None:  # the kernel cannot tell: ask the reference game
        guard = ended_by_guard(replay_as_game(bridge, rules, config, game_seed, played))
    return GameOutcome(number, game_seed, seating, True, played.winners, played.scores, played.seat_actions, guard)


def _job(args: tuple[str, int, dict[str, Any], tuple[str, ...], int, int, int, str]) -> GameOutcome:
    return play_one(*args)


def run_arena(
    game_name: str,
    players: int,
    specs: Sequence[str],
    games: int,
    seed: int = 0,
    workers: int = 1,
    options: Mapping[str, Any] | None = None,
    max_actions: int = 5000,
    engine: str = "auto",
) -> ArenaReport:
    """Play ``games`` games and summarize them (see the module docs).

    ``specs`` lists one bot per seat (``len(specs) == players``); ``games`` must be a
    multiple of ``players`` so that every bot sits in every seat equally often.
    ``engine`` is ``auto`` (the game's kernel when it has one and every bot can play on
    it: random and rule bots; the same games, faster), ``kernel`` (required: a
    :class:`ConfigError` if it cannot be used) or ``reducer`` (the reference reducer).
    """
    options = dict(options or {})
    rules = get_rules(game_name)
    rules.config(players, **options)  # ConfigError early, in this process
    specs = tuple(specs)
    if len(specs) != players:
        raise ConfigError(
            f"{len(specs)} bot(s) for {players} seats: list one bot per seat, e.g. "
            f"--bots {','.join(['rule'] * players)}"
        )
    for spec in specs:
        make_bot(spec)
    if games < 1 or games % players:
        raise ConfigError(
            f"--games must be a positive multiple of {players} (every bot in every seat equally)"
        )
    if workers < 1:
        raise ConfigError(f"--workers must be at least 1, not {workers}")
    config = rules.config(players, **options)
    resolved = "kernel" if use_kernel(engine, rules, config, [make_bot(s) for s in specs]) else "reducer"
    jobs = [(game_name, players, options, specs, seed, g, max_actions, resolved) for g in range(games)]
    # in game order, whatever workers is (and never more processes than games)
    ordered = tuple(map_ordered(_job, jobs, min(workers, len(jobs))))
    return summarize(game_name, players, options, seed, specs, ordered)


def summarize(
    game_name: str,
    players: int,
    options: Mapping[str, Any],
    seed: int,
    specs: Sequence[str],
    outcomes: Sequence[GameOutcome],
) -> ArenaReport:
    """Per-bot summaries of ``outcomes``."""
    k = len(specs)
    wins = [0.0] * k
    played = [0] * k
    points = [0] * k
    for o in outcomes:
        for seat, bot in enumerate(o.bots):
            played[bot] += 1
            points[bot] += o.scores[seat]
        if o.winners:
            share = 1.0 / len(o.winners)
            for seat in o.winners:
                wins[o.bots[seat]] += share
    summaries = []
    for i, spec in enumerate(specs):
        low, high = wilson(wins[i], played[i])
        summaries.append(
            BotSummary(
                i, spec, played[i], wins[i], wins[i] / played[i] if played[i] else 0.0,
                low, high, points[i] / played[i] if played[i] else 0.0,
            )  # fmt: skip
        )
    return ArenaReport(
        game_name, players, dict(options), seed, len(outcomes),
        sum(1 for o in outcomes if not o.finished), tuple(summaries), tuple(outcomes),
        sum(1 for o in outcomes if o.finished and o.guard_ended),
    )  # fmt: skip
